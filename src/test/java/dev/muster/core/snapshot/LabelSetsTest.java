package dev.muster.core.snapshot;

import dev.muster.core.dra.DraObjects;
import dev.muster.core.model.ClusterState;
import dev.muster.core.model.Node;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.muster.core.testing.Nodes.node;
import static org.assertj.core.api.Assertions.assertThat;

class LabelSetsTest {
    private static final String HOST = LabelSets.HOSTNAME;
    private static final String RACK = "topology.kubernetes.io/rack";

    private static Node n(String name, String rack, boolean host) {
        var b = node(name).label(RACK, rack).allocatable("cpu", "4");
        if (host) {
            b.label(HOST, name);
        }
        return b.build();
    }

    private static ClusterSnapshot snapshot(List<Node> nodes) {
        return new ClusterSnapshot(new ClusterState(new ArrayList<>(nodes), List.of(), List.of(), List.of(),
                List.of()), DraObjects.NONE);
    }

    @Test
    void nodesShareANumberExactlyWhenTheirLabelSetsAreEqual() {
        // index order is name order: a1, a2, b1, c1, c2
        ClusterSnapshot s = snapshot(List.of(n("a1", "r1", true), n("a2", "r1", true), n("b1", "r2", true),
                n("c1", "r1", false), n("c2", "r1", false)));
        LabelSets l = s.labelSets();
        // with the hostname every labelled node differs
        assertThat(l.all(0)).isNotEqualTo(l.all(1));
        // without it, a1 and a2 are alike, b1 is in another rack
        assertThat(l.sansHost(0)).isEqualTo(l.sansHost(1));
        assertThat(l.sansHost(0)).isNotEqualTo(l.sansHost(2));
        // nodes without a hostname label: equal sets share a number, and equal a labelled node's set sans host
        assertThat(l.all(3)).isEqualTo(l.all(4));
        assertThat(l.sansHost(3)).isEqualTo(l.all(3));
        assertThat(l.sansHost(0)).isEqualTo(l.all(3));
        assertThat(l.count()).isEqualTo(5); // a1, a2, b1 whole; {r1}; {r2}
    }

    @Test
    void derivedSnapshotsKeepTheNumbersWhileLabelsStayAndNumberAgainWhenTheyChange() {
        List<Node> nodes = new ArrayList<>(List.of(n("a1", "r1", true), n("a2", "r1", true)));
        ClusterSnapshot first = snapshot(nodes);
        LabelSets numbered = first.labelSets();
        // a node object replaced with the same labels (say, other allocatable): the numbering is handed on
        nodes.set(1, node("a2").label(RACK, "r1").label(HOST, "a2").allocatable("cpu", "8").build());
        ClusterSnapshot same = ClusterSnapshot.next(first, new ClusterState(new ArrayList<>(nodes), List.of(),
                List.of(), List.of(), List.of()), DraObjects.NONE);
        assertThat(same.labelSets()).isSameAs(numbered);
        // a2 moves to another rack: numbered again, and no longer alike a1
        nodes.set(1, n("a2", "r2", true));
        ClusterSnapshot moved = ClusterSnapshot.next(same, new ClusterState(new ArrayList<>(nodes), List.of(),
                List.of(), List.of(), List.of()), DraObjects.NONE);
        assertThat(moved.labelSets()).isNotSameAs(numbered);
        assertThat(moved.labelSets().sansHost(0)).isNotEqualTo(moved.labelSets().sansHost(1));
        assertThat(numbered.sansHost(0)).isEqualTo(numbered.sansHost(1));
    }
}
