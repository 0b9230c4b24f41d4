package dev.muster.wiring;

import dev.muster.core.decision.Decision;
import dev.muster.core.decision.DecisionObserver;
import dev.muster.core.decision.Outcome;
import dev.muster.core.model.GroupRef;
import org.jboss.logging.Logger;

/**
 * One INFO line per PodGroup decision (category {@code dev.muster.decisions}), switched by
 * {@code muster.log.decisions} (default on):
 * {@code PodGroup team-a/train: Scheduled, 4/4 members placed, 0 victims, engine 1.204 ms}.
 */
public final class DecisionLog implements DecisionObserver {
    /** The log category ({@code quarkus.log.category."dev.muster.decisions".level=WARN} also silences the lines). */
    public static final String CATEGORY = "dev.muster.decisions";
    private static final Logger LOG = Logger.getLogger(CATEGORY);

    @Override
    public void decided(Decision d, boolean preemptionAttempted, long nanos) {
        if (!LOG.isInfoEnabled()) {
            return;
        }
        LOG.info(line(d, nanos));
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
