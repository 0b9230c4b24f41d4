package dev.muster.core.plugins.topologyplacement;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Kueue's balanced placement over one level (its KEP's examples where they apply to one level). */
class BalancedPlanTest {

    @Test
    @DisplayName("25 members over two domains of 15 take 13 and 12")
    void evenSplit() {
        BalancedPlan p = BalancedPlan.of(new long[]{15, 15}, 25);
        assertThat(p.quota()).containsExactly(13, 12);
        assertThat(p.threshold()).isEqualTo(12);
        assertThat(p.domains()).isEqualTo(2);
    }

    @Test
    @DisplayName("23 members over 15, 13 and 10 take 12 and 11 and leave the smallest out")
    void fewestDomains() {
        assertThat(BalancedPlan.of(new long[]{15, 13, 10}, 23).quota()).containsExactly(12, 11, 0);
    }

    @Test
    @DisplayName("a request one domain holds goes to that domain whole")
    void oneDomain() {
        BalancedPlan p = BalancedPlan.of(new long[]{20, 10}, 20);
        assertThat(p.quota()).containsExactly(20, 0);
        assertThat(p.domains()).isEqualTo(1);
    }

    @Test
    @DisplayName("12 members over two domains of 10 take 6 and 6, not the greedy 10 and 2")
    void balancedNotGreedy() {
        assertThat(BalancedPlan.of(new long[]{10, 10}, 12).quota()).containsExactly(6, 6);
    }

    @Test
    @DisplayName("of the sets of the fewest domains that hold the request, the one with the least room is chosen")
    void tightestSet() {
        // Two domains are needed (9 + 8); T = min(14 / 2, 8) = 7 leaves out 5; of {9, 8}, {9, 7}, {8, 7} the
        // tightest holding 14 is {8, 7}.
        assertThat(BalancedPlan.of(new long[]{9, 8, 7, 5}, 14).quota()).containsExactly(0, 7, 7, 0);
    }

    @Test
    @DisplayName("the threshold is capped by the room of the last domain the greedy count needs")
    void thresholdCappedByRoom() {
        // 3 domains needed (10 + 10 + 2 >= 21); T = min(21 / 3, 2) = 2; extras go to the largest first.
        BalancedPlan p = BalancedPlan.of(new long[]{10, 10, 2}, 21);
        assertThat(p.threshold()).isEqualTo(2);
        assertThat(p.quota()).containsExactly(10, 9, 2);
    }

    @Test
    @DisplayName("no plan when the domains do not hold the request together, or nothing is requested")
    void noPlan() {
        assertThat(BalancedPlan.of(new long[]{3, 4}, 8)).isNull();
        assertThat(BalancedPlan.of(new long[]{3, 4}, 0)).isNull();
        assertThat(BalancedPlan.of(new long[]{}, 1)).isNull();
    }

    @Test
    @DisplayName("past the search bound the largest domains are taken, still balanced")
    void boundedSearch() {
        long[] room = new long[3000];
        java.util.Arrays.fill(room, 100);
        BalancedPlan p = BalancedPlan.of(room, 1000);
        assertThat(p.domains()).isEqualTo(10);
        assertThat(java.util.Arrays.stream(p.quota()).filter(q -> q > 0)).hasSize(10).allMatch(q -> q == 100);
    }
}
