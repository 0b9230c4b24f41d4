package dev.muster.core.snapshot;

import dev.muster.core.decision.DecisionEngine;
import dev.muster.core.decision.DecisionOptions;
import dev.muster.core.decision.DecisionResult;
import dev.muster.core.decision.EngineConfig;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.model.ClusterState;
import dev.muster.core.model.Node;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodGroup;
import dev.muster.core.model.PodRef;
import dev.muster.core.testing.Groups;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.muster.core.testing.Nodes.node;
import static dev.muster.core.testing.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;

/** The compiled snapshot never changes; everything a run does lives in its overlay. */
class SnapshotOverlayTest {
    private static ClusterState cluster() {
        List<Node> nodes = List.of(node("n1").allocatable("cpu", "4").build(),
                node("n2").allocatable("cpu", "4").build());
        List<Pod> pods = new ArrayList<>();
        pods.add(pod("bound").requests("cpu", "1").on("n1").build());
        for (int i = 0; i < 3; i++) {
            pods.add(Groups.member(pod("m" + i).requests("cpu", "2").build(), "g"));
        }
        PodGroup g = Groups.gang("g", 3).build();
        return new ClusterState(nodes, pods, List.of(g), List.of(), List.of());
    }

    @Test
    @DisplayName("an overlay's assumes and evictions are invisible to the snapshot and to a second overlay")
    void overlaysAreIndependent() {
        ClusterSnapshot snapshot = new ClusterSnapshot(cluster());
        SnapshotOverlay first = snapshot.overlay();
        PodInfo m0 = first.pod(new PodRef("default", "m0"));
        PodInfo bound = first.pod(new PodRef("default", "bound"));

        first.assume(m0, 1);
        first.forget(bound, 0);

        assertThat(first.node(1).pods()).containsExactly(m0);
        assertThat(first.node(0).pods()).isEmpty();
        assertThat(first.isOnNode(m0)).isTrue();
        SnapshotOverlay second = snapshot.overlay();
        assertThat(second.node(1).pods()).isEmpty();
        assertThat(second.node(0).pods()).containsExactly(bound);
        assertThat(second.node(0).requested(snapshot.resources().indexOf("cpu"))).isEqualTo(1000);
        assertThat(second.isOnNode(m0)).isFalse();
        assertThat(second.isOnNode(bound)).isTrue();
        assertThat(second.changeCount()).isZero();
    }

    @Test
    @DisplayName("rolling an overlay back to a mark restores nodes, versions move on")
    void rollbackRestores() {
        SnapshotOverlay run = new ClusterSnapshot(cluster()).overlay();
        PodInfo m1 = run.pod(new PodRef("default", "m1"));
        int mark = run.mark();
        int version = run.nodeVersion(0);

        run.assume(m1, 0);
        run.rollbackTo(mark);

        assertThat(run.node(0).pods()).extracting(p -> p.ref().name()).containsExactly("bound");
        assertThat(run.isOnNode(m1)).isFalse();
        assertThat(run.nodeVersion(0)).isGreaterThan(version);
        assertThat(run.changeCount()).isEqualTo(2); // the assume and its undo
    }

    @Test
    @DisplayName("one compiled snapshot decided twice gives the same result, without rolling anything back")
    void decidingTwiceIsTheSame() {
        ClusterSnapshot snapshot = new ClusterSnapshot(cluster());
        DecisionEngine engine = new DecisionEngine(EngineConfig.DEFAULT);

        DecisionResult a = engine.decide(snapshot, null, DecisionOptions.DEFAULT, () -> false);
        DecisionResult b = engine.decide(snapshot, null, DecisionOptions.DEFAULT, () -> false);

        assertThat(a.decisions().get(0).placements()).hasSize(3);
        assertThat(b).isEqualTo(a);
    }

    @Test
    @DisplayName("a DRA catalog built apart must be the catalog of the snapshot's own DRA objects, and is asked for only when needed")
    void aCatalogBuiltApartMustBeOfTheSameObjects() {
        dev.muster.core.dra.DraObjects dra = new dev.muster.core.dra.DraObjects(List.of(), List.of(), List.of(),
                List.of(new dev.muster.core.dra.ResourceClaimTemplate("default", "t",
                        new dev.muster.core.dra.ResourceClaimSpec(List.of(), List.of(), List.of()))));
        dev.muster.core.dra.DraObjects equal = new dev.muster.core.dra.DraObjects(List.of(), List.of(), List.of(),
                dra.resourceClaimTemplates());
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new ClusterSnapshot(cluster(), dra,
                        () -> new dev.muster.core.dra.ClaimCatalog(equal)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("other DRA objects");
        assertThat(new ClusterSnapshot(cluster(), dra, () -> new dev.muster.core.dra.ClaimCatalog(dra).warm())
                .claimCatalog()).isNotNull();
        assertThat(new ClusterSnapshot(cluster(), dev.muster.core.dra.DraObjects.NONE, () -> {
            throw new AssertionError("no DRA objects and no pod using devices: no catalog asked for");
        }).claimCatalog()).isNull();
    }

    @Test
    @DisplayName("the changes since a mark are recognised as exactly some pods assumed in order, and nothing else")
    void assumedExactlyNamesTheAssumesSinceAMarkInOrder() {
        SnapshotOverlay o = new ClusterSnapshot(cluster()).overlay();
        PodInfo m0 = o.pod(new PodRef("default", "m0"));
        PodInfo m1 = o.pod(new PodRef("default", "m1"));
        PodInfo bound = o.pod(new PodRef("default", "bound"));
        o.assume(m0, 0); // before the mark: not asked about
        int mark = o.mark();
        o.assume(m1, 1);
        o.recordUndo(() -> { }); // what a plugin reserved beside the member does not count
        assertThat(o.assumedExactly(mark, new PodInfo[] {m1}, new int[] {1})).isTrue();
        assertThat(o.assumedExactly(mark, new PodInfo[] {m1}, new int[] {0})).as("another node").isFalse();
        assertThat(o.assumedExactly(mark, new PodInfo[] {m0}, new int[] {1})).as("another pod").isFalse();
        assertThat(o.assumedExactly(mark, new PodInfo[0], new int[0])).as("fewer").isFalse();
        assertThat(o.assumedExactly(0, new PodInfo[] {m1, m0}, new int[] {1, 0})).as("another order").isFalse();
        assertThat(o.assumedExactly(0, new PodInfo[] {m0, m1}, new int[] {0, 1})).isTrue();
        o.forget(bound, 0);
        assertThat(o.assumedExactly(mark, new PodInfo[] {m1}, new int[] {1})).as("a pod taken off").isFalse();
        o.rollbackTo(mark);
        assertThat(o.assumedExactly(mark, new PodInfo[0], new int[0])).isTrue();
    }
}
