package dev.muster.adapter.extender;

import dev.muster.adapter.clusterview.WatchedClusterVersion;
import dev.muster.adapter.clusterview.KubernetesClusterViewSource;
import dev.muster.adapter.extender.ExtenderWire.ExtenderArgs;
import dev.muster.adapter.extender.ExtenderWire.ExtenderFilterResult;
import dev.muster.core.decision.DecisionEngine;
import dev.muster.core.decision.EngineConfig;
import dev.muster.core.model.Node;
import dev.muster.core.model.Pod;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.scheduling.v1alpha2.PodGroupBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Predicate;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The watch source on fabric8's mock API server at a modest scale (500 nodes in racks of 20 and 5,000 bound pods in
 * the build; 2,000 / 20,000 with {@code -Dmuster.test.view-nodes=2000}):
 * after adds, updates and deletes the extender's prepared view converges to the server's objects, and a gang
 * member's filter answer moves when its rack is cordoned.
 */
@EnableKubernetesMockClient(crud = true)
class KubernetesViewConvergenceTest {
    static KubernetesClient client;
    /** 500 nodes / 5,000 pods in the build; {@code -Dmuster.test.view-nodes=2000} for 2,000 / 20,000. */
    private static final int NODES = Integer.getInteger("muster.test.view-nodes", 500);
    private static final int PODS_PER_NODE = 10;
    private static final String RACK = "topology.kubernetes.io/rack";

    private static String nodeName(int i) {
        return String.format("node-%04d", i);
    }

    private static io.fabric8.kubernetes.api.model.Node node(int i) {
        return new NodeBuilder().withNewMetadata().withName(nodeName(i))
                .withLabels(Map.of(RACK, "rack-" + (i / 20), "kubernetes.io/hostname", nodeName(i))).endMetadata()
                .withNewStatus().withAllocatable(Map.of("cpu", new Quantity("8"), "memory", new Quantity("32Gi"),
                        "pods", new Quantity("110"))).endStatus().build();
    }

    private static io.fabric8.kubernetes.api.model.Pod pod(String ns, String name, String nodeName, String group) {
        PodBuilder b = new PodBuilder().withNewMetadata().withName(name).withNamespace(ns).withUid("uid-" + name)
                .endMetadata().withNewSpec().withNodeName(nodeName).addNewContainer().withName("c")
                .withNewResources().withRequests(Map.of("cpu", new Quantity(group == null ? "500m" : "2")))
                .endResources().endContainer().endSpec();
        if (group != null) {
            b.editSpec().withNewSchedulingGroup().withPodGroupName(group).endSchedulingGroup().endSpec();
        }
        return b.build();
    }

    private static void parallel(int n, java.util.function.IntConsumer each) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            List<Future<?>> all = new ArrayList<>();
            for (int t = 0; t < 3; t++) {
                int from = t;
                all.add(pool.submit(() -> IntStream.iterate(from, i -> i < n, i -> i + 3).forEach(each)));
            }
            for (Future<?> f : all) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** The server's pods as namespace/name -> node ("" when unbound). */
    private static Map<String, String> serverPods() {
        Map<String, String> out = new TreeMap<>();
        for (var p : client.pods().inAnyNamespace().list().getItems()) {
            String n = p.getSpec().getNodeName();
            out.put(p.getMetadata().getNamespace() + "/" + p.getMetadata().getName(), n == null ? "" : n);
        }
        return out;
    }

    private static Map<String, String> viewPods(WatchedClusterVersion v) {
        Map<String, String> out = new TreeMap<>();
        for (Pod p : v.state().pods()) {
            out.put(p.ref().toString(), p.nodeName() == null ? "" : p.nodeName());
        }
        return out;
    }

    /** Waits (up to 60 s) until the prepared view matches; fails with what it last saw. */
    private static WatchedClusterVersion converge(PreparedViews views, Predicate<WatchedClusterVersion> matches)
            throws Exception {
        WatchedClusterVersion v = views.awaitLatest();
        for (int i = 0; i < 600 && !matches.test(v); i++) {
            Thread.sleep(100);
            v = views.awaitLatest();
        }
        assertThat(matches.test(v)).as("view never converged; last %s", v).isTrue();
        return v;
    }

