package dev.muster.core.decision;

import dev.muster.core.model.ClusterState;
import dev.muster.core.model.GroupRef;
import dev.muster.core.model.Node;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodGroup;
import dev.muster.core.model.PodRef;
import dev.muster.core.model.TaintEffect;
import dev.muster.core.testing.Groups;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static dev.muster.core.testing.Groups.member;
import static dev.muster.core.testing.Nodes.node;
import static dev.muster.core.testing.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;

/** The engine end to end on the model: outcomes, messages, conditions and group order (docs/api.md). */
class DecisionEngineTest {
    private final DecisionEngine engine = new DecisionEngine(EngineConfig.DEFAULT);

    static Node cpuNode(String name, String cpu) {
        return node(name).allocatable("cpu", cpu).allocatable("memory", "32Gi").build();
    }

    static Pod worker(String name, String group, String cpu) {
        return member(pod(name).requests("cpu", cpu).requests("memory", "1Gi").build(), group);
    }

    static DecisionResult decide(DecisionEngine engine, List<Node> nodes, List<Pod> pods, List<PodGroup> groups) {
        return engine.decide(new DecisionRequest(new ClusterState(nodes, pods, groups, List.of(), List.of()), null,
                new DecisionOptions(true, true)));
    }

    private DecisionResult decide(List<Node> nodes, List<Pod> pods, List<PodGroup> groups) {
        return decide(engine, nodes, pods, groups);
    }

    static Map<String, String> placements(Decision d) {
        Map<String, String> m = new TreeMap<>();
        for (Assignment a : d.placements()) {
            m.put(a.pod().name(), a.node());
        }
        return m;
    }

    @Test
    @DisplayName("a gang of four that fits is scheduled whole, spread by LeastAllocated, with PodGroupScheduled=True")
    void gangThatFits() {
        List<Pod> pods = List.of(worker("w-0", "train", "2"), worker("w-1", "train", "2"), worker("w-2", "train", "2"),
                worker("w-3", "train", "2"));
        DecisionResult r = decide(List.of(cpuNode("n1", "4"), cpuNode("n2", "4"), cpuNode("n3", "4")), pods,
                List.of(Groups.gang("train", 4).build()));

        Decision d = r.decisions().get(0);
        assertThat(d.outcome()).isEqualTo(Outcome.Scheduled);
        assertThat(placements(d)).containsOnlyKeys("w-0", "w-1", "w-2", "w-3");
        // Each node holds at most 4 cpu: never more than two 2-cpu workers per node.
        Map<String, Integer> perNode = new TreeMap<>();
        placements(d).values().forEach(n -> perNode.merge(n, 1, Integer::sum));
        assertThat(perNode.values()).allMatch(c -> c <= 2);
        assertThat(perNode).hasSize(3);
        assertThat(d.conditions()).singleElement().satisfies(c -> {
            assertThat(c.type()).isEqualTo("PodGroupScheduled");
            assertThat(c.status()).isEqualTo("True");
            assertThat(c.reason()).isEqualTo("Scheduled");
        });
    }

    @Test
    @DisplayName("a gang that cannot reach minCount on capacity places nothing and says why in FitError words")
    void gangTooBig() {
        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            pods.add(worker("w-" + i, "train", "3"));
        }
        DecisionResult r = decide(List.of(cpuNode("n1", "4"), cpuNode("n2", "4")), pods,
                List.of(Groups.gang("train", 3).build()));

