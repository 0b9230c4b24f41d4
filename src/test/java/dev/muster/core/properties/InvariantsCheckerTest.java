package dev.muster.core.properties;

import dev.muster.core.decision.Assignment;
import dev.muster.core.decision.Decision;
import dev.muster.core.decision.DecisionResult;
import dev.muster.core.decision.Outcome;
import dev.muster.core.decision.PodStatus;
import dev.muster.core.model.ClusterState;
import dev.muster.core.model.GroupRef;
import dev.muster.core.model.Node;
import dev.muster.core.model.NodeSelectorRequirement;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodGroup;
import dev.muster.core.model.PodRef;
import dev.muster.core.model.TaintEffect;
import dev.muster.core.testing.Groups;
import dev.muster.core.testing.Pods;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static dev.muster.core.testing.Nodes.node;
import static dev.muster.core.testing.Pods.affinityTerm;
import static dev.muster.core.testing.Pods.labels;
import static dev.muster.core.testing.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The checker itself: each invariant, broken on purpose in a hand-made response, is reported, and a response that
 * keeps them all is not. Without this, a property that never fails could just be a checker that never looks.
 */
class InvariantsCheckerTest {
    static final String ZONE = ClusterGen.ZONE;
    static final String HOST = ClusterGen.HOST;

    /** n1 zone a (4 cpu), n2 zone b tainted dedicated=infra:NoSchedule, n3 zone b cordoned, n4 zone b, 1 pod slot. */
    static final List<Node> NODES = List.of(
            node("n1").label(HOST, "n1").label(ZONE, "a").allocatable("cpu", "4").allocatable("memory", "8Gi").build(),
            node("n2").label(HOST, "n2").label(ZONE, "b").allocatable("cpu", "4").allocatable("memory", "8Gi")
                    .taint("dedicated", "infra", TaintEffect.NoSchedule).build(),
            node("n3").label(HOST, "n3").label(ZONE, "b").allocatable("cpu", "4").allocatable("memory", "8Gi")
                    .unschedulable().build(),
            node("n4").label(HOST, "n4").label(ZONE, "b").allocatable("cpu", "4").allocatable("memory", "8Gi")
                    .allocatable("pods", "1").build());

    private final List<Pod> pods = new ArrayList<>();
    private final List<PodGroup> groups = new ArrayList<>(List.of(Groups.gang("g", 1).build()));
    private final List<PodStatus> statuses = new ArrayList<>();

    private Pod member(Pods p) {
        Pod pod = Groups.member(p.label("grp", "g").build(), "g");
        pods.add(pod);
        return pod;
    }

    private void bound(Pods p) {
        pods.add(p.build());
    }

    private static Assignment at(String pod, String node) {
        return new Assignment(new PodRef("default", pod), node);
    }

    private static Decision decision(String group, Outcome outcome, Assignment... placements) {
        return new Decision(new GroupRef("default", group), outcome, Arrays.asList(placements), List.of(), List.of(),
                List.of(), List.of(), List.of(), "", null);
    }

    private List<String> check(Decision... decisions) {
        ClusterState state = new ClusterState(NODES, pods, groups, List.of(), List.of());
        return Invariants.check(state, new DecisionResult(Arrays.asList(decisions), statuses));
    }

    @Test
    @DisplayName("a response that keeps every invariant passes, terminal pods and other namespaces aside")
    void validResponsePasses() {
        bound(pod("done").on("n1").phase("Succeeded").requests("cpu", "4").hostPort("", "TCP", 80)
                .podAntiAffinity(affinityTerm(labels("grp", "g"), HOST)));
        bound(pod("elsewhere").namespace("other").on("n1").label("app", "x")
                .podAntiAffinity(affinityTerm(labels("grp", "g"), HOST)));
        member(pod("a").requests("cpu", "2").hostPort("", "TCP", 80));
        member(pod("b").requests("cpu", "2").hostPort("", "UDP", 80)
                .toleration("dedicated", dev.muster.core.model.Toleration.Operator.Equal, "infra", null));
        assertThat(check(decision("g", Outcome.Scheduled, at("a", "n1"), at("b", "n2")))).isEmpty();
    }

    @Test
    void overCapacity() {
        member(pod("a").requests("cpu", "3"));
        member(pod("b").requests("cpu", "3"));
        assertThat(check(decision("g", Outcome.Scheduled, at("a", "n1"), at("b", "n1"))))
                .anyMatch(v -> v.contains("cpu requested 6000 > allocatable 4000"));
    }

    @Test
    void tooManyPods() {
        bound(pod("busy").on("n4"));
        member(pod("a"));
        assertThat(check(decision("g", Outcome.Scheduled, at("a", "n4")))).anyMatch(v -> v.contains("pods"));
    }

    @Test
    void untoleratedTaintAndCordon() {
        member(pod("a"));
        member(pod("b"));
        assertThat(check(decision("g", Outcome.Scheduled, at("a", "n2"), at("b", "n3"))))
                .anyMatch(v -> v.contains("untolerated taint dedicated=infra"))
                .anyMatch(v -> v.contains("node is unschedulable"));
    }

