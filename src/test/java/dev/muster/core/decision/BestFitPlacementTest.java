package dev.muster.core.decision;

import dev.muster.core.model.Node;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodGroup;
import dev.muster.core.testing.Groups;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

import static dev.muster.core.decision.DecisionEngineTest.decide;
import static dev.muster.core.decision.DecisionEngineTest.placements;
import static dev.muster.core.testing.Groups.member;
import static dev.muster.core.testing.Groups.withPriority;
import static dev.muster.core.testing.Nodes.node;
import static dev.muster.core.testing.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;

/** The BestFit strategy: the amount stranded per requested resource, normalised, least first (docs/placement.md). */
class BestFitPlacementTest {
    private static final String HOST = "kubernetes.io/hostname";
    private static final String GPU = "nvidia.com/gpu";
    private final DecisionEngine engine = new DecisionEngine(EngineConfig.DEFAULT);

    private static Node host(String name, String cpu, String memory, String gpus) {
        var b = node(name).label(HOST, name).allocatable("cpu", cpu).allocatable("memory", memory);
        if (gpus != null) {
            b.allocatable(GPU, gpus);
        }
        return b.build();
    }

    private static List<Pod> members(String group, int n, String cpu, String gpus) {
        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            var p = pod(group + "-" + i).requests("cpu", cpu).requests("memory", "1Gi");
            if (gpus != null) {
                p.requests(GPU, gpus);
            }
            pods.add(member(p.build(), group));
        }
        return pods;
    }

    private static PodGroup bestFit(String name, int minCount) {
        return Groups.gang(name, minCount).topology(HOST).annotation("muster.dev/placement-strategy", "BestFit")
                .build();
    }

    private Decision only(List<Node> nodes, List<Pod> pods, PodGroup g) {
        return decide(engine, nodes, pods, List.of(g)).decisions().get(0);
    }

    @Test
    @DisplayName("six 1-cpu members go to the empty 8-cpu node (2 stranded), not the 100-cpu node with 10 free (4)")
    void amountNotFraction() {
        List<Node> nodes = List.of(host("big", "100", "400Gi", null), host("small", "8", "32Gi", null));
        List<Pod> pods = new ArrayList<>(members("g", 6, "1", null));
        pods.add(withPriority(pod("resident").requests("cpu", "90").requests("memory", "360Gi").on("big").build(), 0));

        Decision d = only(nodes, pods, bestFit("g", 6));

        assertThat(d.outcome()).isEqualTo(Outcome.Scheduled);
        assertThat(new TreeSet<>(placements(d).values())).containsExactly("small");
        assertThat(d.explanation().placement()).isEqualTo(HOST + "=small");
    }

    @Test
    @DisplayName("GPU members go to the node whose GPUs they fill, where cpu and memory alone would tie")
    void gpusCount() {
        List<Node> nodes = List.of(host("a-wide", "32", "128Gi", "8"), host("b-narrow", "32", "128Gi", "4"));
        Decision d = only(nodes, members("g", 2, "4", "2"), bestFit("g", 2));

        assertThat(new TreeSet<>(placements(d).values())).containsExactly("b-narrow");
        // The score is the stranded share, negated: b-narrow strands 0 GPUs of 8 at most; a-wide strands 4.
        assertThat(d.explanation().placements()).extracting(Explanation.Candidate::score)
                .satisfies(scores -> assertThat(scores.get(1)).isGreaterThan(scores.get(0)));
    }

    @Test
    @DisplayName("no resource dominates for its unit: memory in bytes weighs no more than cpu in millicores")
    void normalisedPerResource() {
        // x strands 0 cpu and 4Gi; y strands 8 cpu and 2Gi. Summed in bytes y would win; normalised by the
        // largest allocatable (11 cpu, 7Gi) x strands 0 + 4/7 = 0.57 and y 8/11 + 2/7 = 1.01.
        List<Node> nodes = List.of(host("x", "3", "7Gi", null), host("y", "11", "5Gi", null));
        List<Pod> pods = new ArrayList<>(members("g", 3, "1", null));
        Decision d = only(nodes, pods, bestFit("g", 3));

        assertThat(new TreeSet<>(placements(d).values())).containsExactly("x");
    }

    @Test
    @DisplayName("equal stranding breaks on the smaller domain, then on the name")
    void tiesOnSizeThenName() {
        // Rack a (4 cpu, 4Gi, 111 pod slots, half taken by a resident pod) and racks b and c (2 cpu, 2Gi, 110
        // slots, empty) strand the same after two 1-cpu members: no cpu, no memory, 108 slots. a is bigger; b and c
        // are equal and b comes first by name.
        String rack = "topology.kubernetes.io/rack";
        List<Node> nodes = List.of(node("n1").label(rack, "a").allocatable("cpu", "4").allocatable("memory", "4Gi")
                        .allocatable("pods", "111").build(),
                node("n2").label(rack, "b").allocatable("cpu", "2").allocatable("memory", "2Gi")
                        .allocatable("pods", "110").build(),
                node("n3").label(rack, "c").allocatable("cpu", "2").allocatable("memory", "2Gi")
                        .allocatable("pods", "110").build());
        List<Pod> pods = new ArrayList<>(members("g", 2, "1", null));
        pods.add(pod("resident").requests("cpu", "2").requests("memory", "2Gi").on("n1").build());
        PodGroup g = Groups.gang("g", 2).topology(rack).annotation("muster.dev/placement-strategy", "BestFit").build();
        Decision d = only(nodes, pods, g);

        assertThat(d.explanation().placement()).isEqualTo(rack + "=b");
        assertThat(d.explanation().placements()).extracting(Explanation.Candidate::score).containsOnly(
                d.explanation().placements().get(0).score());
    }
}
