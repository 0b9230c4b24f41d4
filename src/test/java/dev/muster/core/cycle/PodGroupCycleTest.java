package dev.muster.core.cycle;

import dev.muster.core.decision.Decision;
import dev.muster.core.decision.DecisionEngine;
import dev.muster.core.decision.DecisionOptions;
import dev.muster.core.decision.DecisionRequest;
import dev.muster.core.decision.EngineConfig;
import dev.muster.core.decision.Outcome;
import dev.muster.core.decision.PodMessage;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.framework.Profile;
import dev.muster.core.framework.ResourceIndex;
import dev.muster.core.model.ClusterState;
import dev.muster.core.model.GroupRef;
import dev.muster.core.model.Node;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodGroup;
import dev.muster.core.plugins.gangscheduling.GangSchedulingPlugin;
import dev.muster.core.plugins.noderesourcesfit.NodeResourcesFitPlugin;
import dev.muster.core.snapshot.SnapshotOverlay;
import dev.muster.core.testing.Groups;
import dev.muster.core.testing.RecordingReserve;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.muster.core.testing.Groups.member;
import static dev.muster.core.testing.Nodes.node;
import static dev.muster.core.testing.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * One PodGroup's cycle with a small custom profile (NodeResourcesFit, GangScheduling and recording Reserve plugins):
 * what stays assumed in the snapshot, and that everything Reserve took is given back when the group does not fit.
 */
class PodGroupCycleTest {
    private static final GroupRef G = new GroupRef("default", "g");

    private static List<Node> nodes() {
        return List.of(node("n1").allocatable("cpu", "4").allocatable("memory", "8Gi").build(),
                node("n2").allocatable("cpu", "4").allocatable("memory", "8Gi").build());
    }

