package dev.muster.wiring;

import dev.muster.core.decision.Decision;
import dev.muster.core.decision.Outcome;
import dev.muster.core.model.GroupRef;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

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

    @Test
    void pastItsBudgetTheLogTellsTheHeldDecisionsInOneLineBeforeTheNextAndWhenFlushed() {
        Logger category = Logger.getLogger(DecisionLog.CATEGORY);
        Level before = category.getLevel();
        category.setLevel(Level.INFO);
        try (LogCapture capture = LogCapture.of(DecisionLog.CATEGORY)) {
            List<String> lines = capture.messages();
            AtomicLong now = new AtomicLong();
            DecisionLog log = new DecisionLog(2, now::get);
            for (int i = 0; i < 5; i++) {
                log.decided(group("g" + i, i == 4 ? Outcome.Unschedulable : Outcome.Scheduled), false, 1_000_000);
                log.finished();
            }
            assertThat(lines).containsExactly(
                    "PodGroup ns/g0: Scheduled, 0/0 members placed, 0 victims, engine 1.000 ms",
                    "PodGroup ns/g1: Scheduled, 0/0 members placed, 0 victims, engine 1.000 ms");
            now.addAndGet(1_000_000_000L);
            log.decided(group("g5", Outcome.Scheduled), false, 2_000_000);
            assertThat(lines).hasSize(4).endsWith(
                    "Decisions: 3 more not logged one by one (2 Scheduled, 1 Unschedulable): over 2 lines a second "
                            + "(muster.log.decisions-per-second)",
                    "PodGroup ns/g5: Scheduled, 0/0 members placed, 0 victims, engine 2.000 ms");
            log.decided(group("g6", Outcome.Scheduled), false, 1_000_000);
            log.decided(group("g7", Outcome.Scheduled), false, 1_000_000);
            log.flush();
            assertThat(lines).hasSize(6).endsWith("Decisions: 1 more not logged one by one (1 Scheduled): over 2 lines "
                    + "a second (muster.log.decisions-per-second)");
            log.flush();
            assertThat(lines).hasSize(6);

            DecisionLog unlimited = new DecisionLog(0, now::get);
            for (int i = 0; i < 101; i++) {
                unlimited.decided(group("u" + i, Outcome.Scheduled), false, 1_000);
            }
            assertThat(lines).hasSize(107); // past the default budget of 100
        } finally {
            category.setLevel(before);
        }
    }

    private static Decision group(String name, Outcome outcome) {
        return new Decision(new GroupRef("ns", name), outcome, List.of(), List.of(), List.of(), List.of(), List.of(),
                List.of(), "", null);
    }
}
