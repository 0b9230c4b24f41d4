package dev.muster.core.model;

import dev.muster.core.testing.Groups;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static dev.muster.core.testing.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;

class DisruptionTest {
    @Test
    @DisplayName("only a strictly lower priority may be preempted")
    void strictlyLower() {
        assertThat(Disruption.eligible(9, 10)).isTrue();
        assertThat(Disruption.eligible(10, 10)).isFalse();
        assertThat(Disruption.eligible(11, 10)).isFalse();
    }

    @Test
    @DisplayName("a disruptionMode PodGroup member goes only with every running member of its group")
    void wholeGroup() {
        PodGroup all = Groups.gang("g", 2).disruptionMode(DisruptionMode.PodGroup).build();
        PodGroup single = Groups.gang("s", 2).build();
        Pod a = pod("a").on("n1").build();
        Pod b = pod("b").on("n2").build();

        assertThat(Disruption.wholeGroup(all)).isTrue();
        assertThat(Disruption.wholeGroup(single)).isFalse();
        assertThat(Disruption.wholeGroup(null)).isFalse();
        assertThat(Disruption.respectsGroup(all, List.of(a, b), Set.of(a.ref()))).isFalse();
        assertThat(Disruption.respectsGroup(all, List.of(a, b), Set.of(a.ref(), b.ref()))).isTrue();
        assertThat(Disruption.respectsGroup(single, List.of(a, b), Set.of(a.ref()))).isTrue();
    }

    @Test
    @DisplayName("the highest composite with disruptionMode PodGroup above a group takes its whole tree")
    void evictedWithTheTree() {
        GroupRef root = new GroupRef("default", "root");
        GroupRef inner = new GroupRef("default", "inner");
        java.util.Map<GroupRef, CompositePodGroup> composites = java.util.Map.of(
                root, new CompositePodGroup(root, null, false, 0, List.of(), DisruptionMode.PodGroup, null, null, 0),
                inner, new CompositePodGroup(inner, "root", false, 0, List.of(), DisruptionMode.PodGroup, null, null,
                        0));
        PodGroup child = Groups.gang("c", 1).build().withParentComposite("inner");
        java.util.Map<GroupRef, CompositePodGroup> podOnly = java.util.Map.of(
                root, new CompositePodGroup(root, null, false, 0, List.of(), null, null, null, 0),
                inner, new CompositePodGroup(inner, "root", false, 0, List.of(), null, null, null, 0));

        assertThat(Disruption.evictedWith(child, composites)).isEqualTo(root);
        assertThat(Disruption.evictedWith(child, podOnly)).isNull();
        assertThat(Disruption.evictedWith(Groups.gang("alone", 1).build(), composites)).isNull();
    }
}
