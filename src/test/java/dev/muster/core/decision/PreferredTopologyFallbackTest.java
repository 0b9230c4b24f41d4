package dev.muster.core.decision;

import dev.muster.core.model.Node;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodGroup;
import dev.muster.core.testing.Groups;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static dev.muster.core.decision.DecisionEngineTest.decide;
import static dev.muster.core.decision.DecisionEngineTest.placements;
import static dev.muster.core.decision.DecisionEngineTest.worker;
import static dev.muster.core.testing.Nodes.node;
import static org.assertj.core.api.Assertions.assertThat;

/** A preferred topology that no single domain satisfies: the fewest domains, largest first, the last the tightest. */
class PreferredTopologyFallbackTest {
    private static final String RACK = "topology.kubernetes.io/rack";
    private final DecisionEngine engine = new DecisionEngine(EngineConfig.DEFAULT);

    private static List<Node> racks(int... nodesPerRack) {
        List<Node> nodes = new ArrayList<>();
        for (int r = 0; r < nodesPerRack.length; r++) {
            for (int i = 0; i < nodesPerRack[r]; i++) {
                String rack = String.valueOf((char) ('a' + r));
                nodes.add(node(rack + i).label(RACK, rack).allocatable("cpu", "4").allocatable("memory", "32Gi")
                        .build());
            }
        }
        return nodes;
    }

    private static List<Pod> gang(int n) {
        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            pods.add(worker("g-" + i, "g", "2"));
        }
        return pods;
    }

    private static PodGroup preferred(int minCount) {
        return Groups.gang("g", minCount).annotation("muster.dev/topology-levels", RACK).build();
    }

    private static Set<String> racksUsed(Decision d) {
        Set<String> out = new TreeSet<>();
        placements(d).values().forEach(n -> out.add(n.substring(0, 1)));
        return out;
    }

    @Test
    @DisplayName("six members on racks holding 4, 3 and 2: the largest rack, then the tightest that holds the rest")
    void largestThenTightest() {
        // Each 4-cpu node holds two 2-cpu members: rack a holds 4, b holds 3 (one node half used), c holds 2.
        List<Node> nodes = new ArrayList<>(racks(2, 2, 1));
        List<Pod> pods = new ArrayList<>(gang(6));
        pods.add(dev.muster.core.testing.Pods.pod("resident").requests("cpu", "2").on("b1").build());
        Decision d = decide(engine, nodes, pods, List.of(preferred(6))).decisions().get(0);

        assertThat(d.outcome()).isEqualTo(Outcome.Scheduled);
        assertThat(d.explanation().placement()).isEqualTo(RACK + "=a+c");
        assertThat(racksUsed(d)).containsExactly("a", "c");
    }

    @Test
    @DisplayName("the fewest domains are used, not every node: an unlabelled node and a spare rack stay empty")
    void notEveryNode() {
        List<Node> nodes = new ArrayList<>(racks(2, 1, 1));
        nodes.add(node("z-free").allocatable("cpu", "64").allocatable("memory", "64Gi").build());
        Decision d = decide(engine, nodes, gang(5), List.of(preferred(5))).decisions().get(0);

        assertThat(d.outcome()).isEqualTo(Outcome.Scheduled);
        assertThat(d.explanation().placement()).isEqualTo(RACK + "=a+b");
        assertThat(racksUsed(d)).containsExactly("a", "b");
    }

    @Test
    @DisplayName("when the chosen domains do not hold the group after all, every node is the last resort")
    void everyNodeLast() {
        // Racks hold one member each by the estimate, but members differ: the 3-cpu one fits only the big node.
        List<Node> nodes = new ArrayList<>(racks(1, 1));
        nodes.add(node("z-free").allocatable("cpu", "16").allocatable("memory", "64Gi").build());
        List<Pod> pods = List.of(worker("g-0", "g", "1"), worker("g-1", "g", "1"), worker("g-2", "g", "8"));
        Decision d = decide(engine, nodes, pods, List.of(preferred(3))).decisions().get(0);

        assertThat(d.outcome()).isEqualTo(Outcome.Scheduled);
        assertThat(d.explanation().placement()).isEqualTo("*");
    }
}
