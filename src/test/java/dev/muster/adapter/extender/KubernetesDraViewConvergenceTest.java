package dev.muster.adapter.extender;

import dev.muster.adapter.clusterview.WatchedClusterVersion;
import dev.muster.adapter.clusterview.KubernetesClusterViewSource;
import dev.muster.adapter.extender.ExtenderWire.ExtenderArgs;
import dev.muster.adapter.extender.ExtenderWire.ExtenderFilterResult;
import dev.muster.core.decision.DecisionEngine;
import dev.muster.core.decision.EngineConfig;
import dev.muster.core.dra.AllocationResult;
import dev.muster.core.dra.DraObjects;
import dev.muster.core.dra.ResourceClaim;
import dev.muster.core.dra.ResourceSlice;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.scheduling.v1alpha2.PodGroupBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The watch source reads the four DRA kinds from fabric8's mock API server: after slices and claims are added,
 * modified and deleted, the prepared view holds exactly the server's objects, and the extender's filter answer for
 * a gang member with a claim follows the devices that are free in it.
 */
@EnableKubernetesMockClient(crud = true)
class KubernetesDraViewConvergenceTest {
    static KubernetesClient client;

    private static <T extends HasMetadata> T object(Class<T> type, String singleQuoted) {
        return client.getKubernetesSerialization().unmarshal(singleQuoted.replace('\'', '"'), type);
    }

    private static io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice slice(String node, String... devices) {
        StringBuilder d = new StringBuilder();
        for (String name : devices) {
            d.append(d.length() == 0 ? "" : ",").append("{'name':'").append(name).append("'}");
        }
        return object(io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice.class,
                "{'apiVersion':'resource.k8s.io/v1','kind':'ResourceSlice','metadata':{'name':'" + node + "-gpus'},"
                        + "'spec':{'driver':'gpu.example.com','pool':{'name':'" + node + "','generation':1,"
                        + "'resourceSliceCount':1},'nodeName':'" + node + "','devices':[" + d + "]}}");
    }

    /** A claim for one GPU, allocated to {@code device} of {@code node}'s pool and reserved for {@code pod}. */
    private static io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim held(String name, String node,
                                                                                   String device, String pod) {
        return object(io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim.class,
                "{'apiVersion':'resource.k8s.io/v1','kind':'ResourceClaim','metadata':{'name':'" + name + "',"
                        + "'namespace':'serving','uid':'uid-" + name + "'},'spec':{'devices':{'requests':[{'name':'gpu',"
                        + "'exactly':{'deviceClassName':'gpu.example.com'}}]}},'status':{'allocation':{'devices':{"
                        + "'results':[{'request':'gpu','driver':'gpu.example.com','pool':'" + node + "','device':'"
                        + device + "'}]},'nodeSelector':{'nodeSelectorTerms':[{'matchFields':[{'key':'metadata.name',"
                        + "'operator':'In','values':['" + node + "']}]}]}},'reservedFor':[{'resource':'pods','name':'"
                        + pod + "','uid':'uid-" + pod + "'}]}}");
    }

    private static io.fabric8.kubernetes.api.model.Node node(String name) {
        return object(io.fabric8.kubernetes.api.model.Node.class, "{'apiVersion':'v1','kind':'Node','metadata':"
                + "{'name':'" + name + "','labels':{'kubernetes.io/hostname':'" + name + "'}},'status':{'allocatable':"
                + "{'cpu':'8','memory':'32Gi','pods':'110'}}}");
    }

    private static final String WORKER = "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'w','namespace':'ml',"
            + "'uid':'uid-w'},'spec':{'containers':[{'name':'main','resources':{'requests':{'cpu':'1'}}}],"
            + "'resourceClaims':[{'name':'gpu','resourceClaimTemplateName':'one-gpu'}],"
            + "'schedulingGroup':{'podGroupName':'train'}}}";

    /** The view's DRA objects by kind, each as sorted names (claims with their allocated devices). */
    private static Map<String, List<String>> viewDra(WatchedClusterVersion v) {
        DraObjects d = v.dra();
        Map<String, List<String>> out = new TreeMap<>();
        out.put("classes", d.deviceClasses().stream().map(c -> c.name()).sorted().toList());
        out.put("slices", d.resourceSlices().stream().map(KubernetesDraViewConvergenceTest::describe).sorted()
                .toList());
        out.put("claims", d.resourceClaims().stream().map(KubernetesDraViewConvergenceTest::describe).sorted()
                .toList());
        out.put("templates", d.resourceClaimTemplates().stream().map(t -> t.namespace() + "/" + t.name()).sorted()
                .toList());
        return out;
    }

    private static String describe(ResourceSlice s) {
        return s.name() + "@" + s.nodeName() + s.devices().stream().map(x -> x.name()).toList();
    }

    private static String describe(ResourceClaim c) {
        AllocationResult a = c.allocation();
        return c.key() + (a == null ? "" : "->" + a.devices().stream().map(x -> x.pool() + "/" + x.device())
                .toList());
    }

