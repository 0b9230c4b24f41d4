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
}
