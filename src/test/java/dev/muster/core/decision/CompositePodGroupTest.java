package dev.muster.core.decision;

import dev.muster.core.model.ClusterState;
import dev.muster.core.model.CompositePodGroup;
import dev.muster.core.model.GroupRef;
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
import java.util.TreeSet;

import static dev.muster.core.decision.DecisionEngineTest.placements;
import static dev.muster.core.decision.DecisionEngineTest.worker;
import static dev.muster.core.testing.Nodes.node;
import static org.assertj.core.api.Assertions.assertThat;

/** CompositePodGroup trees: one atomic promise over several PodGroups, one domain for all their members. */
class CompositePodGroupTest {
    private static final String RACK = "topology.kubernetes.io/rack";
    private static final String ZONE = "topology.kubernetes.io/zone";
    private final DecisionEngine engine = new DecisionEngine(EngineConfig.DEFAULT);

    private static Node rackNode(String name, String rack, String cpu) {
        return node(name).label(RACK, rack).allocatable("cpu", cpu).allocatable("memory", "32Gi").build();
    }

    private static CompositePodGroup composite(String name, String parent, int minGroupCount, String topologyKey,
                                               Integer priority) {
        return new CompositePodGroup(new GroupRef("default", name), parent, minGroupCount > 0, minGroupCount,
                topologyKey == null ? List.of() : List.of(topologyKey), null, null, priority, 0);
    }

