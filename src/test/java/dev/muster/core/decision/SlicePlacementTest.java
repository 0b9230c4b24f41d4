package dev.muster.core.decision;

import dev.muster.core.model.Node;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodGroup;
import dev.muster.core.testing.Groups;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static dev.muster.core.decision.DecisionEngineTest.decide;
import static dev.muster.core.decision.DecisionEngineTest.placements;
import static dev.muster.core.decision.DecisionEngineTest.worker;
import static dev.muster.core.testing.Nodes.node;
import static org.assertj.core.api.Assertions.assertThat;

/** Slices ({@code muster.dev/slices}) and the Balanced strategy (docs/placement.md). */
class SlicePlacementTest {
    static final String ZONE = "topology.kubernetes.io/zone";
    static final String BLOCK = "example.com/block";
    static final String RACK = "topology.kubernetes.io/rack";
    private final DecisionEngine engine = new DecisionEngine(EngineConfig.DEFAULT);

    /** A node in zone z, block b, rack r (rack names are unique across blocks). */
    static Node node3(String name, String block, String rack, String cpu) {
        return node(name).label(ZONE, "z").label(BLOCK, block).label(RACK, rack)
                .allocatable("cpu", cpu).allocatable("memory", "64Gi").build();
    }

    static List<Pod> gang(String group, int n, String cpu) {
        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            pods.add(worker(String.format("%s-%02d", group, i), group, cpu));
        }
        return pods;
    }

    private Decision only(List<Node> nodes, List<Pod> pods, PodGroup g) {
        return decide(engine, nodes, pods, List.of(g)).decisions().get(0);
    }

    /** Members per domain of {@code key}. */
    static Map<String, Integer> perDomain(Decision d, List<Node> nodes, String key) {
        Map<String, Integer> out = new TreeMap<>();
        for (String n : placements(d).values()) {
            nodes.stream().filter(x -> x.name().equals(n)).forEach(x -> out.merge(x.labels().get(key), 1, Integer::sum));
        }
        return out;
    }

    @Test
    @DisplayName("a gang of eight in rack slices of four puts each slice inside one rack, two slices sharing a rack "
            + "with room for both")
    void slicesInsideRacks() {
        // Block b1: rack r1 holds 8 one-cpu members (2 nodes x 4), r2 holds 6 (2 nodes x 3), r3 holds 3.
        List<Node> nodes = List.of(node3("n1", "b1", "r1", "4"), node3("n2", "b1", "r1", "4"),
                node3("n3", "b1", "r2", "3"), node3("n4", "b1", "r2", "3"), node3("n5", "b1", "r3", "3"));
        PodGroup g = Groups.gang("g", 8).topology(BLOCK).annotation("muster.dev/slices", RACK + "=4").build();

        Decision d = only(nodes, gang("g", 8, "1"), g);

        assertThat(d.outcome()).isEqualTo(Outcome.Scheduled);
        Map<String, Integer> racks = perDomain(d, nodes, RACK);
        assertThat(racks.values()).allSatisfy(c -> assertThat(c % 4).isZero());
        assertThat(racks.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(8);
        // Without slices the default scores spread the eight one-cpu members over every rack.
        Decision plain = only(nodes, gang("g", 8, "1"), Groups.gang("g", 8).topology(BLOCK).build());
        assertThat(perDomain(plain, nodes, RACK)).containsKey("r3");
    }

    @Test
    @DisplayName("a gang whose slices no rack can hold is unschedulable though its members fit the block")
    void noRackHoldsASlice() {
        List<Node> nodes = List.of(node3("n1", "b1", "r1", "3"), node3("n2", "b1", "r2", "3"),
                node3("n3", "b1", "r3", "3"));
        PodGroup g = Groups.gang("g", 8).topology(BLOCK).annotation("muster.dev/slices", RACK + "=4").build();

        Decision d = only(nodes, gang("g", 8, "1"), g);

        assertThat(d.outcome()).isEqualTo(Outcome.Unschedulable);
        assertThat(d.placements()).isEmpty();
        assertThat(d.message()).contains("no " + RACK + " domain has room for a slice of 4 member(s)");
    }

    @Test
    @DisplayName("members beyond the last whole slice are left out: ten members in slices of four place eight")
    void trailingMembers() {
        List<Node> nodes = List.of(node3("n1", "b1", "r1", "8"), node3("n2", "b1", "r2", "8"));
        PodGroup g = Groups.gang("g", 8).topology(BLOCK).annotation("muster.dev/slices", RACK + "=4").build();

        Decision d = only(nodes, gang("g", 10, "1"), g);

        assertThat(d.outcome()).isEqualTo(Outcome.Scheduled);
        assertThat(d.placements()).hasSize(8);
        assertThat(perDomain(d, nodes, RACK).values()).allSatisfy(c -> assertThat(c % 4).isZero());
        assertThat(d.unschedulablePods()).hasSize(2);
        assertThat(d.unschedulablePods().get(0).message()).contains("fewer than a slice of 4");
    }

    @Test
    @DisplayName("nested slices split each block slice of eight into rack slices of four")
    void nested() {
        // Block b1 racks: r1 room 6, r2 room 2, r3 room 4; block b2: r4 room 4, r5 room 4.
        List<Node> nodes = List.of(node3("n1", "b1", "r1", "6"), node3("n2", "b1", "r2", "2"),
                node3("n3", "b1", "r3", "4"), node3("n4", "b2", "r4", "4"), node3("n5", "b2", "r5", "4"));
        PodGroup g = Groups.gang("g", 16).topology(ZONE)
                .annotation("muster.dev/slices", BLOCK + "=8," + RACK + "=4").build();

        Decision d = only(nodes, gang("g", 16, "1"), g);

        assertThat(d.outcome()).isEqualTo(Outcome.Scheduled);
        assertThat(perDomain(d, nodes, BLOCK)).containsExactly(Map.entry("b1", 8), Map.entry("b2", 8));
        assertThat(perDomain(d, nodes, RACK)).containsExactly(Map.entry("r1", 4), Map.entry("r3", 4),
                Map.entry("r4", 4), Map.entry("r5", 4));
    }

    @Test
    @DisplayName("balanced placement spreads a gang evenly over the fewest racks that hold it")
    void balancedOverRacks() {
        // One block, racks with room 10, 10 and 4 (one node each): twelve members take 6 and 6.
        List<Node> nodes = List.of(node3("n1", "b1", "r1", "10"), node3("n2", "b1", "r2", "10"),
                node3("n3", "b1", "r3", "4"));
        PodGroup g = Groups.gang("g", 12).topology(BLOCK).annotation("muster.dev/topology-levels", RACK)
                .annotation("muster.dev/placement-strategy", "Balanced").build();

        Decision d = only(nodes, gang("g", 12, "1"), g);

        assertThat(d.outcome()).isEqualTo(Outcome.Scheduled);
        assertThat(perDomain(d, nodes, RACK)).containsExactly(Map.entry("r1", 6), Map.entry("r2", 6));
    }

    @Test
    @DisplayName("balanced placement inside one rack spreads the members evenly over the fewest nodes")
    void balancedOverNodes() {
        List<Node> nodes = List.of(node3("n1", "b1", "r1", "6"), node3("n2", "b1", "r1", "6"),
                node3("n3", "b1", "r1", "6"), node3("n4", "b1", "r1", "6"));
        PodGroup g = Groups.gang("g", 8).topology(RACK)
                .annotation("muster.dev/placement-strategy", "Balanced").build();

        Decision d = only(nodes, gang("g", 8, "1"), g);

        assertThat(d.outcome()).isEqualTo(Outcome.Scheduled);
        Map<String, Integer> perNode = new TreeMap<>();
        placements(d).values().forEach(n -> perNode.merge(n, 1, Integer::sum));
        assertThat(perNode).containsExactly(Map.entry("n1", 4), Map.entry("n2", 4));
    }

    @Test
    @DisplayName("balanced slices: five slices of five over hosts with room for three slices each take three and two")
    void balancedSlices() {
        // Kueue's example: hosts with room 15, 15 and (in the next rack) 15, 15; 25 members in host slices of 5.
        List<Node> nodes = List.of(node3("h1", "b1", "r1", "15"), node3("h2", "b1", "r1", "15"));
        PodGroup g = Groups.gang("g", 25).topology(RACK)
                .annotation("muster.dev/slices", "kubernetes.io/hostname=5")
                .annotation("muster.dev/placement-strategy", "Balanced").build();
        List<Node> labelled = new ArrayList<>();
        for (Node n : nodes) {
            labelled.add(node(n.name()).label(ZONE, "z").label(BLOCK, "b1").label(RACK, "r1")
                    .label("kubernetes.io/hostname", n.name()).allocatable("cpu", "15").allocatable("memory", "64Gi")
                    .build());
        }

        Decision d = only(labelled, gang("g", 25, "1"), g);

        assertThat(d.outcome()).isEqualTo(Outcome.Scheduled);
        Map<String, Integer> perNode = new TreeMap<>();
        placements(d).values().forEach(n -> perNode.merge(n, 1, Integer::sum));
        assertThat(perNode).containsExactly(Map.entry("h1", 15), Map.entry("h2", 10));
    }
}
