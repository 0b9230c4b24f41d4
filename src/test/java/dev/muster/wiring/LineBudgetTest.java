package dev.muster.wiring;

import dev.muster.core.decision.Outcome;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LineBudgetTest {
    private final AtomicLong now = new AtomicLong(5_000_000_000L);

    @Test
    void linesPastTheBudgetAreHeldAndToldBeforeTheFirstLineOfTheNextSecond() {
        LineBudget budget = new LineBudget(3, now::get);
        for (int i = 0; i < 3; i++) {
            assertThat(budget.admit(Outcome.Scheduled, 1)).isSameAs(LineBudget.Admission.WRITE);
        }
        assertThat(budget.admit(Outcome.Scheduled, 1)).isSameAs(LineBudget.Admission.HOLD);
        assertThat(budget.admit(Outcome.Unschedulable, 1)).isSameAs(LineBudget.Admission.HOLD);
        now.addAndGet(999_999_999L); // still the same second
        assertThat(budget.admit(Outcome.Scheduled, 1)).isSameAs(LineBudget.Admission.HOLD);

        now.addAndGet(1);
        LineBudget.Admission next = budget.admit(Outcome.Preempting, 1);
        assertThat(next.write()).isTrue();
        assertThat(next.held()).isEqualTo("Decisions: 3 more not logged one by one (2 Scheduled, 1 Unschedulable): "
                + "over 3 lines a second (muster.log.decisions-per-second)");
        // told once: the new second starts with nothing held
        assertThat(budget.takeHeld()).isNull();
        assertThat(budget.admit(Outcome.Scheduled, 1)).isSameAs(LineBudget.Admission.WRITE);
    }

    @Test
    void aLineThatStandsForManyDecisionsIsHeldAsThatMany() {
        LineBudget budget = new LineBudget(1, now::get);
        assertThat(budget.admit(Outcome.Unschedulable, 1).write()).isTrue();
        assertThat(budget.admit(Outcome.Scheduled, 9_999).write()).isFalse();
        assertThat(budget.takeHeld()).isEqualTo("Decisions: 9999 more not logged one by one (9999 Scheduled): over 1 "
                + "line a second (muster.log.decisions-per-second)");
        assertThat(budget.takeHeld()).isNull();
    }

    @Test
    void aQuietSecondWritesEveryLine() {
        LineBudget budget = new LineBudget(2, now::get);
        for (int second = 0; second < 5; second++) {
            assertThat(budget.admit(Outcome.Scheduled, 1)).isSameAs(LineBudget.Admission.WRITE);
            assertThat(budget.admit(Outcome.Scheduled, 1)).isSameAs(LineBudget.Admission.WRITE);
            now.addAndGet(1_500_000_000L);
        }
        assertThat(budget.takeHeld()).isNull();
    }

    @Test
    void threadsAtOnceNeverWriteMoreThanTheBudgetAndLoseNoDecision() throws Exception {
        LineBudget budget = new LineBudget(50, now::get); // the clock stands still: one second
        int threads = 4;
        int each = 2_000;
        long[][] written = new long[threads][2]; // per thread: Scheduled, Unschedulable lines written
        List<Thread> started = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int me = t;
            Thread th = new Thread(() -> {
                for (int i = 0; i < each; i++) {
                    if (budget.admit(i % 2 == 0 ? Outcome.Scheduled : Outcome.Unschedulable, 1).write()) {
                        written[me][i % 2]++;
                    }
                }
            });
            th.start();
            started.add(th);
        }
        for (Thread th : started) {
            th.join();
        }
        long scheduled = 0;
        long unschedulable = 0;
        for (long[] w : written) {
            scheduled += w[0];
            unschedulable += w[1];
        }
        assertThat(scheduled + unschedulable).isEqualTo(50);
        long half = threads * each / 2;
        assertThat(budget.takeHeld()).isEqualTo("Decisions: " + (threads * each - 50) + " more not logged one by one ("
                + (half - scheduled) + " Scheduled, " + (half - unschedulable) + " Unschedulable): over 50 lines a "
                + "second (muster.log.decisions-per-second)");
    }

    @Test
    void aBudgetBelowOneLineIsRefused() {
        assertThatThrownBy(() -> new LineBudget(0, now::get)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("perSecond");
    }
}
