package dev.muster.core.plugins.gangscheduling;

import dev.muster.core.decision.Decision;
import dev.muster.core.decision.DecisionEngine;
import dev.muster.core.decision.DecisionOptions;
import dev.muster.core.decision.DecisionRequest;
import dev.muster.core.decision.EngineConfig;
import dev.muster.core.decision.Outcome;
import dev.muster.core.decision.PodMessage;
import dev.muster.core.framework.Code;
import dev.muster.core.framework.GroupContext;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.framework.Status;
import dev.muster.core.model.ClusterState;
import dev.muster.core.model.Node;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodGroup;
import dev.muster.core.testing.Contexts;
import dev.muster.core.testing.Groups;
import dev.muster.core.testing.TestCluster;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.muster.core.testing.Groups.created;
import static dev.muster.core.testing.Groups.gated;
import static dev.muster.core.testing.Groups.member;
import static dev.muster.core.testing.Groups.withRole;
import static dev.muster.core.testing.Nodes.node;
import static dev.muster.core.testing.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;

/** Per-role minimums of a gang: PreEnqueue and Permit count members per role, the cycle and the message follow. */
class RoleMinimumsRuleTest {
    private final GangSchedulingPlugin plugin = new GangSchedulingPlugin();
    private final DecisionEngine engine = new DecisionEngine(EngineConfig.DEFAULT);

    private static Pod leader(String name) {
        return withRole(member(pod(name).requests("cpu", "1").build(), "g"), "leader");
    }

    private static Pod worker(String name) {
        return withRole(member(pod(name).requests("cpu", "1").build(), "g"), "worker");
    }

    private static PodGroup gang(int minCount) {
        return Groups.gang("g", minCount).minPerRole("leader", 1).minPerRole("worker", 2).build();
    }

    @Test
    @DisplayName("Permit waits, naming the role, while minCount holds but a role is short, and succeeds once it holds")
    void permitCountsEachRole() {
        TestCluster cluster = TestCluster.of(List.of(node("n1").allocatable("cpu", "8").build()),
                List.of(leader("l"), worker("w0"), worker("w1"), worker("w2")));
        PodInfo l = cluster.pod("l");
        PodInfo w0 = cluster.pod("w0");
        PodInfo w1 = cluster.pod("w1");
        PodInfo w2 = cluster.pod("w2");
        GroupContext ctx = Contexts.of(gang(3)).pending(l, w0, w1, w2).build();

        ctx.roles().add(w0.pod());
        ctx.roles().add(w1.pod());
        assertThat(plugin.permit(ctx, w1, null, 2).message()).isEqualTo(GangSchedulingPlugin.WAITING_FOR_MIN_COUNT);
        ctx.roles().add(w2.pod());
        Status short3 = plugin.permit(ctx, w2, null, 3);
        assertThat(short3.code()).isEqualTo(Code.Wait);
        assertThat(short3.message())
                .isEqualTo("waiting for pods of role \"leader\" from a gang to be scheduled: 0 of 1 needed");
        ctx.roles().add(l.pod());
        assertThat(plugin.permit(ctx, l, null, 4)).isEqualTo(Status.SUCCESS);
        ctx.roles().remove(w2.pod());
        ctx.roles().remove(w1.pod());
        assertThat(plugin.permit(ctx, l, null, 4).message())
                .isEqualTo("waiting for pods of role \"worker\" from a gang to be scheduled: 1 of 2 needed");
    }

    @Test
    @DisplayName("PreEnqueue holds a gang whose role has fewer schedulable members than its minimum; gated ones do not count")
    void preEnqueueNeedsEachRole() {
        TestCluster cluster = TestCluster.of(List.of(node("n1").allocatable("cpu", "8").build()),
                List.of(gated(leader("l"), "wait"), worker("w0"), worker("w1"), worker("w2")));
        GroupContext ctx = Contexts.of(gang(3)).pending(cluster.pod("w0"), cluster.pod("w1"), cluster.pod("w2"))
                .gated(cluster.pod("l")).build();

        Status s = plugin.preEnqueue(ctx);

        assertThat(s.code()).isEqualTo(Code.UnschedulableAndUnresolvable);
        assertThat(s.message()).isEqualTo("waiting for pods of role \"leader\" from a gang to appear in scheduling "
                + "queue: 0 of 1 needed member(s) can be scheduled (1 exist, 0 bound, 1 gated)");
        GroupContext noLeader = Contexts.of(gang(3)).pending(cluster.pod("w0"), cluster.pod("w1"), cluster.pod("w2"))
                .build();
        assertThat(plugin.preEnqueue(Contexts.of(Groups.gang("g", 3).build())
                .pending(cluster.pod("w0"), cluster.pod("w1"), cluster.pod("w2")).build())).isEqualTo(Status.SUCCESS);
        assertThat(plugin.preEnqueue(noLeader).isSuccess()).isFalse();
    }

