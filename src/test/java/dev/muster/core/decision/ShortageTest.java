package dev.muster.core.decision;

import dev.muster.core.model.ClusterState;
import dev.muster.core.model.CompositePodGroup;
import dev.muster.core.model.DisruptionMode;
import dev.muster.core.model.GroupRef;
import dev.muster.core.model.Node;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodDisruptionBudget;
import dev.muster.core.model.PodGroup;
import dev.muster.core.model.PodRef;
import dev.muster.core.model.TaintEffect;
import dev.muster.core.testing.Groups;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.muster.core.decision.DecisionEngineTest.worker;
import static dev.muster.core.testing.Groups.member;
import static dev.muster.core.testing.Groups.withPriority;
import static dev.muster.core.testing.Nodes.node;
import static dev.muster.core.testing.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;

/** What an Unschedulable group is told it is short of (explanation.shortage). */
class ShortageTest {
    private static final String RACK = "topology.kubernetes.io/rack";
    private static final String HOST = "kubernetes.io/hostname";
    private final DecisionEngine engine = new DecisionEngine(EngineConfig.DEFAULT);

    private static Node cpuNode(String name, String cpu) {
        return node(name).label(HOST, name).allocatable("cpu", cpu).allocatable("memory", "32Gi").build();
    }

    private static Node rackNode(String name, String rack, String cpu) {
        return node(name).label(HOST, name).label(RACK, rack).allocatable("cpu", cpu).allocatable("memory", "32Gi")
                .build();
    }