    @Test
    void nodeSelectorAndRequiredAffinity() {
        member(pod("a").nodeSelector(ZONE, "b"));
        member(pod("b").requiredNodeTerm(Pods.term(Pods.req(ZONE, NodeSelectorRequirement.Operator.NotIn, "a"))));
        assertThat(check(decision("g", Outcome.Scheduled, at("a", "n1"), at("b", "n1"))))
                .anyMatch(v -> v.contains("nodeSelector"))
                .anyMatch(v -> v.contains("required node affinity"));
    }

    @Test
    void hostPortConflict() {
        bound(pod("web").on("n1").hostPort("", "TCP", 8080));
        member(pod("a").hostPort("10.0.0.1", "TCP", 8080));
        assertThat(check(decision("g", Outcome.Scheduled, at("a", "n1")))).anyMatch(v -> v.contains("host port"));
    }

    @Test
    void antiAffinityBothWays() {
        bound(pod("web").on("n1").label("app", "web"));
        bound(pod("guard").on("n4").podAntiAffinity(affinityTerm(labels("grp", "g"), HOST)));
        member(pod("a").podAntiAffinity(affinityTerm(labels("app", "web"), HOST)));
        groups.set(0, Groups.gang("g", 1).build());
        List<String> v1 = check(decision("g", Outcome.Scheduled, at("a", "n1")));
        pods.remove(pods.size() - 1);
        member(pod("b"));
        List<String> v2 = check(decision("g", Outcome.Scheduled, at("b", "n4")));
        assertThat(v1).anyMatch(v -> v.contains("its anti-affinity {app=web} matches web"));
        assertThat(v2).anyMatch(v -> v.contains("anti-affinity {grp=g} of guard on n4 matches it"));
    }

    @Test
    void spreadSkew() {
        var spread = Pods.hardSpread(1, ZONE, labels("grp", "g"));
        member(pod("a").spread(spread));
        member(pod("b").spread(spread));
        assertThat(check(decision("g", Outcome.Scheduled, at("a", "n1"), at("b", "n1"))))
                .anyMatch(v -> v.contains("spread on " + ZONE + ": domain a has 2 matching pods, global min 0"));
    }

    @Test
    void gangBelowMinCountAndPlacementsWithoutSuccess() {
        groups.set(0, Groups.gang("g", 3).build());
        member(pod("a"));
        member(pod("b"));
        member(pod("c"));
        assertThat(check(decision("g", Outcome.Scheduled, at("a", "n1"), at("b", "n1"))))
                .anyMatch(v -> v.contains("0 bound + 2 placed < minCount 3"));
        assertThat(check(decision("g", Outcome.Unschedulable, at("a", "n1"))))
                .anyMatch(v -> v.contains("outcome Unschedulable but 1 placements"));
    }

    @Test
    void topologySpansTwoDomains() {
        groups.set(0, Groups.gang("g", 1).topology(ZONE).build());
        member(pod("a"));
        member(pod("b"));
        assertThat(check(decision("g", Outcome.Scheduled, at("a", "n1"), at("b", "n4"))))
                .anyMatch(v -> v.contains("members in 2 domains"));
    }

    @Test
    void gatedPodsPlacedOrNotReported() {
        pods.add(Groups.gated(Groups.member(pod("a").build(), "g"), "example.com/wait"));
        member(pod("b"));
        assertThat(check(decision("g", Outcome.Scheduled, at("a", "n1"))))
                .anyMatch(v -> v.contains("has scheduling gates"));
        assertThat(check(decision("g", Outcome.Scheduled, at("b", "n1"))))
                .anyMatch(v -> v.contains("is not reported as SchedulingGated"));
    }

    @Test
    void membershipDuplicatesAndBoundPods() {
        groups.add(Groups.gang("h", 1).build());
        member(pod("a"));
        pods.add(Groups.member(pod("x").build(), "h"));
        pods.add(Groups.member(pod("y").on("n1").build(), "g"));
        assertThat(check(decision("g", Outcome.Scheduled, at("a", "n1"), at("x", "n1"), at("y", "n1")),
                decision("h", Outcome.Scheduled, at("a", "n4"))))
                .anyMatch(v -> v.contains("its group is h"))
                .anyMatch(v -> v.contains("placed more than once"))
                .anyMatch(v -> v.contains("not pending"));
    }

    @Test
    void decisionOrder() {
        groups.set(0, Groups.gang("g", 1).priority(1).build());
        groups.add(Groups.gang("h", 1).priority(5).build());
        member(pod("a"));
        pods.add(Groups.member(pod("x").build(), "h"));
        assertThat(check(decision("g", Outcome.Unschedulable), decision("h", Outcome.Unschedulable)))
                .anyMatch(v -> v.contains("decision order"));
    }
}
