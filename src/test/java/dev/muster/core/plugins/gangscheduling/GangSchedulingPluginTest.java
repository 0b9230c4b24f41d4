package dev.muster.core.plugins.gangscheduling;

import dev.muster.core.framework.Code;
import dev.muster.core.framework.GroupContext;
import dev.muster.core.framework.NodeInfo;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.framework.Status;
import dev.muster.core.model.Node;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodGroup;
import dev.muster.core.model.TaintEffect;
import dev.muster.core.testing.Contexts;
import dev.muster.core.testing.Groups;
import dev.muster.core.testing.TestCluster;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static dev.muster.core.testing.Nodes.node;
import static dev.muster.core.testing.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;

/** GangScheduling on its own: PreEnqueue counts the members that can be placed, Permit counts bound plus placed. */
class GangSchedulingPluginTest {
    private final GangSchedulingPlugin plugin = new GangSchedulingPlugin();
    private final TestCluster cluster = cluster();

    /** Six bound pods b0..b5 on n1 and six unbound ones u0..u5. */
    private static TestCluster cluster() {
        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            pods.add(pod("b" + i).on("n1").build());
            pods.add(pod("u" + i).build());
        }
        return TestCluster.of(List.of(node("n1").allocatable("cpu", "4").build()), pods);
    }

    private PodInfo[] pods(String prefix, int n) {
        PodInfo[] out = new PodInfo[n];
        for (int i = 0; i < n; i++) {
            out[i] = cluster.pod(prefix + i);
        }
        return out;
    }

    /** A context whose bound, pending and gated members are disjoint pods of the cluster. */
    private GroupContext context(PodGroup group, int bound, int pending, int gated) {
        PodInfo[] unbound = pods("u", pending + gated);
        return Contexts.of(group).bound(pods("b", bound)).pending(Arrays.copyOfRange(unbound, 0, pending))
                .gated(Arrays.copyOfRange(unbound, pending, pending + gated)).build();
    }

    @Test
    @DisplayName("PreEnqueue lets a basic group in even with no member to place")
    void basicAlwaysEnqueues() {
        assertThat(plugin.preEnqueue(context(Groups.basic("b").build(), 0, 0, 3))).isEqualTo(Status.SUCCESS);
        assertThat(plugin.preEnqueue(context(Groups.basic("b").build(), 0, 1, 0))).isEqualTo(Status.SUCCESS);
    }

    @ParameterizedTest(name = "minCount {0}, {1} bound + {2} pending + {3} gated: enqueued={4}")
    @CsvSource({
        "3, 0, 3, 0, true",
        "3, 1, 2, 0, true",
        "3, 3, 0, 0, true",
        "3, 0, 4, 1, true",
        "3, 0, 2, 0, false",
        "3, 1, 1, 0, false",
        "3, 0, 2, 2, false",
        "4, 1, 1, 3, false",
    })
    @DisplayName("PreEnqueue lets a gang in only when bound plus pending members reach minCount; gated ones never count")
    void gangNeedsPlaceableMembers(int minCount, int bound, int pending, int gated, boolean enqueued) {
        Status s = plugin.preEnqueue(context(Groups.gang("g", minCount).build(), bound, pending, gated));

        assertThat(s.isSuccess()).isEqualTo(enqueued);
        if (!enqueued) {
            assertThat(s.code()).isEqualTo(Code.UnschedulableAndUnresolvable);
            assertThat(s.plugin()).isEqualTo(GangSchedulingPlugin.NAME);
        }
    }

    @ParameterizedTest(name = "minCount {0}, {1} bound + {2} pending + {3} gated")
    @CsvSource(delimiter = '|', value = {
        "3|0|2|1|2 of 3 needed member(s) can be scheduled (3 exist, 0 bound, 1 gated)",
        "3|1|1|0|2 of 3 needed member(s) can be scheduled (2 exist, 1 bound, 0 gated)",
        "5|2|0|2|2 of 5 needed member(s) can be scheduled (4 exist, 2 bound, 2 gated)",
        "2|0|0|0|0 of 2 needed member(s) can be scheduled (0 exist, 0 bound, 0 gated)",
    })
    @DisplayName("a waiting gang says how many members can be scheduled, exist, are bound and are gated")
    void waitingMessage(int minCount, int bound, int pending, int gated, String counts) {
        Status s = plugin.preEnqueue(context(Groups.gang("g", minCount).build(), bound, pending, gated));

        assertThat(s.message()).isEqualTo(
                "waiting for minCount pods from a gang to appear in scheduling queue: " + counts);
    }

    @ParameterizedTest(name = "minCount {0}, {1} bound, {2} placed in the cycle: {3}")
    @CsvSource({
        "3, 0, 1, Wait",
        "3, 0, 2, Wait",
        "3, 0, 3, Success",
        "3, 1, 1, Wait",
        "3, 1, 2, Success",
        "3, 2, 1, Success",
        "3, 3, 1, Success",
        "1, 0, 1, Success",
    })
    @DisplayName("Permit waits while bound plus placed members are below minCount and succeeds once they reach it")
    void permitCountsBoundMembers(int minCount, int bound, int placed, Code expected) {
        GroupContext group = context(Groups.gang("g", minCount).build(), bound, 3, 0);
        NodeInfo n1 = cluster.node("n1");

        Status s = plugin.permit(group, group.pending().get(0), n1, placed);

        assertThat(s.code()).isEqualTo(expected);
        if (expected == Code.Wait) {
            assertThat(s.message()).isEqualTo(GangSchedulingPlugin.WAITING_FOR_MIN_COUNT)
                    .isEqualTo("waiting for minCount pods from a gang to be scheduled");
            assertThat(s.plugin()).isEqualTo(GangSchedulingPlugin.NAME);
        }
    }

    @Test
    @DisplayName("Permit says Success for every member of a basic group, from the first one placed")
    void basicPermitAlwaysSucceeds() {
        GroupContext group = context(Groups.basic("b").build(), 0, 3, 0);

        for (int placed = 0; placed <= 3; placed++) {
            assertThat(plugin.permit(group, group.pending().get(0), cluster.node("n1"), placed))
                    .as("placed %d", placed).isEqualTo(Status.SUCCESS);
        }
    }

    @Test
    @DisplayName("Sign: a member of a group with minResources is keyed by its group, whose capacity check it gets")
    void signsTheGroupOnlyWhenItHasMinResources() {
        PodGroup plain = Groups.gang("plain", 1).build();
        PodGroup sized = Groups.gang("sized", 1).minResources(Map.of("cpu", 8000L)).build();
        TestCluster c = TestCluster.of(List.of(node("n1").allocatable("cpu", "4").build()),
                List.of(Groups.member(pod("p").build(), "plain"), Groups.member(pod("s").build(), "sized"),
                        pod("alone").build()), List.of(plain, sized), List.of());

        assertThat(plugin.podKey(c.pod("s"), c)).isEqualTo(sized.ref());
        assertThat(plugin.podKey(c.pod("p"), c)).isNull();
        assertThat(plugin.podKey(c.pod("alone"), c)).isNull();
        assertThat(plugin.preFilter(null, c.pod("s"), c).code()).isEqualTo(Code.UnschedulableAndUnresolvable);
        assertThat(plugin.preFilter(null, c.pod("p"), c)).isEqualTo(Status.SUCCESS);
        assertThat(plugin.nodeLocal(c.pod("s"), c)).isTrue();
    }

    /**
     * The capacity check's node reads, one node field changed at a time on a cluster whose free capacity holds the
     * group's minResources exactly: every field the plugin declares can flip the verdict (allocatable, what bound
     * pods request, how many pods a node runs, and which group those pods are in), and no field it leaves out can
     * (labels, taints, schedulability, ports, the name).
     */
    @Test
    @DisplayName("PreFilter's capacity check reads exactly the node fields GangScheduling declares")
    void capacityCheckReadsTheDeclaredNodeFields() {
        Node n1 = node("n1").allocatable("cpu", "5").allocatable("pods", "110").build();
        // n1's 5 cpu less the 1 a bound pod of no group requests, n2's 4; 220 pod slots less 3 bound pods
        List<Pod> bound = List.of(pod("b1").requests("cpu", "1").on("n1").build(), pod("b2").on("n1").build(),
                pod("b3").on("n2").build());
        assertThat(capacityVerdict(n1, bound)).isEqualTo(Code.Success);

        // what it declares
        assertThat(capacityVerdict(node("n1").allocatable("cpu", "4").allocatable("pods", "110").build(), bound))
                .as("ALLOCATABLE").isEqualTo(Code.UnschedulableAndUnresolvable);
        assertThat(capacityVerdict(n1, List.of(pod("b1").requests("cpu", "2").on("n1").build(), bound.get(1),
                bound.get(2)))).as("REQUESTED").isEqualTo(Code.UnschedulableAndUnresolvable);
        List<Pod> more = new ArrayList<>(bound);
        more.add(pod("b4").on("n1").build());
        assertThat(capacityVerdict(n1, more)).as("POD_COUNT").isEqualTo(Code.UnschedulableAndUnresolvable);
        List<Pod> own = new ArrayList<>(more);
        own.set(3, Groups.member(pod("b4").on("n1").build(), "sized"));
        assertThat(capacityVerdict(n1, own)).as("PODS: a member's own group's pods are left out")
                .isEqualTo(Code.Success);

        // what it leaves out
        for (Node changed : List.of(
                node("n1").allocatable("cpu", "5").allocatable("pods", "110").label("zone", "z9").build(),
                node("n1").allocatable("cpu", "5").allocatable("pods", "110")
                        .taint("dedicated", "x", TaintEffect.NoSchedule).build(),
                node("n1").allocatable("cpu", "5").allocatable("pods", "110").unschedulable().build())) {
            assertThat(capacityVerdict(changed, bound)).as(changed.toString()).isEqualTo(Code.Success);
        }
        List<Pod> ported = List.of(pod("b1").requests("cpu", "1").hostPort("", "TCP", 8080).on("n1").build(),
                bound.get(1), bound.get(2));
        assertThat(capacityVerdict(n1, ported)).as("USED_PORTS").isEqualTo(Code.Success);
        Node renamed = node("n9").allocatable("cpu", "5").allocatable("pods", "110").build();
        assertThat(capacityVerdict(renamed, List.of(pod("b1").requests("cpu", "1").on("n9").build(),
                pod("b2").on("n9").build(), bound.get(2)))).as("NAME").isEqualTo(Code.Success);
    }

    /**
     * PreFilter's verdict for a member of a group with minResources of 8 cpu and 217 pods, on {@code first} and a
     * node n2 of 4 cpu and 110 pods, with {@code bound} running.
     */
    private Code capacityVerdict(Node first, List<Pod> bound) {
        PodGroup sized = Groups.gang("sized", 1).minResources(Map.of("cpu", 8000L, "pods", 217L)).build();
        Node n2 = node("n2").allocatable("cpu", "4").allocatable("pods", "110").build();
        List<Pod> pods = new ArrayList<>(bound);
        pods.add(Groups.member(pod("m").build(), "sized"));
        TestCluster c = TestCluster.of(List.of(first, n2), pods, List.of(sized), List.of());
        return plugin.preFilter(null, c.pod("m"), c).code();
    }
}
