package dev.muster.core.decision;

import dev.muster.core.model.ClusterState;
import dev.muster.core.model.DisruptionMode;
import dev.muster.core.model.LabelSelector;
import dev.muster.core.model.Node;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodDisruptionBudget;
import dev.muster.core.model.PodGroup;
import dev.muster.core.model.PodRef;
import dev.muster.core.testing.Groups;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.muster.core.decision.DecisionEngineTest.cpuNode;
import static dev.muster.core.decision.DecisionEngineTest.worker;
import static dev.muster.core.testing.Groups.member;
import static dev.muster.core.testing.Groups.withPriority;
import static dev.muster.core.testing.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;

/** Workload-aware preemption (upstream KEP-5710 semantics, the {@code Preempting} outcome of docs/api.md). */
class PreemptionTest {
    private final DecisionEngine engine = new DecisionEngine(EngineConfig.DEFAULT);

    private static Pod running(String name, String node, String cpu, int priority) {
        return withPriority(pod(name).requests("cpu", cpu).label("app", name).on(node).build(), priority);
    }

    private DecisionResult decide(List<Node> nodes, List<Pod> pods, List<PodGroup> groups, boolean preemption,
                                  List<PodDisruptionBudget> pdbs) {
        return engine.decide(new DecisionRequest(new ClusterState(nodes, pods, groups, List.of(), pdbs), null,
                new DecisionOptions(preemption, false)));
    }

    private static List<String> names(List<Assignment> as) {
        List<String> out = new ArrayList<>();
        as.forEach(a -> out.add(a.pod().name() + "@" + a.node()));
        return out;
    }

    @Test
    @DisplayName("a high-priority gang evicts only as many lower-priority pods as it needs and is nominated there")
    void minimalVictims() {
        List<Node> nodes = List.of(cpuNode("n1", "4"), cpuNode("n2", "4"));
        List<Pod> pods = new ArrayList<>(List.of(running("v1", "n1", "2", 1), running("v2", "n1", "2", 1),
                running("v3", "n2", "2", 1), running("v4", "n2", "2", 1)));
        pods.add(worker("g-0", "g", "2"));
        pods.add(worker("g-1", "g", "2"));
        DecisionResult r = decide(nodes, pods, List.of(Groups.gang("g", 2).priority(100).build()), true, List.of());

        Decision d = r.decisions().get(0);
        assertThat(d.outcome()).isEqualTo(Outcome.Preempting);
        assertThat(d.placements()).isEmpty();
        assertThat(d.victims()).hasSize(2);
        assertThat(d.nominations()).hasSize(2);
        // Every nomination goes to a node whose victims free exactly the room it needs.
        long freed = d.victims().stream().map(Assignment::node).distinct().count();
        assertThat(d.nominations()).allSatisfy(n -> assertThat(d.victims()).anyMatch(v -> v.node().equals(n.node())));
        assertThat(freed).isBetween(1L, 2L);
        assertThat(d.message()).isEqualTo("pod group is waiting for preemption to complete");
        assertThat(d.conditions().get(0).status()).isEqualTo("False");
    }

    @Test
    @DisplayName("pods of equal priority are never victims")
    void equalPriorityIsSafe() {
        List<Pod> pods = List.of(running("v1", "n1", "4", 100), worker("g-0", "g", "2"));
        DecisionResult r = decide(List.of(cpuNode("n1", "4")), pods, List.of(Groups.gang("g", 1).priority(100).build()),
                true, List.of());

        Decision d = r.decisions().get(0);
        assertThat(d.outcome()).isEqualTo(Outcome.Unschedulable);
        assertThat(d.victims()).isEmpty();
        assertThat(d.message()).endsWith("preemption: No preemption victims found for incoming preemptor.");
    }

    @Test
    @DisplayName("with options.preemption false the group stays Unschedulable and nothing is evicted")
    void preemptionOff() {
        List<Pod> pods = List.of(running("v1", "n1", "4", 1), worker("g-0", "g", "2"));
        DecisionResult r = decide(List.of(cpuNode("n1", "4")), pods, List.of(Groups.gang("g", 1).priority(100).build()),
                false, List.of());

        assertThat(r.decisions().get(0).outcome()).isEqualTo(Outcome.Unschedulable);
        assertThat(r.decisions().get(0).message()).isEqualTo("0/1 nodes are available: 1 Insufficient cpu.");
    }

    @Test
    @DisplayName("the victim's PodGroup priority overrides its pod priority")
    void victimGroupPriorityOverrides() {
        Pod highPodLowGroup = member(running("v1", "n1", "4", 1_000_000), "batch");
        List<Pod> pods = List.of(highPodLowGroup, worker("g-0", "g", "2"));
        DecisionResult r = decide(List.of(cpuNode("n1", "4")), pods,
                List.of(Groups.gang("g", 1).priority(100).build(), Groups.basic("batch").priority(5).build()), true,
                List.of());

        Decision d = r.decisions().stream().filter(x -> x.podGroup().name().equals("g")).findFirst().orElseThrow();
        assertThat(d.outcome()).isEqualTo(Outcome.Preempting);
        assertThat(names(d.victims())).containsExactly("v1@n1");
    }

    @Test
    @DisplayName("a disruptionMode PodGroup victim group is evicted whole, even members the preemptor does not need")
    void wholeGroupVictim() {
        List<Node> nodes = List.of(cpuNode("n1", "4"), cpuNode("n2", "4"));
        List<Pod> pods = List.of(member(running("v1", "n1", "4", 1), "victims"),
                member(running("v2", "n2", "4", 1), "victims"), worker("g-0", "g", "2"));
        DecisionResult r = decide(nodes, pods, List.of(Groups.gang("g", 1).priority(100).build(),
                Groups.basic("victims").priority(1).disruptionMode(DisruptionMode.PodGroup).build()), true, List.of());

        Decision d = r.decisions().stream().filter(x -> x.podGroup().name().equals("g")).findFirst().orElseThrow();
        assertThat(d.outcome()).isEqualTo(Outcome.Preempting);
        assertThat(names(d.victims())).containsExactly("v1@n1", "v2@n2");
    }

    @Test
    @DisplayName("pods protected by an exhausted PodDisruptionBudget are reprieved first when others suffice")
    void pdbProtectedReprievedFirst() {
        List<Pod> pods = List.of(running("protected", "n1", "4", 1), running("plain", "n2", "4", 1),
                worker("g-0", "g", "4"));
        PodDisruptionBudget pdb = new PodDisruptionBudget(new PodRef("default", "keep"),
                new LabelSelector(Map.of("app", "protected"), List.of()), 0);
        DecisionResult r = decide(List.of(cpuNode("n1", "4"), cpuNode("n2", "4")), pods,
                List.of(Groups.gang("g", 1).priority(100).build()), true, List.of(pdb));

        Decision d = r.decisions().get(0);
        assertThat(d.outcome()).isEqualTo(Outcome.Preempting);
        assertThat(names(d.victims())).containsExactly("plain@n2");
        assertThat(names(d.nominations())).containsExactly("g-0@n2");
    }
}