    private static ExtenderFilterResult filter(ExtenderService service, ExtenderCodec codec, String member)
            throws Exception {
        StringBuilder sb = new StringBuilder("{\"Pod\":{\"metadata\":{\"name\":\"" + member + "\",\"namespace\":\"ml\","
                + "\"uid\":\"uid-" + member + "\"},\"spec\":{\"containers\":[{\"name\":\"c\",\"resources\":"
                + "{\"requests\":{\"cpu\":\"2\"}}}],\"schedulingGroup\":{\"podGroupName\":\"g\"}}},\"NodeNames\":[");
        for (int i = 0; i < NODES; i++) {
            sb.append(i == 0 ? "\"" : ",\"").append(nodeName(i)).append('"');
        }
        return service.filter(codec.read(sb.append("]}").toString().getBytes(StandardCharsets.UTF_8),
                ExtenderArgs.class));
    }

    @Test
    void theViewFollowsTheServerThroughAddsUpdatesAndDeletesAndTheAnswerFollowsTheView() throws Exception {
        parallel(NODES, i -> client.nodes().resource(node(i)).create());
        parallel(NODES * PODS_PER_NODE, i -> client.pods().inNamespace("ns-" + (i % 20))
                .resource(pod("ns-" + (i % 20), "app-" + i, nodeName(i / PODS_PER_NODE), null)).create());
        client.resources(io.fabric8.kubernetes.api.model.scheduling.v1alpha2.PodGroup.class).inNamespace("ml")
                .resource(new PodGroupBuilder().withNewMetadata().withName("g").withNamespace("ml").endMetadata()
                        .withNewSpec().withNewSchedulingPolicy().withNewGang().withMinCount(2).endGang()
                        .endSchedulingPolicy().withNewSchedulingConstraints().addNewTopology().withKey(RACK)
                        .endTopology().endSchedulingConstraints().endSpec().build()).create();
        for (int m = 0; m < 2; m++) {
            client.pods().inNamespace("ml").resource(pod("ml", "g-" + m, null, "g")).create();
        }

        ExtenderCodec codec = new ExtenderCodec();
        try (KubernetesClusterViewSource source = KubernetesClusterViewSource.start(client, false);
             PreparedViews views = new PreparedViews(source, Duration.ofMinutes(10))) {
            ExtenderService service = new ExtenderService(views, new DecisionEngine(EngineConfig.DEFAULT), codec, 8);
            Map<String, String> expected = serverPods();
            WatchedClusterVersion v = converge(views, x -> x.state().nodes().size() == NODES
                    && viewPods(x).equals(expected) && x.state().podGroups().size() == 1);
            assertThat(v.state().pods()).hasSize(NODES * PODS_PER_NODE + 2);

            ExtenderFilterResult first = filter(service, codec, "g-0");
            assertThat(first.nodeNames()).as("answer %s", first.failedNodes().values().stream().findFirst())
                    .hasSize(1);
            String placed = first.nodeNames().get(0);
            int rack = Integer.parseInt(placed.substring("node-".length())) / 20;

            // deletes, adds, updates (pods rebound, node labels), and the gang's rack cordoned
            parallel(500, i -> client.pods().inNamespace("ns-" + (i * 37 % 20)).withName("app-" + (i * 37)).delete());
            parallel(300, i -> client.pods().inNamespace("extra").resource(pod("extra", "x-" + i,
                    nodeName((i * 7) % NODES), null)).create());
            parallel(100, i -> client.nodes().withName(nodeName(i * 13 % NODES)).edit(n -> {
                n.getMetadata().getLabels().put("pool", "updated");
                return n;
            }));
            parallel(20, i -> client.nodes().withName(nodeName(rack * 20 + i)).edit(n -> {
                if (n.getSpec() == null) {
                    n.setSpec(new io.fabric8.kubernetes.api.model.NodeSpec());
                }
                n.getSpec().setUnschedulable(true);
                return n;
            }));
            Map<String, String> after = serverPods();
            WatchedClusterVersion w = converge(views, x -> viewPods(x).equals(after)
                    && x.node(nodeName(rack * 20)).unschedulable()
                    && "updated".equals(x.node(nodeName(0)).labels().get("pool")));
            assertThat(w.generation()).isGreaterThan(v.generation());
            for (int i = 0; i < 100; i++) {
                Node n = w.node(nodeName(i * 13 % NODES));
                assertThat(n.labels()).containsEntry("pool", "updated");
            }

            ExtenderFilterResult second = filter(service, codec, "g-0");
            assertThat(second.nodeNames()).hasSize(1);
            String now = second.nodeNames().get(0);
            assertThat(Integer.parseInt(now.substring("node-".length())) / 20).as("moved off the cordoned rack")
                    .isNotEqualTo(rack);
            assertThat(second.failedNodes().get(placed)).contains("places this pod on node \"" + now + "\"");
        }
    }
}