    private static List<Pod> members(int n, String cpu) {
        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            pods.add(member(pod("g-" + i).requests("cpu", cpu).build(), "g"));
        }
        return pods;
    }

    private static Profile profile(RecordingReserve... reserves) {
        Profile.Builder b = Profile.builder().add(new NodeResourcesFitPlugin()).add(new GangSchedulingPlugin());
        for (RecordingReserve r : reserves) {
            b.add(r);
        }
        return b.build();
    }

    private static SnapshotOverlay snapshot(List<Pod> pods, PodGroup group) {
        return new SnapshotOverlay(new ClusterState(nodes(), pods, List.of(group), List.of(), List.of()));
    }

    private static GroupOutcome run(SnapshotOverlay snapshot, Profile profile) {
        SchedulingScope scope = new SchedulingScope(snapshot, profile, null, 1024);
        return new PodGroupCycle(scope, 0).run(snapshot.podGroups().get(G), snapshot.members(G), false);
    }

    private static long cpuRequested(SnapshotOverlay s) {
        long t = 0;
        for (int i = 0; i < s.nodeCount(); i++) {
            t += s.node(i).requested(ResourceIndex.CPU);
        }
        return t;
    }

    /** The snapshot is back at {@code mark} with no member assumed, and every plugin gave back all it reserved. */
    private static void assertGaveBackEverything(SnapshotOverlay s, int mark, RecordingReserve... reserves) {
        assertThat(s.mark()).isEqualTo(mark);
        for (PodInfo p : s.members(G)) {
            assertThat(s.isOnNode(p)).as(p.ref().name()).isFalse();
        }
        assertThat(cpuRequested(s)).isZero();
        for (RecordingReserve r : reserves) {
            assertThat(r.reserved()).as(r.name() + " reserved something").isPositive();
            assertThat(r.unreserved()).as(r.name()).isEqualTo(r.reserved());
            assertThat(r.held()).as(r.name()).isEmpty();
        }
    }

    private static Map<String, String> messagesOf(GroupOutcome o) {
        Map<String, String> out = new java.util.TreeMap<>();
        for (MemberResult m : o.result().cycle().members()) {
            out.put(m.pod().ref().name(), m.placed() ? "@" + m.node() : m.message());
        }
        return out;
    }

    @Test
    @DisplayName("a gang that reaches minCount (Permit Success) is scheduled and its members stay assumed in the snapshot")
    void feasibleGangStaysAssumed() {
        RecordingReserve reserve = new RecordingReserve("Holder");
        SnapshotOverlay s = snapshot(members(2, "3"), Groups.gang("g", 2).build());
        int before = s.mark();

        GroupOutcome o = run(s, profile(reserve));

        assertThat(o.kind()).isEqualTo(GroupOutcome.Kind.SCHEDULED);
        assertThat(o.result().cycle().feasible()).isTrue();
        assertThat(o.result().cycle().placed()).isEqualTo(2);
        for (PodInfo p : s.members(G)) {
            assertThat(s.isOnNode(p)).as(p.ref().name()).isTrue();
        }
        assertThat(s.mark()).isGreaterThan(before);
        assertThat(cpuRequested(s)).isEqualTo(6000);
        assertThat(reserve.reserved()).isEqualTo(2);
        assertThat(reserve.unreserved()).isZero();
        assertThat(reserve.held()).containsOnlyKeys("g-0", "g-1");
    }

    @Test
    @DisplayName("a gang short of minCount leaves the snapshot as it found it and gives back every reserve")
    void infeasibleGangLeavesSnapshotUnchanged() {
        RecordingReserve reserve = new RecordingReserve("Holder");
        SnapshotOverlay s = snapshot(members(3, "3"), Groups.gang("g", 3).build());
        int before = s.mark();

        GroupOutcome o = run(s, profile(reserve));

        assertThat(o.kind()).isEqualTo(GroupOutcome.Kind.UNSCHEDULABLE);
        assertThat(o.result().cycle().feasible()).isFalse();
        assertThat(reserve.reserved()).as("two members fit before the third did not").isEqualTo(2);
        assertGaveBackEverything(s, before, reserve);
    }

    @Test
    @DisplayName("a member Reserve rejects is unplaced with that message, is given back by the earlier plugin, and the rest still schedule")
    void reserveRejectsOneMember() {
        List<String> log = new ArrayList<>();
        RecordingReserve first = new RecordingReserve("First", log);
        RecordingReserve picky = new RecordingReserve("Picky", log).rejecting("g-1", "no device for g-1");
        SnapshotOverlay s = snapshot(members(3, "1"), Groups.gang("g", 2).build());

        GroupOutcome o = run(s, profile(first, picky));

        assertThat(o.kind()).isEqualTo(GroupOutcome.Kind.SCHEDULED);
        Map<String, String> members = messagesOf(o);
        assertThat(members.get("g-1")).isEqualTo("no device for g-1");
        assertThat(members.get("g-0")).startsWith("@");
        assertThat(members.get("g-2")).startsWith("@");
        assertThat(s.isOnNode(s.pod(new dev.muster.core.model.PodRef("default", "g-1")))).isFalse();
        assertThat(first.held()).containsOnlyKeys("g-0", "g-2");
        assertThat(picky.held()).containsOnlyKeys("g-0", "g-2");
        assertThat(log).containsSubsequence("reserve First g-1", "reserve Picky g-1", "unreserve First g-1");
        assertThat(cpuRequested(s)).isEqualTo(2000);
    }

    @Test
    @DisplayName("a gang that falls short because Reserve rejected a member gives back every reserve of every plugin")
    void reserveRejectionMakesGangInfeasible() {
        RecordingReserve first = new RecordingReserve("First");
        RecordingReserve picky = new RecordingReserve("Picky").rejecting("g-1", "no device for g-1");
        SnapshotOverlay s = snapshot(members(3, "1"), Groups.gang("g", 3).build());
        int before = s.mark();

        GroupOutcome o = run(s, profile(first, picky));

        assertThat(o.kind()).isEqualTo(GroupOutcome.Kind.UNSCHEDULABLE);
        assertThat(messagesOf(o).get("g-1")).isEqualTo("no device for g-1");
        assertGaveBackEverything(s, before, first, picky);
        assertThat(picky.rejected()).isEqualTo(1);
    }

    @Test
    @DisplayName("a gang short of pending members waits at PreEnqueue: no Reserve runs and nothing is assumed")
    void waitingGangTriesNothing() {
        RecordingReserve reserve = new RecordingReserve("Holder");
        SnapshotOverlay s = snapshot(members(2, "1"), Groups.gang("g", 3).build());

        GroupOutcome o = run(s, profile(reserve));

        assertThat(o.kind()).isEqualTo(GroupOutcome.Kind.WAITING);
        assertThat(o.message()).startsWith("waiting for minCount pods from a gang to appear in scheduling queue");
        assertThat(o.result()).isNull();
        assertThat(s.mark()).isZero();
        assertThat(reserve.log()).isEmpty();
    }

    @Test
    @DisplayName("through the engine with a custom profile: the rejected member's message is reported and reserves balance")
    void throughTheEngine() {
        RecordingReserve first = new RecordingReserve("First");
        RecordingReserve picky = new RecordingReserve("Picky").rejecting("g-1", "no device for g-1");
        DecisionEngine engine = new DecisionEngine(profile(first, picky), EngineConfig.DEFAULT);
        List<Pod> pods = members(3, "1");

        Decision d = engine.decide(new DecisionRequest(new ClusterState(nodes(), pods,
                List.of(Groups.gang("g", 3).build()), List.of(), List.of()), null, new DecisionOptions(true, false)))
                .decisions().get(0);

        assertThat(d.outcome()).isEqualTo(Outcome.Unschedulable);
        assertThat(d.placements()).isEmpty();
        assertThat(d.unschedulablePods()).extracting(PodMessage::message).anyMatch(m -> m.contains("no device for g-1"));
        for (RecordingReserve r : List.of(first, picky)) {
            assertThat(r.unreserved()).as(r.name()).isEqualTo(r.reserved());
            assertThat(r.held()).as(r.name()).isEmpty();
        }
    }
}
