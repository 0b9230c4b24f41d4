package dev.muster.core.decision;

import dev.muster.core.model.ClusterState;
import dev.muster.core.model.Node;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodGroup;
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
