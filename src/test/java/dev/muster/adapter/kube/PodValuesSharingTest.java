package dev.muster.adapter.kube;

import dev.muster.adapter.cel.CelSelectors;
import dev.muster.core.model.Pod;
import dev.muster.core.model.ResourceList;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The replicas of one workload compile to one labels map and one effective-requests object; a pod whose labels or
 * requests differ keeps its own, and requests that init containers, pod-level resources or overhead change are still
 * computed from them, not taken from an earlier pod with the same containers.
 */
class PodValuesSharingTest {
    private static final String CONTAINERS = """
            "containers": [{"name": "app", "image": "app:1",
              "resources": {"requests": {"cpu": "500m", "memory": "1Gi"}}}]""";

    private static String pod(String name, String labels, String specExtra) {
        return """
                {"metadata": {"namespace": "batch", "name": "%s", "uid": "u-%s", "labels": {%s}},
                 "spec": {"nodeName": "n1", %s%s}}""".formatted(name, name, labels, CONTAINERS, specExtra);
    }

    private static List<Pod> pods(String... pods) throws Exception {
        String body = "{\"snapshot\": {\"pods\": [" + String.join(",", pods) + "]}}";
        RequestDocument doc = new KubeCodec(KubeCodec.Limits.DEFAULT).readJson(body.getBytes(StandardCharsets.UTF_8));
        return KubeMapper.toDecisionRequest(doc, CelSelectors.shared()::compile).cluster().pods();
    }

    @Test
    void equalLabelsAndRequestsAreOneObjectEach() throws Exception {
        List<Pod> pods = pods(
                pod("a", "\"app\": \"web\", \"tier\": \"front\"", ""),
                pod("b", "\"tier\": \"front\", \"app\": \"web\"", ""), // the same set, written in another order
                pod("c", "\"app\": \"db\"", ""));

        assertThat(pods.get(1).labels()).isSameAs(pods.get(0).labels());
        assertThat(pods.get(0).labels()).containsExactly(Map.entry("app", "web"), Map.entry("tier", "front"));
        assertThat(pods.get(2).labels()).isEqualTo(Map.of("app", "db"));
        assertThat(pods.get(1).requests()).isSameAs(pods.get(0).requests());
        assertThat(pods.get(2).requests()).isSameAs(pods.get(0).requests());
        assertThat(pods.get(0).requests().get(ResourceList.CPU)).isEqualTo(500L);
    }

    @Test
    void requestsThatMoreThanTheContainersChangeAreComputedForThatPod() throws Exception {
        List<Pod> pods = pods(
                pod("plain", "", ""),
                pod("overhead", "", ", \"overhead\": {\"cpu\": \"250m\"}"),
                pod("init", "", ", \"initContainers\": [{\"name\": \"setup\", \"image\": \"setup:1\","
                        + " \"resources\": {\"requests\": {\"cpu\": \"2\"}}}]"),
                pod("podLevel", "", ", \"resources\": {\"requests\": {\"cpu\": \"1\"}}"),
                pod("plainAgain", "", ""));

        assertThat(pods).extracting(p -> p.requests().get(ResourceList.CPU))
                .containsExactly(500L, 750L, 2000L, 1000L, 500L);
        assertThat(pods.get(4).requests()).isSameAs(pods.get(0).requests());
        assertThat(pods.get(0).labels()).isEmpty();
    }
}
