package dev.muster.adapter.kube;

import dev.muster.core.model.ResourceList;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class EffectiveRequestsTest {

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("a pod without containers requests nothing",
                        spec(List.of(), List.of(), null, null), Map.of()),
                Arguments.of("regular containers add up",
                        spec(List.of(c("cpu", "500m", "memory", "1Gi"), c("cpu", "250m", "memory", "512Mi")), List.of(), null, null),
                        Map.of("cpu", 750L, "memory", 1610612736L)),
                Arguments.of("a limit without a request counts as the request",
                        spec(List.of(limitsOnly("cpu", "1", "memory", "1Gi"), c("cpu", "100m")), List.of(), null, null),
                        Map.of("cpu", 1100L, "memory", 1073741824L)),
                Arguments.of("a request wins over its limit",
                        spec(List.of(both(Map.of("cpu", "100m"), Map.of("cpu", "2"))), List.of(), null, null),
                        Map.of("cpu", 100L)),
                Arguments.of("a big init container sets the pod's request",
                        spec(List.of(c("cpu", "1")), List.of(c("cpu", "3")), null, null),
                        Map.of("cpu", 3000L)),
                Arguments.of("a small init container does not add to the containers",
                        spec(List.of(c("cpu", "2")), List.of(c("cpu", "1")), null, null),
                        Map.of("cpu", 2000L)),
                Arguments.of("sidecars add to the regular containers",
                        spec(List.of(c("cpu", "1")), List.of(sidecar("cpu", "500m")), null, null),
                        Map.of("cpu", 1500L)),
                Arguments.of("an init container after a sidecar runs beside it",
                        spec(List.of(c("cpu", "1")), List.of(sidecar("cpu", "1"), c("cpu", "2")), null, null),
                        Map.of("cpu", 3000L)),
                Arguments.of("an init container before a sidecar runs alone",
                        spec(List.of(c("cpu", "1")), List.of(c("cpu", "2"), sidecar("cpu", "1")), null, null),
                        Map.of("cpu", 2000L)),
                Arguments.of("the maximum is taken per resource",
                        spec(List.of(c("cpu", "2", "memory", "1Gi")), List.of(c("cpu", "1", "memory", "2Gi")), null, null),
                        Map.of("cpu", 2000L, "memory", 2147483648L)),
                Arguments.of("overhead is added last",
                        spec(List.of(c("cpu", "1")), List.of(c("cpu", "3")), Map.of("cpu", "250m", "memory", "120Mi"), null),
                        Map.of("cpu", 3250L, "memory", 125829120L)),
                Arguments.of("pod-level requests replace the container sum for cpu and memory",
                        spec(List.of(c("cpu", "1", "memory", "1Gi", "nvidia.com/gpu", "1")), List.of(), null,
                                new Kube.Resources(q(Map.of("cpu", "4")), q(Map.of("memory", "8Gi")))),
                        Map.of("cpu", 4000L, "memory", 8589934592L, "nvidia.com/gpu", 1L)),
                Arguments.of("fractions add up exactly before rounding",
                        spec(List.of(c("cpu", "0.0005"), c("cpu", "0.0005")), List.of(), null, null),
                        Map.of("cpu", 1L)),
                Arguments.of("extended resources are whole units",
                        spec(List.of(c("example.com/foo", "3"), c("example.com/foo", "2")), List.of(), null, null),
                        Map.of("example.com/foo", 5L)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void computesEffectiveRequestsTheKubernetesWay(String name, Kube.PodSpec spec, Map<String, Long> expected) {
        ResourceList r = EffectiveRequests.of(spec);
        assertThat(r.amounts()).containsExactlyInAnyOrderEntriesOf(expected);
    }

    private static Kube.PodSpec spec(List<Kube.Container> containers, List<Kube.Container> inits,
                                     Map<String, String> overhead, Kube.Resources podLevel) {
        return new Kube.PodSpec(null, null, null, null, null, null, null, null, containers, inits,
                overhead == null ? null : q(overhead), podLevel, null, null, null, null);
    }

    private static Map<String, Qty> q(Map<String, String> m) {
        Map<String, Qty> out = new LinkedHashMap<>();
        m.forEach((k, v) -> out.put(k, Qty.of(v)));
        return out;
    }

    private static Map<String, Qty> pairs(String... kv) {
        Map<String, Qty> out = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            out.put(kv[i], Qty.of(kv[i + 1]));
        }
        return out;
    }

    static Kube.Container c(String... kv) {
        return new Kube.Container("c", new Kube.Resources(pairs(kv), null), new ArrayList<>(), null);
    }

    static Kube.Container sidecar(String... kv) {
        return new Kube.Container("s", new Kube.Resources(pairs(kv), null), null, "Always");
    }

    static Kube.Container limitsOnly(String... kv) {
        return new Kube.Container("l", new Kube.Resources(null, pairs(kv)), null, null);
    }

    static Kube.Container both(Map<String, String> requests, Map<String, String> limits) {
        return new Kube.Container("b", new Kube.Resources(q(requests), q(limits)), null, null);
    }
}