    private static List<Pod> pods(String group, int n, String cpu) {
        List<Pod> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(worker(group + "-" + i, group, cpu));
        }
        return out;
    }

    private Map<String, Decision> decide(List<Node> nodes, List<Pod> pods, List<PodGroup> groups,
                                         List<CompositePodGroup> composites) {
        DecisionResult r = engine.decide(new DecisionRequest(new ClusterState(nodes, pods, groups, List.of(),
                List.of(), composites), null, new DecisionOptions(false, true)));
        Map<String, Decision> byName = new TreeMap<>();
        for (Decision d : r.decisions()) {
            byName.put(d.podGroup().name(), d);
        }
        return byName;
    }

    @Test
    @DisplayName("a gang composite whose second child does not fit places nothing, and says which child held it back")
    void atomic() {
        List<Node> nodes = List.of(node("n1").allocatable("cpu", "4").allocatable("memory", "32Gi").build());
        List<Pod> pods = new ArrayList<>(pods("leader", 1, "2"));
        pods.addAll(pods("workers", 2, "2"));
        List<PodGroup> groups = List.of(Groups.gang("leader", 1).build().withParentComposite("job"),
                Groups.gang("workers", 2).build().withParentComposite("job"));

        Map<String, Decision> d = decide(nodes, pods, groups, List.of(composite("job", null, 2, null, null)));

        assertThat(d.get("leader").outcome()).isEqualTo(Outcome.Unschedulable);
        assertThat(d.get("leader").placements()).isEmpty();
        assertThat(d.get("workers").outcome()).isEqualTo(Outcome.Unschedulable);
        assertThat(d.get("leader").message()).contains("composite pod group \"default/job\": 1 of 2 required child "
                + "groups schedulable").contains("pod group \"default/workers\" held it back");
        assertThat(d.get("leader").compositePodGroup()).isEqualTo(new GroupRef("default", "job"));
        assertThat(d.get("workers").compositePodGroup()).isEqualTo(new GroupRef("default", "job"));
    }

    @Test
    @DisplayName("minGroupCount 1 of 2: the child that fits is scheduled, the other keeps its own reason")
    void minGroupCount() {
        List<Node> nodes = List.of(node("n1").allocatable("cpu", "4").allocatable("memory", "32Gi").build());
        List<Pod> pods = new ArrayList<>(pods("a", 1, "2"));
        pods.addAll(pods("b", 2, "2"));
        List<PodGroup> groups = List.of(Groups.gang("a", 1).build().withParentComposite("job"),
                Groups.gang("b", 2).build().withParentComposite("job"));

        Map<String, Decision> d = decide(nodes, pods, groups, List.of(composite("job", null, 1, null, null)));

        assertThat(d.get("a").outcome()).isEqualTo(Outcome.Scheduled);
        assertThat(d.get("b").outcome()).isEqualTo(Outcome.Unschedulable);
        assertThat(d.get("b").message()).doesNotContain("composite pod group");
    }

    @Test
    @DisplayName("a rack constraint on the composite puts the leader with its workers, not in the first rack it fits")
    void oneDomainForTheTree() {
        List<Node> nodes = List.of(rackNode("a1", "r1", "4"), rackNode("b1", "r2", "4"), rackNode("b2", "r2", "4"));
        List<Pod> pods = new ArrayList<>(pods("leader", 1, "2"));
        pods.addAll(pods("workers", 3, "2"));
        List<PodGroup> groups = List.of(Groups.gang("leader", 1).build().withParentComposite("job"),
                Groups.gang("workers", 3).build().withParentComposite("job"));

        Map<String, Decision> d = decide(nodes, pods, groups, List.of(composite("job", null, 2, RACK, null)));

        assertThat(d.get("leader").outcome()).isEqualTo(Outcome.Scheduled);
        assertThat(d.get("workers").outcome()).isEqualTo(Outcome.Scheduled);
        TreeSet<String> used = new TreeSet<>(placements(d.get("leader")).values());
        used.addAll(placements(d.get("workers")).values());
        assertThat(used).containsExactly("b1", "b2");
    }

    @Test
    @DisplayName("a child's own topology domains stay inside the composite's domain, the first one too")
    void childDomainsInsideTheComposite() {
        // Rack names repeat across zones: rack r1 of zone za (a1) and of zone zb (b1) share a label value.
        List<Node> nodes = List.of(
                node("a1").label(ZONE, "za").label(RACK, "r1").allocatable("cpu", "4").allocatable("memory", "32Gi")
                        .build(),
                node("a2").label(ZONE, "za").label(RACK, "r2").allocatable("cpu", "4").allocatable("memory", "32Gi")
                        .build(),
                node("b1").label(ZONE, "zb").label(RACK, "r1").allocatable("cpu", "4").allocatable("memory", "32Gi")
                        .build());
        List<PodGroup> groups = List.of(Groups.gang("w", 2).topology(RACK).build().withParentComposite("job"));

        Map<String, Decision> d = decide(nodes, pods("w", 2, "4"), groups,
                List.of(composite("job", null, 1, ZONE, null)));

        // No rack of either zone holds both members; rack r1 across the zones would, but leaves the zone.
        assertThat(d.get("w").outcome()).isEqualTo(Outcome.Unschedulable);
        assertThat(d.get("w").placements()).isEmpty();
    }

    private static Pod bound(String name, String group, String node) {
        return Groups.member(dev.muster.core.testing.Pods.pod(name).requests("cpu", "2").requests("memory", "1Gi")
                .on(node).build(), group);
    }

    @Test
    @DisplayName("bound members pin the tree to their rack; one on a node without the rack label pins nothing")
    void boundMembersPinTheTree() {
        List<Node> nodes = List.of(rackNode("a1", "r1", "4"), rackNode("b1", "r2", "4"), rackNode("b2", "r2", "4"),
                node("x1").allocatable("cpu", "4").allocatable("memory", "32Gi").build());
        List<Pod> pods = new ArrayList<>(List.of(bound("workers-0", "workers", "b1"), bound("side-0", "side", "x1")));
        pods.addAll(pods("leader", 1, "2"));
        List<PodGroup> groups = List.of(Groups.gang("leader", 1).build().withParentComposite("job"),
                Groups.gang("side", 1).build().withParentComposite("job"),
                Groups.gang("workers", 1).build().withParentComposite("job"));

        Map<String, Decision> d = decide(nodes, pods, groups, List.of(composite("job", null, 3, RACK, null)));

        assertThat(d.get("leader").outcome()).isEqualTo(Outcome.Scheduled);
        assertThat(placements(d.get("leader")).values()).allMatch(n -> n.startsWith("b"));
    }

    @Test
    @DisplayName("bound members in two racks leave the tree no rack, and the message says so")
    void boundMembersInTwoRacks() {
        List<Node> nodes = List.of(rackNode("a1", "r1", "4"), rackNode("b1", "r2", "4"));
        List<Pod> pods = new ArrayList<>(List.of(bound("workers-0", "workers", "a1"),
                bound("workers-1", "workers", "b1")));
        pods.addAll(pods("leader", 1, "2"));
        List<PodGroup> groups = List.of(Groups.gang("leader", 1).build().withParentComposite("job"),
                Groups.gang("workers", 2).build().withParentComposite("job"));

        Map<String, Decision> d = decide(nodes, pods, groups, List.of(composite("job", null, 2, RACK, null)));

        assertThat(d.get("leader").outcome()).isEqualTo(Outcome.Unschedulable);
        assertThat(d.get("leader").placements()).isEmpty();
        assertThat(d.get("leader").message())
                .isEqualTo("composite pod group \"default/job\": no domain of " + RACK + " can hold it");
    }

    @Test
    @DisplayName("when no rack holds the tree, the message names the first rack tried and why it fell short")
    void noRackHoldsTheTree() {
        List<Node> nodes = List.of(rackNode("a1", "r1", "4"), rackNode("b1", "r2", "2"));
        List<Pod> pods = new ArrayList<>(pods("leader", 1, "2"));
        pods.addAll(pods("workers", 2, "2"));
        List<PodGroup> groups = List.of(Groups.gang("leader", 1).build().withParentComposite("job"),
                Groups.gang("workers", 2).build().withParentComposite("job"));

        Map<String, Decision> d = decide(nodes, pods, groups, List.of(composite("job", null, 2, RACK, null)));

        assertThat(d.get("leader").outcome()).isEqualTo(Outcome.Unschedulable);
        assertThat(d.get("leader").message()).startsWith("no domain of " + RACK + " holds composite pod group "
                + "\"default/job\"; in " + RACK + "=r1: composite pod group \"default/job\": 1 of 2 required child "
                + "groups schedulable; pod group \"default/workers\" held it back: ");
    }

    @Test
    @DisplayName("a nested gang composite that falls short gives back its placed child inside a basic root")
    void nested() {
        List<Node> nodes = List.of(node("n1").allocatable("cpu", "4").allocatable("memory", "32Gi").build());
        List<Pod> pods = new ArrayList<>(pods("x", 1, "2"));
        pods.addAll(pods("y", 2, "2"));
        pods.addAll(pods("z", 1, "2"));
        List<PodGroup> groups = List.of(Groups.gang("x", 1).build().withParentComposite("inner"),
                Groups.gang("y", 2).build().withParentComposite("inner"),
                Groups.gang("z", 1).build().withParentComposite("root"));
        List<CompositePodGroup> composites = List.of(composite("root", null, 0, null, null),
                composite("inner", "root", 2, null, null));

        Map<String, Decision> d = decide(nodes, pods, groups, composites);

        assertThat(d.get("x").outcome()).isEqualTo(Outcome.Unschedulable);
        assertThat(d.get("x").message()).contains("composite pod group \"default/inner\"");
        assertThat(d.get("x").compositePodGroup()).isEqualTo(new GroupRef("default", "inner"));
        // The capacity x gave back goes to z (x's tentative node is free again).
        assertThat(d.get("z").outcome()).isEqualTo(Outcome.Scheduled);
        assertThat(d.get("z").compositePodGroup()).isEqualTo(new GroupRef("default", "root"));
    }

    @Test
    @DisplayName("the composite's priority stands for its children: its tree goes before a higher-priority group")
    void compositePriority() {
        List<Node> nodes = List.of(node("n1").allocatable("cpu", "2").allocatable("memory", "32Gi").build());
        List<Pod> pods = new ArrayList<>(pods("alone", 1, "2"));
        pods.addAll(pods("child", 1, "2"));
        List<PodGroup> groups = List.of(Groups.gang("alone", 1).priority(500).build(),
                Groups.gang("child", 1).priority(10).build().withParentComposite("job"));

        Map<String, Decision> d = decide(nodes, pods, groups, List.of(composite("job", null, 1, null, 1000)));

        assertThat(d.get("child").outcome()).isEqualTo(Outcome.Scheduled);
        assertThat(d.get("alone").outcome()).isEqualTo(Outcome.Unschedulable);
    }

    @Test
    @DisplayName("a composite with disruptionMode PodGroup is evicted whole: both children's pods go, not one")
    void treeEvictedWhole() {
        List<Node> nodes = List.of(node("n1").allocatable("cpu", "4").allocatable("memory", "32Gi").build(),
                node("n2").allocatable("cpu", "4").allocatable("memory", "32Gi").build());
        List<Pod> pods = new ArrayList<>();
        pods.add(Groups.member(dev.muster.core.testing.Pods.pod("a-0").requests("cpu", "4").requests("memory", "1Gi")
                .on("n1").build(), "a"));
        pods.add(Groups.member(dev.muster.core.testing.Pods.pod("b-0").requests("cpu", "4").requests("memory", "1Gi")
                .on("n2").build(), "b"));
        pods.addAll(pods("urgent", 1, "4"));
        List<PodGroup> groups = List.of(Groups.gang("a", 1).priority(1).build().withParentComposite("job"),
                Groups.gang("b", 1).priority(1).build().withParentComposite("job"),
                Groups.gang("urgent", 1).priority(100).build());
        CompositePodGroup whole = new CompositePodGroup(new GroupRef("default", "job"), null, true, 2, List.of(),
                dev.muster.core.model.DisruptionMode.PodGroup, null, null, 0);
        CompositePodGroup single = new CompositePodGroup(new GroupRef("default", "job"), null, true, 2, List.of(),
                null, null, null, 0);

        DecisionResult all = engine.decide(new DecisionRequest(new ClusterState(nodes, pods, groups, List.of(),
                List.of(), List.of(whole)), null, new DecisionOptions(true, false)));
        DecisionResult one = engine.decide(new DecisionRequest(new ClusterState(nodes, pods, groups, List.of(),
                List.of(), List.of(single)), null, new DecisionOptions(true, false)));

        assertThat(all.decisions().get(0).outcome()).isEqualTo(Outcome.Preempting);
        assertThat(all.decisions().get(0).victims()).extracting(a -> a.pod().name()).containsExactly("a-0", "b-0");
        assertThat(one.decisions().get(0).victims()).hasSize(1);
    }

    private static Pod low(String name, String node, String cpu, int priority) {
        return dev.muster.core.testing.Groups.withPriority(dev.muster.core.testing.Pods.pod(name).requests("cpu", cpu)
                .requests("memory", "1Gi").on(node).build(), priority);
    }

    private Map<String, Decision> decideWithPreemption(List<Node> nodes, List<Pod> pods, List<PodGroup> groups,
                                                       List<CompositePodGroup> composites) {
        DecisionResult r = engine.decide(new DecisionRequest(new ClusterState(nodes, pods, groups, List.of(),
                List.of(), composites), null, new DecisionOptions(true, false)));
        Map<String, Decision> byName = new TreeMap<>();
        for (Decision d : r.decisions()) {
            byName.put(d.podGroup().name(), d);
        }
        return byName;
    }

    @Test
    @DisplayName("a tree at a higher priority preempts inside its rack: each child that needs room is Preempting")
    void treePreemptsInsideItsRack() {
        List<Node> nodes = List.of(rackNode("a1", "r1", "4"), rackNode("a2", "r1", "4"), rackNode("b1", "r2", "4"));
        List<Pod> pods = new ArrayList<>(List.of(low("x-1", "a1", "2", 1), low("x-2", "a2", "4", 1),
                low("y-1", "b1", "2", 1)));
        pods.addAll(pods("leader", 1, "2"));
        pods.addAll(pods("workers", 2, "2"));
        List<PodGroup> groups = List.of(Groups.gang("leader", 1).build().withParentComposite("job"),
                Groups.gang("workers", 2).build().withParentComposite("job"));
        List<CompositePodGroup> job = List.of(composite("job", null, 2, RACK, 100));

        Map<String, Decision> without = decide(nodes, pods, groups, job);
        Map<String, Decision> with = decideWithPreemption(nodes, pods, groups, job);

        assertThat(without.get("leader").outcome()).isEqualTo(Outcome.Unschedulable);
        assertThat(with.get("leader").outcome()).isEqualTo(Outcome.Scheduled);
        assertThat(with.get("workers").outcome()).isEqualTo(Outcome.Preempting);
        assertThat(with.get("workers").victims()).extracting(v -> v.pod().name()).containsExactly("x-2");
        TreeSet<String> used = new TreeSet<>(placements(with.get("leader")).values());
        with.get("workers").nominations().forEach(n -> used.add(n.node()));
        assertThat(used).containsExactly("a1", "a2");
    }

    @Test
    @DisplayName("a tree that does not hold even with victims evicts nothing")
    void noVictimsUnlessTheTreeHolds() {
        List<Node> nodes = List.of(rackNode("a1", "r1", "4"), rackNode("a2", "r1", "4"));
        List<Pod> pods = new ArrayList<>(List.of(low("x-1", "a1", "4", 1), low("x-2", "a2", "4", 200)));
        pods.addAll(pods("leader", 1, "4"));
        pods.addAll(pods("workers", 1, "4"));
        List<PodGroup> groups = List.of(Groups.gang("leader", 1).build().withParentComposite("job"),
                Groups.gang("workers", 1).build().withParentComposite("job"));

        Map<String, Decision> d = decideWithPreemption(nodes, pods, groups,
                List.of(composite("job", null, 2, RACK, 100)));

        assertThat(d.get("leader").outcome()).isEqualTo(Outcome.Unschedulable);
        assertThat(d.get("workers").outcome()).isEqualTo(Outcome.Unschedulable);
        assertThat(d.get("leader").victims()).isEmpty();
        assertThat(d.get("workers").victims()).isEmpty();
        assertThat(d.get("leader").message()).contains("held it back");
    }

    @Test
    @DisplayName("a PodGroup whose composite is not in the snapshot waits for it")
    void missingParent() {
        List<Node> nodes = List.of(node("n1").allocatable("cpu", "4").allocatable("memory", "32Gi").build());
        Map<String, Decision> d = decide(nodes, pods("g", 1, "1"),
                List.of(Groups.gang("g", 1).build().withParentComposite("gone")), List.of());

        assertThat(d.get("g").outcome()).isEqualTo(Outcome.WaitingForMembers);
        assertThat(d.get("g").message()).isEqualTo(
                "waiting for pod group's composite pod group \"gone\" to appear in scheduling queue");
    }
}
