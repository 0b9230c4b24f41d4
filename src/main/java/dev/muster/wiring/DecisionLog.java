package dev.muster.wiring;

import dev.muster.core.decision.Decision;
import dev.muster.core.decision.DecisionObserver;
import dev.muster.core.decision.Outcome;
import dev.muster.core.model.GroupRef;
import org.jboss.logging.Logger;

import java.util.function.LongSupplier;

/**
 * One INFO line per PodGroup decision (category {@code dev.muster.decisions}), switched by
 * {@code muster.log.decisions} (default on):
 * {@code PodGroup team-a/train: Scheduled, 4/4 members placed, 0 victims, engine 1.204 ms}. Plain pods: one line per
 * pod not scheduled ({@code Pod batch/infer-1: Unschedulable, 0 victims, engine 0.013 ms}), and the scheduled ones of a
 * run summed up in one line ({@code Pods: 10000 Scheduled, engine 85.120 ms in all}), each of them at DEBUG: a request
 * deciding a queue of 10,000 pending pods writes one line for those that went well, not 10,000.
 *
 * <p>At most {@code muster.log.decisions-per-second} INFO lines a second ({@link LineBudget}); the decisions past it are
 * told in one line, {@code Decisions: 4812 more not logged one by one (4700 Scheduled, 112 Unschedulable): ...},
 * written before the next line that is, by {@link #flush} (every second in the service) or when the service stops.
 * Errors are always written.
 */
public final class DecisionLog implements DecisionObserver {
    /** The log category ({@code quarkus.log.category."dev.muster.decisions".level=WARN} also silences the lines). */
    public static final String CATEGORY = "dev.muster.decisions";
    private static final Logger LOG = Logger.getLogger(CATEGORY);

    /** The run's plain pods scheduled so far, on this thread (a run decides on one thread). */
    private final ThreadLocal<long[]> scheduledPods = ThreadLocal.withInitial(() -> new long[2]);
    private final LineBudget budget;

    /** @param perSecond INFO lines a second at most (0: no limit) */
    public DecisionLog(int perSecond) {
        this(perSecond, System::nanoTime);
    }

    DecisionLog(int perSecond, LongSupplier nanoClock) {
        this.budget = perSecond == 0 ? null : new LineBudget(perSecond, nanoClock);
    }

    @Override
    public void decided(Decision d, boolean preemptionAttempted, long nanos) {
        if (!LOG.isInfoEnabled()) {
            return;
        }
        if (d.isPlainPod() && d.outcome() == Outcome.Scheduled) {
            long[] tally = scheduledPods.get();
            tally[0]++;
            tally[1] += Math.max(nanos, 0);
            if (LOG.isDebugEnabled()) {
                LOG.debug(line(d, nanos));
            }
            return;
        }
        if (admitted(d.outcome(), 1)) {
            LOG.info(line(d, nanos));
        }
    }

    @Override
    public void finished() {
        long[] tally = scheduledPods.get();
        if (tally[0] > 0 && admitted(Outcome.Scheduled, tally[0])) {
            LOG.info(summary(tally[0], tally[1]));
        }
        tally[0] = 0;
        tally[1] = 0;
    }

    /** Whether the budget lets a line for these decisions be written; writes the line of those held back first. */
    private boolean admitted(Outcome outcome, long decisions) {
        if (budget == null) {
            return true;
        }
        LineBudget.Admission a = budget.admit(outcome, decisions);
        if (a.held() != null) {
            LOG.info(a.held());
        }
        return a.write();
    }

    /** Writes the line of the decisions held back so far, if any (every second, and when the service stops). */
    public void flush() {
        String held = budget == null ? null : budget.takeHeld();
        if (held != null) {
            LOG.info(held);
        }
    }

    static String summary(long pods, long nanos) {
        return "Pods: " + pods + " Scheduled, engine " + millis(nanos) + " ms in all";
    }

    @Override
    public void failed(GroupRef podGroup, long nanos) {
        String name = podGroup.name();
        String what = name.startsWith(dev.muster.core.model.PlainPod.GROUP_PREFIX) ? "Pod" : "PodGroup";
        if (what.equals("Pod")) {
            name = name.substring(dev.muster.core.model.PlainPod.GROUP_PREFIX.length());
        }
        LOG.errorf("%s %s/%s: error, engine %s ms", what, podGroup.namespace(), name, millis(nanos));
    }

    static String line(Decision d, long nanos) {
        int placed = d.outcome() == Outcome.Preempting ? d.nominations().size() : d.placements().size();
        int members = d.placements().size() + d.nominations().size() + d.unschedulablePods().size();
        String verb = d.outcome() == Outcome.Preempting ? "nominated" : "placed";
        if (d.isPlainPod()) {
            return "Pod " + d.pod().namespace() + "/" + d.pod().name() + ": " + d.outcome() + ", "
                    + d.victims().size() + " victims, engine " + millis(nanos) + " ms";
        }
        return "PodGroup " + d.podGroup().namespace() + "/" + d.podGroup().name() + ": " + d.outcome() + ", "
                + placed + "/" + members + " members " + verb + ", " + d.victims().size() + " victims, engine "
                + millis(nanos) + " ms";
    }

    /** Milliseconds with three decimals ({@code 1.204}), rounded half up; without a Formatter on the decision path. */
    static String millis(long nanos) {
        long micros = (Math.max(nanos, 0) + 500) / 1000;
        long frac = micros % 1000;
        return (micros / 1000) + (frac < 10 ? ".00" : frac < 100 ? ".0" : ".") + frac;
    }
}
