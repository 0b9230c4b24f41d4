package dev.muster.core.decision;

import dev.muster.core.model.ClusterState;
import dev.muster.core.model.Node;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodGroup;
import dev.muster.core.testing.Groups;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.muster.core.decision.DecisionEngineTest.worker;
import static dev.muster.core.testing.Groups.withPriority;
import static dev.muster.core.testing.Nodes.node;
import static dev.muster.core.testing.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;

/** Preemption for groups with a required topology constraint: victims inside one domain, the least important. */
class TopologyPreemptionTest {
    private static final String HOST = "kubernetes.io/hostname";
    private static final String RACK = "topology.kubernetes.io/rack";
    private final DecisionEngine engine = new DecisionEngine(EngineConfig.DEFAULT);

    private static Node host(String name, String rack) {
        return node(name).label(HOST, name).label(RACK, rack).allocatable("cpu", "4").allocatable("memory", "32Gi")
                .build();
    }

    private static Pod running(String name, String node, String cpu, int priority) {
        return withPriority(pod(name).requests("cpu", cpu).label("app", name).on(node).build(), priority);
    }

    private Decision decide(List<Node> nodes, List<Pod> pods, PodGroup g) {
        DecisionResult r = engine.decide(new DecisionRequest(new ClusterState(nodes, pods, List.of(g), List.of(),
                List.of()), null, new DecisionOptions(true, false)));
        return r.decisions().get(0);
    }

    private static List<String> victims(Decision d) {
        List<String> out = new ArrayList<>();
        d.victims().forEach(v -> out.add(v.pod().name() + "@" + v.node()));
        return out;
    }

    @Test
    @DisplayName("a 2-pod gang that must share a host evicts the priority-1 pod, not the priority-2 one")
    void leastImportantDomain() {
        List<Node> nodes = List.of(host("h1", "r1"), host("h2", "r1"));
        List<Pod> pods = new ArrayList<>(List.of(running("keep", "h1", "4", 2), running("evict", "h2", "4", 1)));
        pods.add(worker("g-0", "g", "2"));
        pods.add(worker("g-1", "g", "2"));

        Decision d = decide(nodes, pods, Groups.gang("g", 2).priority(100).topology(HOST).build());

        assertThat(d.outcome()).isEqualTo(Outcome.Preempting);
        assertThat(victims(d)).containsExactly("evict@h2");
        assertThat(d.nominations()).extracting(Assignment::node).containsOnly("h2");
    }

    @Test
    @DisplayName("victims all lie in one rack even when evicting across racks would need fewer")
    void victimsInsideOneDomain() {
        // Each rack has one free 4-cpu host's worth in two halves; a 4-member gang of 2-cpu pods needs 8 cpu in one rack.
        List<Node> nodes = List.of(host("a1", "ra"), host("a2", "ra"), host("b1", "rb"), host("b2", "rb"));
        List<Pod> pods = new ArrayList<>(List.of(running("a1-x", "a1", "4", 1), running("a2-x", "a2", "2", 1),
                running("b1-x", "b1", "2", 3), running("b2-x", "b2", "2", 3)));
        for (int i = 0; i < 4; i++) {
            pods.add(worker("g-" + i, "g", "2"));
        }

        Decision d = decide(nodes, pods, Groups.gang("g", 4).priority(100).topology(RACK).build());

        assertThat(d.outcome()).isEqualTo(Outcome.Preempting);
        // Rack ra needs two victims of priority 1; rack rb two of priority 3: the less important ones go.
        assertThat(victims(d)).containsExactly("a1-x@a1", "a2-x@a2");
    }

    @Test
    @DisplayName("pods at or above the group's priority are never evicted for a constrained group either")
    void equalPriorityStays() {
        List<Node> nodes = List.of(host("h1", "r1"));
        List<Pod> pods = new ArrayList<>(List.of(running("peer", "h1", "4", 100)));
        pods.add(worker("g-0", "g", "2"));

        Decision d = decide(nodes, pods, Groups.gang("g", 1).priority(100).topology(HOST).build());

        assertThat(d.outcome()).isEqualTo(Outcome.Unschedulable);
        assertThat(d.victims()).isEmpty();
    }
}
