package dev.muster.core.framework;

import dev.muster.core.model.ClusterState;
import dev.muster.core.model.TaintEffect;
import dev.muster.core.snapshot.ClusterSnapshot;
import dev.muster.core.snapshot.NodeLooks;
import org.junit.jupiter.api.Test;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import static dev.muster.core.testing.Nodes.node;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * How the runtime derives the node fields node looks compare from what the plugins declare they read
 * ({@link Plugin#nodeFields}, {@link SignPlugin#nodeKeyFields}), and how looks over those fields tell nodes apart.
 */
class LookedNodeFieldsTest {

    /** A Filter that reads what it is told of nodes, and keys what it is told (a SignPlugin answering node-local). */
    private record Reader(String name, Set<NodeField> nodeFields, Set<NodeField> nodeKeyFields)
            implements FilterPlugin, SignPlugin {
        Reader(String name, Set<NodeField> reads) {
            this(name, reads, Set.of());
        }

        @Override
        public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
            return Status.SUCCESS;
        }

        @Override
        public boolean nodeLocal(PodInfo pod, ClusterView cluster) {
            return true;
        }
    }

    /** A Filter that declares nothing. */
    private static final class Undeclared implements FilterPlugin {
        @Override
        public String name() {
            return "Undeclared";
        }

        @Override
        public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
            return Status.SUCCESS;
        }
    }

    private static Set<NodeField> looked(Plugin... plugins) {
        Profile.Builder b = Profile.builder();
        for (Plugin p : plugins) {
            b.add(p);
        }
        return new FrameworkRuntime(b.build()).lookedNodeFields();
    }

    @Test
    void looksCompareWhatThePluginsRead() {
        assertThat(looked(new Reader("A", Set.of(NodeField.TAINTS)),
                new Reader("B", Set.of(NodeField.ALLOCATABLE, NodeField.TAINTS))))
                .containsExactlyInAnyOrder(NodeField.TAINTS, NodeField.ALLOCATABLE);
        assertThat(looked()).isEmpty();
    }

    @Test
    void aFieldAPluginKeysIsLeftOutUnlessAnotherPluginReadsItPlainly() {
        Reader keysLabels = new Reader("Keyed", Set.of(NodeField.TAINTS, NodeField.LABELS), Set.of(NodeField.LABELS));
        assertThat(looked(keysLabels)).containsExactly(NodeField.TAINTS);
        assertThat(looked(keysLabels, new Reader("Plain", Set.of(NodeField.LABELS))))
                .containsExactlyInAnyOrder(NodeField.TAINTS, NodeField.LABELS);
    }

    @Test
    void aPluginThatDeclaresNothingReadsEveryFieldSoNoTwoNodesLookAlike() {
        Set<NodeField> fields = looked(new Reader("A", Set.of(NodeField.TAINTS)), new Undeclared());
        assertThat(fields).isEqualTo(NodeField.ALL);
        ClusterSnapshot s = new ClusterSnapshot(twins());
        NodeLooks all = s.nodeLooks(fields);
        assertThat(all.look(0)).isNotEqualTo(all.look(1));
        NodeLooks sansName = s.nodeLooks(EnumSet.complementOf(EnumSet.of(NodeField.NAME)));
        assertThat(sansName.look(0)).isEqualTo(sansName.look(1));
    }

    @Test
    void aPluginMayKeyOnlyFieldsItReads() {
        Reader wrong = new Reader("Wrong", Set.of(NodeField.TAINTS), Set.of(NodeField.LABELS));
        assertThatThrownBy(() -> looked(wrong)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Wrong");
    }

    @Test
    void looksCompareOnlyTheirFieldsAndAreWorkedOutOncePerFieldSet() {
        ClusterSnapshot s = new ClusterSnapshot(new ClusterState(List.of(
                node("a").allocatable("cpu", "4").taint("k", "v", TaintEffect.NoSchedule).build(),
                node("b").allocatable("cpu", "4").build()), List.of(), List.of(), List.of(), List.of()));
        NodeLooks resources = s.nodeLooks(EnumSet.of(NodeField.ALLOCATABLE, NodeField.REQUESTED));
        assertThat(resources.look(0)).isSameAs(resources.look(1));
        NodeLooks taints = s.nodeLooks(Set.of(NodeField.TAINTS, NodeField.ALLOCATABLE));
        assertThat(taints.look(0)).isNotEqualTo(taints.look(1));
        assertThat(s.nodeLooks(EnumSet.of(NodeField.REQUESTED, NodeField.ALLOCATABLE))).isSameAs(resources);
    }

    private static ClusterState twins() {
        return new ClusterState(List.of(node("a").allocatable("cpu", "4").label("zone", "z").build(),
                node("b").allocatable("cpu", "4").label("zone", "z").build()), List.of(), List.of(), List.of(),
                List.of());
    }
}
