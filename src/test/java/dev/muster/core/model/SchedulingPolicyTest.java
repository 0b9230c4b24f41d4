package dev.muster.core.model;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SchedulingPolicyTest {
    @Test
    void aGangHoldsFromMinCountRunningMembersAndNeedsTheRest() {
        SchedulingPolicy g = SchedulingPolicy.gang(4);
        assertThat(g.holds(3)).isFalse();
        assertThat(g.holds(4)).isTrue();
        assertThat(g.holds(5)).isTrue();
        assertThat(g.needed(1)).isEqualTo(3);
        assertThat(g.needed(6)).isZero();
    }

    @Test
    void aBasicGroupHoldsWithOneRunningMemberAndPlacesOneAtATime() {
        assertThat(SchedulingPolicy.BASIC.holds(0)).isFalse();
        assertThat(SchedulingPolicy.BASIC.holds(1)).isTrue();
        assertThat(SchedulingPolicy.BASIC.needed(0)).isEqualTo(1);
        assertThat(SchedulingPolicy.BASIC.needed(5)).isEqualTo(1);
    }
}