        Decision d = r.decisions().get(0);
        assertThat(d.outcome()).isEqualTo(Outcome.Unschedulable);
        assertThat(d.placements()).isEmpty();
        assertThat(d.message()).isEqualTo("0/2 nodes are available: 2 Insufficient cpu."
                + " preemption: No preemption victims found for incoming preemptor.");
        assertThat(d.unschedulablePods()).extracting(PodMessage::message).containsExactly(
                "waiting for minCount pods from a gang to be scheduled",
                "waiting for minCount pods from a gang to be scheduled",
                "0/2 nodes are available: 2 Insufficient cpu.");
        assertThat(d.conditions().get(0).status()).isEqualTo("False");
        assertThat(d.conditions().get(0).reason()).isEqualTo("Unschedulable");
        assertThat(d.explanation().reasons()).containsExactly(new Explanation.ReasonCount("Insufficient cpu", 2));
    }

    @Test
    @DisplayName("a gang with fewer members than minCount waits; gated members do not count and are listed apart")
    void waitingForMembers() {
        List<Pod> pods = List.of(worker("w-0", "train", "1"), worker("w-1", "train", "1"),
                Groups.gated(worker("w-2", "train", "1"), "example.com/quota"));
        DecisionResult r = decide(List.of(cpuNode("n1", "8")), pods, List.of(Groups.gang("train", 3).build()));

        Decision d = r.decisions().get(0);
        assertThat(d.outcome()).isEqualTo(Outcome.WaitingForMembers);
        assertThat(d.placements()).isEmpty();
        assertThat(d.message()).contains("2 of 3").contains("1 gated").contains("3 exist");
        assertThat(r.pods()).singleElement().satisfies(p -> {
            assertThat(p.pod()).isEqualTo(new PodRef("default", "w-2"));
            assertThat(p.status()).isEqualTo("SchedulingGated");
        });
    }

    @Test
    @DisplayName("bound members count toward minCount, so one more member completes the gang")
    void boundMembersCount() {
        Pod bound = member(pod("w-0").requests("cpu", "1").on("n1").build(), "train");
        DecisionResult r = decide(List.of(cpuNode("n1", "2")),
                List.of(bound, worker("w-1", "train", "1")), List.of(Groups.gang("train", 2).build()));

        Decision d = r.decisions().get(0);
        assertThat(d.outcome()).isEqualTo(Outcome.Scheduled);
        assertThat(placements(d)).containsExactly(Map.entry("w-1", "n1"));
    }

    @Test
    @DisplayName("a basic group places each member that fits and lists the rest")
    void basicPlacesWhatFits() {
        List<Pod> pods = List.of(worker("a", "web", "2"), worker("b", "web", "2"), worker("c", "web", "2"));
        DecisionResult r = decide(List.of(cpuNode("n1", "4")), pods, List.of(Groups.basic("web").build()));

        Decision d = r.decisions().get(0);
        assertThat(d.outcome()).isEqualTo(Outcome.Scheduled);
        assertThat(placements(d)).containsOnlyKeys("a", "b");
        assertThat(d.unschedulablePods()).singleElement().satisfies(u -> {
            assertThat(u.pod().name()).isEqualTo("c");
            assertThat(u.message()).isEqualTo("0/1 nodes are available: 1 Insufficient cpu.");
        });
    }

    @Test
    @DisplayName("groups are decided by priority first and never share capacity")
    void groupsInPriorityOrder() {
        List<Pod> pods = List.of(worker("low-0", "low", "2"), worker("low-1", "low", "2"),
                worker("high-0", "high", "2"), worker("high-1", "high", "2"));
        DecisionResult r = decide(List.of(cpuNode("n1", "4")), pods,
                List.of(Groups.gang("low", 2).priority(10).created(1).build(),
                        Groups.gang("high", 2).priority(100).created(2).build()));

        assertThat(r.decisions()).extracting(d -> d.podGroup().name()).containsExactly("high", "low");
        assertThat(r.decisions().get(0).outcome()).isEqualTo(Outcome.Scheduled);
        assertThat(r.decisions().get(1).outcome()).isEqualTo(Outcome.Unschedulable);
    }

    @Test
    @DisplayName("pods naming a PodGroup that is not in the snapshot get a PodGroupNotFound decision")
    void podGroupNotFound() {
        DecisionResult r = decide(List.of(cpuNode("n1", "4")), List.of(worker("w-0", "ghost", "1")), List.of());

        Decision d = r.decisions().get(0);
        assertThat(d.podGroup()).isEqualTo(new GroupRef("default", "ghost"));
        assertThat(d.outcome()).isEqualTo(Outcome.PodGroupNotFound);
        assertThat(d.message()).isEqualTo("waiting for pods's pod group \"ghost\" to appear in scheduling queue");
        assertThat(d.unschedulablePods()).extracting(u -> u.pod().name()).containsExactly("w-0");
    }

    @Test
    @DisplayName("a group already marked PodGroupScheduled=True keeps it when a later cycle fails")
    void conditionNeverRegresses() {
        PodGroup g = Groups.basic("web").condition("PodGroupScheduled", "True", "Scheduled", "All pods scheduled")
                .build();
        DecisionResult r = decide(List.of(cpuNode("n1", "1")), List.of(worker("a", "web", "2")), List.of(g));

        Decision d = r.decisions().get(0);
        assertThat(d.outcome()).isEqualTo(Outcome.Unschedulable);
        assertThat(d.conditions()).singleElement().satisfies(c -> {
            assertThat(c.status()).isEqualTo("True");
            assertThat(c.message()).isEqualTo("All pods scheduled");
            assertThat(c.lastTransitionTime()).isEqualTo("2026-01-01T00:00:00Z");
        });
    }

    @Test
    @DisplayName("untolerated taints are reported per reason with node counts, sorted as kube-scheduler does")
    void taintMessage() {
        List<Node> nodes = List.of(
                node("gpu-1").allocatable("cpu", "8").taint("gpu", "true", TaintEffect.NoSchedule).build(),
                node("gpu-2").allocatable("cpu", "8").taint("gpu", "true", TaintEffect.NoSchedule).build(),
                cpuNode("small", "1"));
        DecisionResult r = decide(nodes, List.of(worker("a", "job", "2")), List.of(Groups.gang("job", 1).build()));

        assertThat(r.decisions().get(0).message()).isEqualTo(
                "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) had untolerated taint {gpu: true}."
                        + " preemption: No preemption victims found for incoming preemptor.");
    }

    @Test
    @DisplayName("the same request gives an equal result every time")
    void deterministic() {
        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            pods.add(worker("w-" + i, "train", "1"));
        }
        List<Node> nodes = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            nodes.add(cpuNode("n" + i, "4"));
        }
        List<PodGroup> groups = List.of(Groups.gang("train", 12).build());
        DecisionResult first = decide(nodes, pods, groups);
        for (int i = 0; i < 5; i++) {
            assertThat(decide(nodes, pods, groups)).isEqualTo(first);
        }
    }

    @Test
    @DisplayName("beyond upstream: a heterogeneous gang the greedy order cannot fit is placed by the bounded search")
    void searchFindsWhatGreedyMisses() {
        // Greedy places the small member first (older) on the emptier big node; the big member then fits nowhere.
        Pod small = Groups.created(worker("small", "mix", "2"), 1);
        Pod big = Groups.created(worker("big", "mix", "4"), 2);
        List<Node> nodes = List.of(cpuNode("a-big", "4"), cpuNode("b-small", "2"));
        DecisionResult r = decide(nodes, List.of(small, big), List.of(Groups.gang("mix", 2).build()));

        Decision d = r.decisions().get(0);
        assertThat(d.outcome()).isEqualTo(Outcome.Scheduled);
        assertThat(placements(d)).containsExactly(Map.entry("big", "a-big"), Map.entry("small", "b-small"));
        assertThat(d.explanation().search().ran()).isTrue();
        assertThat(d.explanation().search().found()).isTrue();
    }

    @Test
    @DisplayName("with the search budget at zero the same gang is Unschedulable, as upstream's greedy pass leaves it")
    void searchOff() {
        DecisionEngine greedyOnly = new DecisionEngine(new EngineConfig(0, 1, 1024));
        Pod small = Groups.created(worker("small", "mix", "2"), 1);
        Pod big = Groups.created(worker("big", "mix", "4"), 2);
        DecisionResult r = decide(greedyOnly, List.of(cpuNode("a-big", "4"), cpuNode("b-small", "2")),
                List.of(small, big), List.of(Groups.gang("mix", 2).build()));

        assertThat(r.decisions().get(0).outcome()).isEqualTo(Outcome.Unschedulable);
    }

    @Test
    @DisplayName("a caller that asks to stop gets no partial result: the run ends at the next member")
    void stopSignal() {
        List<Pod> pods = List.of(worker("w-0", "train", "1"), worker("w-1", "train", "1"));
        ClusterState state = new ClusterState(List.of(cpuNode("n1", "4")), pods, List.of(Groups.gang("train", 2).build()),
                List.of(), List.of());
        int[] polls = {0};
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> engine.decide(
                        new DecisionRequest(state, null, DecisionOptions.DEFAULT), () -> ++polls[0] > 1))
                .isInstanceOf(DecisionAbortedException.class);
        assertThat(polls[0]).isEqualTo(2);
        assertThat(engine.decide(new DecisionRequest(state, null, DecisionOptions.DEFAULT), () -> false)
                .decisions().get(0).outcome()).isEqualTo(Outcome.Scheduled);
    }
}
