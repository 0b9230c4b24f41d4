package dev.muster.core.plugins.topologyplacement;

import dev.muster.core.framework.Code;
import dev.muster.core.framework.CycleState;
import dev.muster.core.framework.Status;
import dev.muster.core.model.Node;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodGroup;
import dev.muster.core.testing.Groups;
import dev.muster.core.testing.TestCluster;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.muster.core.testing.Groups.member;
import static dev.muster.core.testing.Nodes.node;
import static dev.muster.core.testing.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;

/** TopologySlices on its own: what PreFilter allows for the next member, and that plain groups are skipped. */
class TopologySlicesPluginTest {
    private static final String RACK = "rack";
    private final TopologySlicesPlugin plugin = new TopologySlicesPlugin();

    /** r1: n1 (4 cpu), n2 (4 cpu); r2: n3 (4 cpu); n4 without a rack. Members g-0..g-3 (1 cpu) of {@code group}. */
    private static TestCluster cluster(PodGroup group, String... bound) {
        List<Node> nodes = List.of(
                node("n1").label(RACK, "r1").allocatable("cpu", "4").allocatable("memory", "8Gi").build(),
                node("n2").label(RACK, "r1").allocatable("cpu", "4").allocatable("memory", "8Gi").build(),
                node("n3").label(RACK, "r2").allocatable("cpu", "4").allocatable("memory", "8Gi").build(),
                node("n4").allocatable("cpu", "4").allocatable("memory", "8Gi").build());
        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            var p = pod("g-" + i).requests("cpu", "1");
            if (i < bound.length) {
                p.on(bound[i]);
            }
            pods.add(member(p.build(), group.ref().name()));
        }
        return TestCluster.of(nodes, pods, List.of(group), List.of());
    }

    private static List<String> allowed(TopologySlicesPlugin plugin, TestCluster c, CycleState s, String pod) {
        List<String> out = new ArrayList<>();
        for (String n : List.of("n1", "n2", "n3", "n4")) {
            if (plugin.filter(s, c.pod(pod), c.node(n)).isSuccess()) {
                out.add(n);
            }
        }
        return out;
    }

    @Test
    @DisplayName("a group without slices or Balanced is skipped at PreFilter and signs as node-local")
    void plainGroupsAreSkipped() {
        TestCluster c = cluster(Groups.gang("g", 4).topology(RACK).build());
        assertThat(plugin.preFilter(new CycleState(), c.pod("g-0"), c)).isSameAs(Status.SKIP);
        assertThat(plugin.nodeLocal(c.pod("g-0"), c)).isTrue();
    }

    @Test
    @DisplayName("with a slice open in r1, the next member may only join r1")
    void joinsTheOpenSlice() {
        TestCluster c = cluster(Groups.gang("g", 4).topology(RACK).annotation("muster.dev/slices", RACK + "=4")
                .build(), "n3", "n3");
        CycleState s = new CycleState();
        assertThat(plugin.nodeLocal(c.pod("g-2"), c)).isFalse();
        assertThat(plugin.preFilter(s, c.pod("g-2"), c).isSuccess()).isTrue();
        assertThat(allowed(plugin, c, s, "g-2")).containsExactly("n3");
        assertThat(plugin.filter(s, c.pod("g-2"), c.node("n1")).reasons())
                .containsExactly(TopologySlicesPlugin.OUTSIDE);
    }

    @Test
    @DisplayName("a new slice opens only in a rack with room for all of it, never on a node without the label")
    void opensWhereAWholeSliceFits() {
        // Slices of 5: r1 holds 8 one-cpu members, r2 only 4.
        TestCluster c = cluster(Groups.gang("g", 5).topology(RACK).annotation("muster.dev/slices", RACK + "=5")
                .build());
        CycleState s = new CycleState();
        assertThat(plugin.preFilter(s, c.pod("g-0"), c).isSuccess()).isTrue();
        assertThat(allowed(plugin, c, s, "g-0")).containsExactly("n1", "n2");
    }

    @Test
    @DisplayName("no rack with room for a slice rejects the member at PreFilter, naming the level and size")
    void noRoom() {
        TestCluster c = cluster(Groups.gang("g", 9).topology(RACK).annotation("muster.dev/slices", RACK + "=9")
                .build());
        Status st = plugin.preFilter(new CycleState(), c.pod("g-0"), c);
        assertThat(st.code()).isEqualTo(Code.Unschedulable);
        assertThat(st.message()).isEqualTo("no rack domain has room for a slice of 9 member(s)");
    }
}