    /** The same, from the server's objects. */
    private static Map<String, List<String>> serverDra() {
        Map<String, List<String>> out = new TreeMap<>();
        out.put("classes", client.resources(DeviceClass.class).list().getItems().stream()
                .map(c -> c.getMetadata().getName()).sorted().toList());
        out.put("slices", client.resources(io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice.class).list()
                .getItems().stream().map(s -> s.getMetadata().getName() + "@" + s.getSpec().getNodeName()
                        + s.getSpec().getDevices().stream().map(x -> x.getName()).toList()).sorted().toList());
        out.put("claims", client.resources(io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim.class)
                .inAnyNamespace().list().getItems().stream().map(c -> c.getMetadata().getNamespace() + "/"
                        + c.getMetadata().getName() + (c.getStatus() == null || c.getStatus().getAllocation() == null
                        ? "" : "->" + c.getStatus().getAllocation().getDevices().getResults().stream()
                        .map(x -> x.getPool() + "/" + x.getDevice()).toList())).sorted().toList());
        out.put("templates", client.resources(ResourceClaimTemplate.class).inAnyNamespace().list().getItems().stream()
                .map(t -> t.getMetadata().getNamespace() + "/" + t.getMetadata().getName()).sorted().toList());
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
        assertThat(matches.test(v)).as("view never converged; last %s %s", v, viewDra(v)).isTrue();
        return v;
    }

    private static WatchedClusterVersion convergeToServer(PreparedViews views) throws Exception {
        Map<String, List<String>> expected = serverDra();
        WatchedClusterVersion v = converge(views, x -> viewDra(x).equals(expected));
        assertThat(viewDra(v)).isEqualTo(expected);
        return v;
    }

    private static ExtenderFilterResult filter(ExtenderService service, ExtenderCodec codec) throws Exception {
        String args = "{\"Pod\":" + WORKER.replace('\'', '"') + ",\"NodeNames\":[\"node-a\",\"node-b\"]}";
        return service.filter(codec.read(args.getBytes(StandardCharsets.UTF_8), ExtenderArgs.class));
    }

    @Test
    void theViewFollowsTheDraObjectsAndTheAnswerFollowsTheFreeDevices() throws Exception {
        client.nodes().resource(node("node-a")).create();
        client.nodes().resource(node("node-b")).create();
        client.pods().inNamespace("ml").resource(object(io.fabric8.kubernetes.api.model.Pod.class, WORKER)).create();
        client.resources(io.fabric8.kubernetes.api.model.scheduling.v1alpha2.PodGroup.class).inNamespace("ml")
                .resource(new PodGroupBuilder().withNewMetadata().withName("train").withNamespace("ml").endMetadata()
                        .withNewSpec().withNewSchedulingPolicy().withNewGang().withMinCount(1).endGang()
                        .endSchedulingPolicy().endSpec().build()).create();
        client.resources(DeviceClass.class).resource(client.getKubernetesSerialization().unmarshal("""
                {"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": "gpu.example.com"},
                 "spec": {"selectors": [{"cel": {"expression": "device.driver == 'gpu.example.com'"}}]}}
                """, DeviceClass.class)).create();
        client.resources(ResourceClaimTemplate.class).inNamespace("ml").resource(object(ResourceClaimTemplate.class,
                "{'apiVersion':'resource.k8s.io/v1','kind':'ResourceClaimTemplate','metadata':{'name':'one-gpu',"
                        + "'namespace':'ml'},'spec':{'spec':{'devices':{'requests':[{'name':'gpu','exactly':"
                        + "{'deviceClassName':'gpu.example.com'}}]}}}}")).create();
        var slices = client.resources(io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice.class);
        var claims = client.resources(io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim.class);
        slices.resource(slice("node-a", "gpu-0")).create();
        slices.resource(slice("node-b", "gpu-0")).create();
        claims.inNamespace("serving").resource(held("held-b", "node-b", "gpu-0", "server-b")).create();

        ExtenderCodec codec = new ExtenderCodec();
        try (KubernetesClusterViewSource source = KubernetesClusterViewSource.start(client, false);
             PreparedViews views = new PreparedViews(source, Duration.ofMinutes(10))) {
            ExtenderService service = new ExtenderService(views, new DecisionEngine(EngineConfig.DEFAULT), codec, 8);

            WatchedClusterVersion first = convergeToServer(views);
            assertThat(viewDra(first)).containsEntry("classes", List.of("gpu.example.com"))
                    .containsEntry("templates", List.of("ml/one-gpu"))
                    .containsEntry("claims", List.of("serving/held-b->[node-b/gpu-0]"));
            assertThat(first.state().nodes()).hasSize(2);
            assertThat(filter(service, codec).nodeNames()).as("node-b's only GPU is taken").containsExactly("node-a");

            // a claim added later takes node-a's GPU; node-b's slice is modified to offer a second one
            claims.inNamespace("serving").resource(held("held-a", "node-a", "gpu-0", "server-a")).create();
            slices.withName("node-b-gpus").edit(s -> {
                s.getSpec().getDevices().add(new DeviceBuilder().withName("gpu-1").build());
                return s;
            });
            WatchedClusterVersion second = convergeToServer(views);
            assertThat(viewDra(second).get("slices")).contains("node-b-gpus@node-b[gpu-0, gpu-1]");
            assertThat(viewDra(second).get("claims")).containsExactly("serving/held-a->[node-a/gpu-0]",
                    "serving/held-b->[node-b/gpu-0]");
            assertThat(second.generation()).isGreaterThan(first.generation());
            assertThat(filter(service, codec).nodeNames()).as("steered to node-b's free GPU")
                    .containsExactly("node-b");

            // deletes: node-a's claim goes (its GPU is free again), node-b's slice goes (no GPU there)
            claims.inNamespace("serving").withName("held-a").delete();
            slices.withName("node-b-gpus").delete();
            WatchedClusterVersion third = convergeToServer(views);
            assertThat(viewDra(third).get("slices")).containsExactly("node-a-gpus@node-a[gpu-0]");
            assertThat(viewDra(third).get("claims")).containsExactly("serving/held-b->[node-b/gpu-0]");
            ExtenderFilterResult last = filter(service, codec);
            assertThat(last.nodeNames()).as("back to node-a").containsExactly("node-a");
            assertThat(last.failedNodes()).containsKey("node-b");
        }
    }
}