    private static List<Pod> gang(String group, int n, String cpu) {
        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            pods.add(worker(group + "-" + i, group, cpu));
        }
        return pods;
    }

    private Decision decide(List<Node> nodes, List<Pod> pods, PodGroup group, boolean preemption) {
        return engine.decide(new DecisionRequest(new ClusterState(nodes, pods, List.of(group), List.of(), List.of()),
                null, new DecisionOptions(preemption, true))).decisions().get(0);
    }

    @Test
    @DisplayName("a gang without topology is told how many members all nodes held and how many more nodes it needs")
    void moreNodesWithoutTopology() {
        Decision d = decide(List.of(cpuNode("n1", "4"), cpuNode("n2", "4")), gang("g", 3, "3"),
                Groups.gang("g", 3).build(), true);

        assertThat(d.outcome()).isEqualTo(Outcome.Unschedulable);
        Explanation.Shortage s = d.explanation().shortage();
        assertThat(s.needed()).isEqualTo(3);
        assertThat(s.fits()).containsExactly(new Explanation.Fit("*", 2));
        assertThat(s.closest()).isEqualTo("*");
        assertThat(s.excluded()).containsExactly(new Explanation.ReasonCount("Insufficient cpu", 2));
        assertThat(s.remedies()).containsExactly("needs 1 more node like n1 (4 cpu)");
    }

    @Test
    @DisplayName("the missing members are packed onto copies of the reference node: three 2-cpu members need two 3-cpu nodes")
    void packsMissingMembers() {
        Decision d = decide(List.of(cpuNode("n1", "3")), gang("g", 4, "2"), Groups.gang("g", 4).build(), true);

        Explanation.Shortage s = d.explanation().shortage();
        assertThat(s.fits()).containsExactly(new Explanation.Fit("*", 1));
        assertThat(s.remedies()).containsExactly("needs 3 more nodes like n1 (3 cpu)");
    }

    @Test
    @DisplayName("a member larger than every node is told so instead of a node count")
    void memberLargerThanNodes() {
        Decision d = decide(List.of(cpuNode("n1", "4"), cpuNode("n2", "2")), gang("g", 2, "8"),
                Groups.gang("g", 2).build(), true);

        Explanation.Shortage s = d.explanation().shortage();
        assertThat(s.fits()).containsExactly(new Explanation.Fit("*", 0));
        // No member placed and every node excluded for cpu only: the node that would hold the most is the reference.
        assertThat(s.remedies()).containsExactly("pod default/g-0 requests more than node n1 allocates (4 cpu)");
    }

    @Test
    @DisplayName("no node is offered as a model when nodes were excluded for more than resources and none holds a member")
    void noModelNodeWhenTainted() {
        List<Node> nodes = List.of(node("n1").label(HOST, "n1").allocatable("cpu", "8").allocatable("memory", "8Gi")
                .taint("dedicated", "x", TaintEffect.NoSchedule).build(), cpuNode("n2", "1"));
        Decision d = decide(nodes, gang("g", 2, "2"), Groups.gang("g", 2).build(), true);

        Explanation.Shortage s = d.explanation().shortage();
        assertThat(s.excluded()).extracting(Explanation.ReasonCount::reason)
                .containsExactly("Insufficient cpu", "node(s) had untolerated taint {dedicated: x}");
        assertThat(s.remedies()).isEmpty();
    }

    @Test
    @DisplayName("the rack that held the most members is the closest, and more nodes are asked for inside it")
    void closestRack() {
        // Each rack has 12 cpu free, enough to be tried, but fragmented: a holds two 3-cpu members, b three.
        List<Node> nodes = List.of(rackNode("a1", "a", "5"), rackNode("a2", "a", "5"), rackNode("a3", "a", "2"),
                rackNode("b1", "b", "6"), rackNode("b2", "b", "4"), rackNode("b3", "b", "2"));
        Decision d = decide(nodes, gang("g", 4, "3"), Groups.gang("g", 4).topology(RACK).build(), true);

        Explanation.Shortage s = d.explanation().shortage();
        assertThat(s.needed()).isEqualTo(4);
        assertThat(s.fits()).containsExactly(new Explanation.Fit(RACK + "=a", 2), new Explanation.Fit(RACK + "=b", 3));
        assertThat(s.closest()).isEqualTo(RACK + "=b");
        // b1 holds two members when empty, b2 one: b1 is the model.
        assertThat(s.remedies()).containsExactly("needs 1 more node like b1 (6 cpu) in " + RACK + "=b");
        assertThat(d.explanation().placements()).extracting(Explanation.Candidate::placed).containsExactly(2, 3);
    }

    @Test
    @DisplayName("a host-level constraint gets no node count: a host cannot grow")
    void hostLevelHasNoNodeCount() {
        Decision d = decide(List.of(cpuNode("n1", "4"), cpuNode("n2", "4")), gang("g", 3, "2"),
                Groups.gang("g", 3).topology(HOST).build(), true);

        Explanation.Shortage s = d.explanation().shortage();
        // n2 could not hold three members (pruned, not run): only the trial that ran is listed.
        assertThat(s.fits()).containsExactly(new Explanation.Fit(HOST + "=n1", 2));
        assertThat(s.remedies()).isEmpty();
    }

    @Test
    @DisplayName("with preemption off the lowest-priority pods whose eviction makes room are named; equal priority never")
    void preemptionRemedy() {
        List<Pod> pods = new ArrayList<>(gang("g", 2, "2"));
        pods.replaceAll(p -> withPriority(p, 100));
        pods.add(withPriority(pod("low").requests("cpu", "3").on("n1").build(), 5));
        pods.add(withPriority(pod("lower").requests("cpu", "3").on("n2").build(), 1));
        pods.add(withPriority(pod("peer").requests("cpu", "3").on("n3").build(), 100));
        List<Node> nodes = List.of(cpuNode("n1", "4"), cpuNode("n2", "4"), cpuNode("n3", "4"));
        Decision d = decide(nodes, pods, Groups.gang("g", 2).priority(100).build(), false);

        assertThat(d.outcome()).isEqualTo(Outcome.Unschedulable);
        Explanation.Shortage s = d.explanation().shortage();
        assertThat(s.fits()).containsExactly(new Explanation.Fit("*", 0));
        // Two members, each 2 cpu: evicting the priority-1 pod frees n2 for both.
        assertThat(s.remedies()).containsExactly("needs 1 more node like n1 (4 cpu)",
                "2 of the 2 missing members fit by requests if pod default/lower (priority 1) were preempted");
    }

    private static Pod bound(String name, String node, String cpu, int priority) {
        return withPriority(pod(name).label("app", name).requests("cpu", cpu).on(node).build(), priority);
    }

    private Explanation.Shortage shortage(List<Node> nodes, List<Pod> pods, List<PodGroup> groups,
                                          List<CompositePodGroup> composites, List<PodDisruptionBudget> budgets) {
        DecisionResult r = engine.decide(new DecisionRequest(new ClusterState(nodes, pods, groups, List.of(), budgets,
                composites), null, new DecisionOptions(false, true)));
        Decision d = r.decisions().stream().filter(x -> x.podGroup().name().equals("g")).findFirst().orElseThrow();
        assertThat(d.outcome()).isEqualTo(Outcome.Unschedulable);
        return d.explanation().shortage();
    }

    @Test
    @DisplayName("a CompositePodGroup tree that goes whole is suggested whole, never one of its pods")
    void treeSuggestedWhole() {
        List<Pod> pods = new ArrayList<>(List.of(withPriority(worker("g-0", "g", "3"), 100),
                Groups.member(bound("job-a-0", "n1", "4", 0), "job-a"),
                Groups.member(bound("job-b-0", "n1", "2", 0), "job-b"), bound("solo", "n2", "4", 5)));
        List<PodGroup> groups = List.of(Groups.gang("g", 1).priority(100).build(),
                Groups.basic("job-a").build().withParentComposite("job"),
                Groups.basic("job-b").build().withParentComposite("job"));
        CompositePodGroup whole = new CompositePodGroup(new GroupRef("default", "job"), null, false, 0, List.of(),
                DisruptionMode.PodGroup, null, 1, 0);

        Explanation.Shortage s = shortage(List.of(cpuNode("n1", "8"), cpuNode("n2", "4")), pods, groups,
                List.of(whole), List.of());
        Explanation.Shortage onePerPod = shortage(List.of(cpuNode("n1", "8"), cpuNode("n2", "4")), pods, groups,
                List.of(new CompositePodGroup(whole.ref(), null, false, 0, List.of(), DisruptionMode.Pod, null, 1, 0)),
                List.of());

        // Evicting job-a-0 alone would make room on n1, but the tree goes only whole.
        assertThat(s.remedies()).contains("1 of the 1 missing member fit by requests if composite pod group "
                + "default/job (2 pods, priority 1) were preempted");
        assertThat(String.join("\n", s.remedies())).doesNotContain("pod default/job-a-0");
        assertThat(onePerPod.remedies()).contains(
                "1 of the 1 missing member fit by requests if pod default/job-a-0 (priority 1) were preempted");
    }

    @Test
    @DisplayName("a disruptionMode PodGroup group is suggested whole, its pods freeing room on every node they run on")
    void podGroupSuggestedWhole() {
        List<Pod> pods = new ArrayList<>(List.of(withPriority(worker("g-0", "g", "4"), 100),
                withPriority(worker("g-1", "g", "4"), 100),
                Groups.member(bound("batch-0", "n1", "4", 0), "batch"),
                Groups.member(bound("batch-1", "n2", "4", 0), "batch")));
        List<PodGroup> groups = List.of(Groups.gang("g", 2).priority(100).build(),
                Groups.basic("batch").priority(3).disruptionMode(DisruptionMode.PodGroup).build());

        Explanation.Shortage s = shortage(List.of(cpuNode("n1", "4"), cpuNode("n2", "4")), pods, groups, List.of(),
                List.of());

        // The group's eviction, counted once for g-0, frees n2 for g-1 as well.
        assertThat(s.remedies()).contains("2 of the 2 missing members fit by requests if pod group default/batch "
                + "(2 pods, priority 3) were preempted");
    }

    @Test
    @DisplayName("a node whose evictions keep every PodDisruptionBudget is suggested before a lower-priority one that "
            + "breaks a budget")
    void budgetsLast() {
        List<Pod> pods = new ArrayList<>(List.of(withPriority(worker("g-0", "g", "4"), 100),
                bound("low", "n1", "4", 1), bound("mid", "n2", "4", 5)));
        PodDisruptionBudget protectLow = new PodDisruptionBudget(new PodRef("default", "pdb"),
                dev.muster.core.testing.Pods.labels("app", "low"), 0);
        List<Node> nodes = List.of(cpuNode("n1", "4"), cpuNode("n2", "4"));
        List<PodGroup> groups = List.of(Groups.gang("g", 1).priority(100).build());

        assertThat(shortage(nodes, pods, groups, List.of(), List.of(protectLow)).remedies()).contains(
                "1 of the 1 missing member fit by requests if pod default/mid (priority 5) were preempted");
        assertThat(shortage(nodes, pods, groups, List.of(), List.of()).remedies()).contains(
                "1 of the 1 missing member fit by requests if pod default/low (priority 1) were preempted");
    }

    @Test
    @DisplayName("a group that is scheduled, or decided without explain, carries no shortage")
    void onlyForUnschedulable() {
        Decision scheduled = decide(List.of(cpuNode("n1", "8")), gang("g", 2, "2"), Groups.gang("g", 2).build(), true);
        assertThat(scheduled.outcome()).isEqualTo(Outcome.Scheduled);
        assertThat(scheduled.explanation().shortage()).isNull();

        Decision quiet = engine.decide(new DecisionRequest(new ClusterState(List.of(cpuNode("n1", "1")),
                gang("g", 2, "2"), List.of(Groups.gang("g", 2).build()), List.of(), List.of()), null,
                DecisionOptions.DEFAULT)).decisions().get(0);
        assertThat(quiet.outcome()).isEqualTo(Outcome.Unschedulable);
        assertThat(quiet.explanation()).isNull();
    }
}
