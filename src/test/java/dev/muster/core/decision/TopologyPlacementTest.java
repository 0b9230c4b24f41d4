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
import java.util.Set;
import java.util.TreeSet;

import static dev.muster.core.decision.DecisionEngineTest.decide;
import static dev.muster.core.decision.DecisionEngineTest.placements;
import static dev.muster.core.decision.DecisionEngineTest.worker;
import static dev.muster.core.testing.Groups.member;
import static dev.muster.core.testing.Nodes.node;
import static dev.muster.core.testing.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;

/** Topology-aware placement (upstream KEP-5732 semantics plus Muster's tiers and strategies). */
class TopologyPlacementTest {
    private static final String RACK = "topology.kubernetes.io/rack";
    private static final String BLOCK = "example.com/block";
    private final DecisionEngine engine = new DecisionEngine(EngineConfig.DEFAULT);

    private static Node rackNode(String name, String rack, String cpu) {
        return node(name).label(RACK, rack).label(BLOCK, "b-" + rack.substring(0, 1))
                .allocatable("cpu", cpu).allocatable("memory", "32Gi").build();
    }

    private static List<Pod> gang(String group, int n, String cpu) {
        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            pods.add(worker(group + "-" + i, group, cpu));
        }
        return pods;
    }

    private Set<String> racksOf(Decision d, List<Node> nodes) {
        Set<String> racks = new TreeSet<>();
        for (String n : placements(d).values()) {
            nodes.stream().filter(x -> x.name().equals(n)).forEach(x -> racks.add(x.labels().get(RACK)));
        }
        return racks;
    }

    @Test
    @DisplayName("a rack-constrained gang lands in one rack even when spreading across racks would fit")
    void oneDomain() {
        List<Node> nodes = List.of(rackNode("n1", "a1", "4"), rackNode("n2", "a1", "4"), rackNode("n3", "a2", "4"),
                rackNode("n4", "a2", "4"));
        Decision d = decide(engine, nodes, gang("g", 4, "2"), List.of(Groups.gang("g", 4).topology(RACK).build()))
                .decisions().get(0);

        assertThat(d.outcome()).isEqualTo(Outcome.Scheduled);
        assertThat(placements(d)).hasSize(4);
        assertThat(racksOf(d, nodes)).hasSize(1);
        // Both racks fit all four and score the same: the tie breaks on the domain name.
        assertThat(d.explanation().placement()).isEqualTo(RACK + "=a1");
        assertThat(d.explanation().placements()).extracting(Explanation.Candidate::feasible).containsExactly(true, true);
    }

    @Test
    @DisplayName("the only rack that can hold the whole gang is chosen; racks that cannot are pruned unevaluated")
    void onlyFittingRack() {
        List<Node> nodes = List.of(rackNode("n1", "a1", "2"), rackNode("n2", "a1", "2"), rackNode("n3", "a2", "8"),
                rackNode("n4", "a2", "8"));
        Decision d = decide(engine, nodes, gang("g", 4, "3"), List.of(Groups.gang("g", 4).topology(RACK).build()))
                .decisions().get(0);

        assertThat(d.outcome()).isEqualTo(Outcome.Scheduled);
        assertThat(racksOf(d, nodes)).containsExactly("a2");
        assertThat(d.explanation().placements()).anySatisfy(c -> {
            assertThat(c.name()).isEqualTo(RACK + "=a1");
            assertThat(c.pruned()).isTrue();
        });
    }

    @Test
    @DisplayName("nodes without the topology label are never used by a constrained group")
    void unlabeledNodesExcluded() {
        List<Node> nodes = List.of(rackNode("n1", "a1", "2"),
                node("n-free").allocatable("cpu", "64").allocatable("memory", "64Gi").build());
        Decision d = decide(engine, nodes, gang("g", 2, "2"), List.of(Groups.gang("g", 2).topology(RACK).build()))
                .decisions().get(0);

        assertThat(d.outcome()).isEqualTo(Outcome.Unschedulable);
        // The only rack was pruned unevaluated; the message still gives its first member's own FitError, as upstream.
        assertThat(d.message()).isEqualTo("0/1 placements are available, first placement status: "
                + "0/1 nodes are available: 1 Insufficient cpu. preemption: No preemption victims found for"
                + " incoming preemptor.");
        assertThat(d.explanation().placements()).singleElement().satisfies(c -> assertThat(c.pruned()).isTrue());
    }

    @Test
    @DisplayName("a bound member pins the group to its rack")
    void boundMemberPins() {
        List<Node> nodes = List.of(rackNode("n1", "a1", "8"), rackNode("n2", "a2", "4"));
        Pod bound = member(pod("g-0").requests("cpu", "2").on("n2").build(), "g");
        Decision d = decide(engine, nodes, List.of(bound, worker("g-1", "g", "2")),
                List.of(Groups.gang("g", 2).topology(RACK).build())).decisions().get(0);

        assertThat(d.outcome()).isEqualTo(Outcome.Scheduled);
        assertThat(placements(d)).containsExactly(Map.entry("g-1", "n2"));
    }

    @Test
    @DisplayName("bound members in two racks make the required constraint impossible")
    void boundMembersInTwoRacks() {
        List<Node> nodes = List.of(rackNode("n1", "a1", "8"), rackNode("n2", "a2", "8"));
        List<Pod> pods = List.of(member(pod("g-0").requests("cpu", "1").on("n1").build(), "g"),
                member(pod("g-1").requests("cpu", "1").on("n2").build(), "g"), worker("g-2", "g", "1"));
        Decision d = decide(engine, nodes, pods, List.of(Groups.gang("g", 3).topology(RACK).build()))
                .decisions().get(0);

        assertThat(d.outcome()).isEqualTo(Outcome.Unschedulable);
        assertThat(d.message()).startsWith("more than 1 domain found for pod group.");
    }

    @Test
    @DisplayName("multi-level: the tightest level that fits wins, falling back outward to the required key")
    void multiLevel() {
        // Racks hold 2 members each; block b-a (racks a1, a2) holds 4.
        List<Node> nodes = List.of(rackNode("n1", "a1", "4"), rackNode("n2", "a2", "4"), rackNode("n3", "c1", "2"));
        PodGroup small = Groups.gang("small", 2).topology(BLOCK)
                .annotation("muster.dev/topology-levels", RACK + "," + BLOCK).build();
        Decision d = decide(engine, nodes, gang("small", 2, "2"), List.of(small)).decisions().get(0);
        assertThat(d.outcome()).isEqualTo(Outcome.Scheduled);
        assertThat(racksOf(d, nodes)).hasSize(1);
        assertThat(d.explanation().placement()).startsWith(RACK + "=");

        PodGroup big = Groups.gang("big", 4).topology(BLOCK)
                .annotation("muster.dev/topology-levels", RACK + "," + BLOCK).build();
        Decision d2 = decide(engine, nodes, gang("big", 4, "2"), List.of(big)).decisions().get(0);
        assertThat(d2.outcome()).isEqualTo(Outcome.Scheduled);
        assertThat(d2.explanation().placement()).isEqualTo(BLOCK + "=b-a");
        assertThat(racksOf(d2, nodes)).containsExactlyInAnyOrder("a1", "a2");
    }

    @Test
    @DisplayName("preferred: when no domain fits, a soft constraint falls back to the fewest domains that hold it")
    void preferredFallsBack() {
        List<Node> nodes = List.of(rackNode("n1", "a1", "2"), rackNode("n2", "a2", "2"));
        PodGroup soft = Groups.gang("g", 2).annotation("muster.dev/topology-levels", RACK).build();
        Decision d = decide(engine, nodes, gang("g", 2, "2"), List.of(soft)).decisions().get(0);

        assertThat(d.outcome()).isEqualTo(Outcome.Scheduled);
        assertThat(d.explanation().placement()).isEqualTo(RACK + "=a1+a2");
        assertThat(racksOf(d, nodes)).containsExactly("a1", "a2");
    }

    @Test
    @DisplayName("best-fit picks the domain that leaves the least capacity stranded; the default picks the emptiest")
    void bestFit() {
        List<Node> nodes = List.of(rackNode("n1", "a1", "16"), rackNode("n2", "a2", "4"));
        Decision dflt = decide(engine, nodes, gang("g", 2, "2"), List.of(Groups.gang("g", 2).topology(RACK).build()))
                .decisions().get(0);
        assertThat(racksOf(dflt, nodes)).containsExactly("a1");

        PodGroup tight = Groups.gang("g", 2).topology(RACK)
                .annotation("muster.dev/placement-strategy", "BestFit").build();
        Decision fit = decide(engine, nodes, gang("g", 2, "2"), List.of(tight)).decisions().get(0);
        assertThat(racksOf(fit, nodes)).containsExactly("a2");
    }

    @Test
    @DisplayName("the chosen rack's trial, kept assumed instead of assumed again, holds its capacity for the next group")
    void keptTrialHoldsTheRackForLaterGroups() {
        // a1 cannot hold a gang (pruned); a2 is the last and only rack to run, so its trial stays assumed when chosen
        List<Node> nodes = List.of(rackNode("n1", "a1", "2"), rackNode("n2", "a1", "2"), rackNode("n3", "a2", "8"),
                rackNode("n4", "a2", "8"));
        List<Pod> pods = new ArrayList<>(gang("g1", 4, "3"));
        pods.addAll(gang("g2", 4, "3"));
        List<PodGroup> groups = List.of(Groups.gang("g1", 4).topology(RACK).build(),
                Groups.gang("g2", 4).topology(RACK).build());
        DecisionRequest request = new DecisionRequest(
                new dev.muster.core.model.ClusterState(nodes, pods, groups, List.of(), List.of()), null,
                new DecisionOptions(false, true));
        DecisionResult kept = engine.decide(request);
        DecisionResult reference = new DecisionEngine(new EngineConfig(200_000, 1, 1024, false)).decide(request);

        Decision g1 = kept.decisions().get(0);
        Decision g2 = kept.decisions().get(1);
        assertThat(g1.podGroup().name()).isEqualTo("g1");
        assertThat(g1.outcome()).isEqualTo(Outcome.Scheduled);
        assertThat(racksOf(g1, nodes)).containsExactly("a2");
        assertThat(placements(g1).values()).containsExactlyInAnyOrder("n3", "n3", "n4", "n4");
        // a2 has 2 CPU left on each node: the second gang fits nowhere
        assertThat(g2.outcome()).isEqualTo(Outcome.Unschedulable);
        assertThat(placements(g2)).isEmpty();
        for (int i = 0; i < 2; i++) {
            Decision a = kept.decisions().get(i);
            Decision b = reference.decisions().get(i);
            assertThat(a.outcome()).isEqualTo(b.outcome());
            assertThat(placements(a)).isEqualTo(placements(b));
            assertThat(a.message()).isEqualTo(b.message());
        }
    }
}