    private Decision decide(List<Node> nodes, List<Pod> pods, PodGroup group) {
        return engine.decide(new DecisionRequest(new ClusterState(nodes, pods, List.of(group), List.of(), List.of()),
                null, new DecisionOptions(false, false))).decisions().get(0);
    }

    @Test
    @DisplayName("a leader that fits nowhere leaves the gang unschedulable though the workers reach minCount")
    void aShortRoleIsNamed() {
        List<Pod> pods = new ArrayList<>(List.of(withRole(member(pod("l").requests("cpu", "8").build(), "g"),
                "leader")));
        for (int i = 0; i < 4; i++) {
            pods.add(worker("w" + i));
        }
        PodGroup group = Groups.gang("g", 4).minPerRole("leader", 1).build();

        Decision d = decide(List.of(node("n1").allocatable("cpu", "4").build()), pods, group);

        assertThat(d.outcome()).isEqualTo(Outcome.Unschedulable);
        assertThat(d.message()).isEqualTo("waiting for pods of role \"leader\" from a gang to be scheduled: 0 of 1 "
                + "needed. 0/1 nodes are available: 1 Insufficient cpu.");
        assertThat(d.unschedulablePods()).extracting(PodMessage::message).containsOnly(
                "0/1 nodes are available: 1 Insufficient cpu.",
                "waiting for pods of role \"leader\" from a gang to be scheduled: 0 of 1 needed");
        Decision without = decide(List.of(node("n1").allocatable("cpu", "4").build()), pods,
                Groups.gang("g", 4).build());
        assertThat(without.outcome()).isEqualTo(Outcome.Scheduled);
    }

    @Test
    @DisplayName("when the workers come first and fill the node, the search makes room for the leader")
    void theSearchPlacesTheShortRole() {
        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            pods.add(created(worker("w" + i), 100 + i));
        }
        pods.add(created(leader("l"), 200));

        Decision d = decide(List.of(node("n1").allocatable("cpu", "4").build()), pods,
                Groups.gang("g", 4).minPerRole("leader", 1).build());

        assertThat(d.outcome()).isEqualTo(Outcome.Scheduled);
        assertThat(d.placements()).hasSize(4).anyMatch(a -> a.pod().name().equals("l"));
        assertThat(d.unschedulablePods()).hasSize(1);
    }

    @Test
    @DisplayName("a bound leader counts toward its role's minimum")
    void boundMembersCount() {
        List<Pod> pods = new ArrayList<>(List.of(withRole(member(pod("l").requests("cpu", "1").on("n1").build(),
                "g"), "leader")));
        for (int i = 0; i < 3; i++) {
            pods.add(worker("w" + i));
        }

        Decision d = decide(List.of(node("n1").allocatable("cpu", "4").build()), pods,
                Groups.gang("g", 4).minPerRole("leader", 1).minPerRole("worker", 3).build());

        assertThat(d.outcome()).isEqualTo(Outcome.Scheduled);
        assertThat(d.placements()).hasSize(3);
    }

    @Test
    @DisplayName("a role no member has keeps the gang waiting for members")
    void anAbsentRoleWaits() {
        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            pods.add(worker("w" + i));
        }

        Decision d = decide(List.of(node("n1").allocatable("cpu", "4").build()), pods,
                Groups.gang("g", 2).minPerRole("ps", 1).build());

        assertThat(d.outcome()).isEqualTo(Outcome.WaitingForMembers);
        assertThat(d.message()).startsWith("waiting for pods of role \"ps\" from a gang to appear in scheduling queue");
    }
}
