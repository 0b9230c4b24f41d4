package dev.muster.adapter.clusterview;

import dev.muster.core.model.GroupRef;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodGroup;
import dev.muster.core.model.PodRef;
import dev.muster.core.model.SchedulingPolicy;
import io.fabric8.kubernetes.api.model.Binding;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClassBuilder;
import io.fabric8.kubernetes.api.model.scheduling.v1alpha2.PodGroupBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/** The Kubernetes watch source against fabric8's mock API server in CRUD mode. */
@EnableKubernetesMockClient(crud = true)
class KubernetesClusterViewSourceTest {
    static KubernetesClient client;

    private KubernetesClusterViewSource source;

    @BeforeEach
    void start() {
        source = KubernetesClusterViewSource.start(client, false);
    }

    @AfterEach
    void stop() {
        source.close();
    }

    /** Polls the view (the informers deliver asynchronously); fails with the last view after 10 s. */
    private WatchedClusterVersion await(Predicate<WatchedClusterVersion> condition) throws InterruptedException {
        WatchedClusterVersion v = source.current();
        for (int i = 0; i < 200 && !condition.test(v); i++) {
            Thread.sleep(50);
            v = source.current();
        }
        assertThat(condition.test(v)).as("view never matched; last: generation %d, %s", v.generation(), v.state())
                .isTrue();
        return v;
    }

    @Test
    void nodesPodsPodGroupsAndPriorityClassesFlowIntoTheViewAndEachChangeBumpsTheGeneration() throws Exception {
        client.nodes().resource(new NodeBuilder().withNewMetadata().withName("n1")
                .withLabels(Map.of("topology.kubernetes.io/rack", "r1")).endMetadata()
                .withNewStatus().withAllocatable(Map.of("cpu", new Quantity("8"), "pods", new Quantity("110")))
                .endStatus().build()).create();
        client.resources(io.fabric8.kubernetes.api.model.scheduling.v1alpha2.PodGroup.class).inNamespace("ml")
                .resource(new PodGroupBuilder().withNewMetadata().withName("train").withNamespace("ml").endMetadata()
                        .withNewSpec().withNewSchedulingPolicy().withNewGang().withMinCount(2).endGang()
                        .endSchedulingPolicy().withPriorityClassName("high").endSpec().build()).create();
        client.scheduling().v1().priorityClasses().resource(new PriorityClassBuilder().withNewMetadata()
                .withName("high").endMetadata().withValue(1000).build()).create();
        client.pods().inNamespace("ml").resource(new PodBuilder().withNewMetadata().withName("train-0")
                .withNamespace("ml").withUid("uid-train-0").endMetadata().withNewSpec()
                .addNewContainer().withName("c").withNewResources().withRequests(Map.of("cpu", new Quantity("2")))
                .endResources().endContainer().withNewSchedulingGroup().withPodGroupName("train").endSchedulingGroup()
                .endSpec().build()).create();

        WatchedClusterVersion v = await(x -> x.state().nodes().size() == 1 && x.state().pods().size() == 1
                && x.state().podGroups().size() == 1 && x.state().priorityClasses().size() == 1);
        assertThat(v.node("n1").labels()).containsEntry("topology.kubernetes.io/rack", "r1");
        assertThat(v.node("n1").allocatable().get("cpu")).isEqualTo(8000L);
        Pod p = v.pod(new PodRef("ml", "train-0"));
        assertThat(v.podsByUid()).as("the mock server assigns UIDs").containsKey(p.uid());
        assertThat(p.groupRef()).isEqualTo(new GroupRef("ml", "train"));
        assertThat(p.isBound()).isFalse();
        PodGroup g = v.state().podGroups().get(0);
        assertThat(g.policy()).isEqualTo(SchedulingPolicy.gang(2));
        assertThat(g.priorityClassName()).isEqualTo("high");
        long generation = v.generation();
        assertThat(source.current()).as("no change, same view").isSameAs(v);

        client.pods().inNamespace("ml").withName("train-0").edit(pod -> {
            pod.getSpec().setNodeName("n1");
            return pod;
        });
        WatchedClusterVersion bound = await(x -> x.pod(new PodRef("ml", "train-0")).isBound());
        assertThat(bound.generation()).isGreaterThan(generation);

        client.pods().inNamespace("ml").withName("train-0").delete();
        WatchedClusterVersion gone = await(x -> x.state().pods().isEmpty());
        assertThat(gone.generation()).isGreaterThan(bound.generation());
    }

    @Test
    void theBinderCreatesABindingForThePod() throws Exception {
        // let the informers' first lists and watches (ten kinds) open before the binding asks for a connection:
        // on a loaded machine they can hold the client past its 10 s connection timeout
        for (int i = 0; i < 200 && !source.synced(); i++) {
            Thread.sleep(50);
        }
        source.binder().orElseThrow().bind("ml", "p", "uid-p", "n7");
        Binding b = client.bindings().inNamespace("ml").withName("p").get();
        assertThat(b).isNotNull();
        assertThat(b.getTarget().getKind()).isEqualTo("Node");
        assertThat(b.getTarget().getName()).isEqualTo("n7");
    }
}
