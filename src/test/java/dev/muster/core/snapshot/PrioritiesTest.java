package dev.muster.core.snapshot;

import dev.muster.core.model.ClusterState;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodGroup;
import dev.muster.core.model.PriorityClass;
import dev.muster.core.testing.Groups;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.muster.core.testing.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;

class PrioritiesTest {
    private static final List<PriorityClass> CLASSES = List.of(
            new PriorityClass("low", 10, false, null), new PriorityClass("high", 1000, false, null),
            new PriorityClass("default-b", 50, true, null), new PriorityClass("default-a", 50, true, null),
            new PriorityClass("lesser-default", 5, true, null));

    @Test
    @DisplayName("explicit, then the named class (0 when unknown), then the highest global default, then 0")
    void admissionOrder() {
        Priorities p = new Priorities(CLASSES);

        assertThat(p.resolve(7, "high")).isEqualTo(7);
        assertThat(p.resolve(null, "high")).isEqualTo(1000);
        assertThat(p.resolve(null, "missing")).isZero();
        assertThat(p.resolve(null, null)).isEqualTo(50);
        assertThat(new Priorities(List.of()).resolve(null, "")).isZero();
    }

    @Test
    @DisplayName("a member preempts and is preempted at its PodGroup's priority")
    void groupStandsForMembers() {
        PodGroup g = Groups.gang("g", 1).priority(500).build();
        Pod member = Groups.member(pod("m").build(), "g");
        Pod loner = pod("l").build();
        Priorities p = Priorities.of(new ClusterState(List.of(), List.of(member, loner), List.of(g), CLASSES,
                List.of()));

        assertThat(p.effective(member)).isEqualTo(500);
        assertThat(p.effective(loner)).isEqualTo(50);
    }

    @Test
    @DisplayName("a CompositePodGroup that sets a priority stands for every group of its tree, as the engine compiles it")
    void compositeStandsForItsTree() {
        dev.muster.core.model.CompositePodGroup root = new dev.muster.core.model.CompositePodGroup(
                new dev.muster.core.model.GroupRef("default", "root"), null, false, 0, List.of(), null, "low", null, 0);
        dev.muster.core.model.CompositePodGroup inner = new dev.muster.core.model.CompositePodGroup(
                new dev.muster.core.model.GroupRef("default", "inner"), "root", false, 0, List.of(), null, null, null, 0);
        PodGroup child = Groups.gang("child", 1).priority(500).build().withParentComposite("inner");
        Pod member = Groups.member(pod("m").build(), "child");
        ClusterState state = new ClusterState(List.of(), List.of(member), List.of(child), CLASSES, List.of(),
                List.of(root, inner));

        assertThat(Priorities.of(state).effective(member)).isEqualTo(10);
        assertThat(new ClusterSnapshot(state).groupPriority(child.ref())).isEqualTo(10);
    }
}
