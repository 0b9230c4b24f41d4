package dev.muster.wiring;

import org.junit.jupiter.api.Test;

import java.util.Locale;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

class DecisionLogTest {
    @Test
    void engineTimeHasThreeDecimalsRoundedHalfUp() {
        assertThat(DecisionLog.millis(1_204_000)).isEqualTo("1.204");
        assertThat(DecisionLog.millis(5_000)).isEqualTo("0.005");
        assertThat(DecisionLog.millis(40_000)).isEqualTo("0.040");
        assertThat(DecisionLog.millis(999_500)).isEqualTo("1.000");
        assertThat(DecisionLog.millis(999_499)).isEqualTo("0.999");
        assertThat(DecisionLog.millis(0)).isEqualTo("0.000");
        assertThat(DecisionLog.millis(12_345_678_901L)).isEqualTo("12345.679");
    }

    @Test
    void sameTextAsTheFormatterAwayFromTies() {
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 10_000; i++) {
            long nanos = random.nextLong(0, 100_000_000_000L);
            if (nanos % 1000 == 500) {
                continue; // a tie: the formatter rounds the double, which may sit just below it
            }
            assertThat(DecisionLog.millis(nanos)).as("%d ns", nanos)
                    .isEqualTo(String.format(Locale.ROOT, "%.3f", nanos / 1e6));
        }
    }
}
