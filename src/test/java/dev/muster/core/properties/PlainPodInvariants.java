package dev.muster.core.properties;

import dev.muster.core.decision.Decision;
import dev.muster.core.decision.Outcome;
import dev.muster.core.model.GroupRef;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodGroup;
import dev.muster.core.model.PodRef;

import java.util.Map;

/**
 * The rules {@link Invariants} checks for plain pods (pending pods in no group), re-implemented without engine code:
 * the shape of a plain pod's decision and the one queue order it shares with the groups.
 */
final class PlainPodInvariants {
    interface Failure {
        void fail(String format, Object... args);
    }

    private final Map<PodRef, Pod> pods;
    private final Map<GroupRef, PodGroup> groups;
    private final Failure failure;

    PlainPodInvariants(Map<PodRef, Pod> pods, Map<GroupRef, PodGroup> groups, Failure failure) {
        this.pods = pods;
        this.groups = groups;
        this.failure = failure;
    }

    private void fail(String format, Object... args) {
        failure.fail(format, args);
    }

    private static boolean pending(Pod p) {
        return Invariants.pending(p);
    }

    // (c') a plain pod's decision: its own pod, at most one placement (exactly one when Scheduled), a pod outcome,
    // and the PodScheduled condition when it is not Scheduled.
    void checkDecision(Decision d) {
        Pod p = pods.get(d.pod());
        if (p == null || p.podGroupName() != null || !pending(p) || !p.schedulingGates().isEmpty()) {
            fail("%s: plain pod decision for a pod that is not a pending plain pod", d.pod());
            return;
        }
        if (d.podGroup() != null) {
            fail("%s: plain pod decision also names PodGroup %s", d.pod(), d.podGroup());
        }
        int placed = d.placements().size();
        switch (d.outcome()) {
            case Scheduled -> {
                if (placed != 1) {
                    fail("%s: Scheduled with %d placements", d.pod(), placed);
                }
            }
            case Preempting, Unschedulable -> {
                if (placed != 0) {
                    fail("%s: %s with %d placements", d.pod(), d.outcome(), placed);
                }
                if (d.nominations().size() > 1 || (d.outcome() == Outcome.Preempting) == d.nominations().isEmpty()) {
                    fail("%s: %s with nominations %s", d.pod(), d.outcome(), d.nominations());
                }
                boolean condition = false;
                for (var c : d.conditions()) {
                    condition |= "PodScheduled".equals(c.type()) && "False".equals(c.status())
                            && ("Unschedulable".equals(c.reason()) || "SchedulerError".equals(c.reason()));
                }
                if (!condition) {
                    fail("%s: %s without a PodScheduled=False condition", d.pod(), d.outcome());
                }
            }
            default -> fail("%s: outcome %s is not one of a plain pod", d.pod(), d.outcome());
        }
    }

    static String label(Decision d) {
        return d.pod() != null ? "pod " + d.pod() : "group " + d.podGroup();
    }

    /** Priority (a pod's own: spec.priority, else 0 in generated clusters), creation, namespace, name; groups first. */
    int compareEntries(Decision a, Decision b) {
        long[] ka = key(a);
        long[] kb = key(b);
        if (ka[0] != kb[0]) {
            return Long.compare(kb[0], ka[0]);
        }
        if (ka[1] != kb[1]) {
            return Long.compare(ka[1], kb[1]);
        }
        String nsA = a.pod() != null ? a.pod().namespace() : a.podGroup().namespace();
        String nsB = b.pod() != null ? b.pod().namespace() : b.podGroup().namespace();
        if (!nsA.equals(nsB)) {
            return nsA.compareTo(nsB);
        }
        String nA = a.pod() != null ? a.pod().name() : a.podGroup().name();
        String nB = b.pod() != null ? b.pod().name() : b.podGroup().name();
        if (!nA.equals(nB)) {
            return nA.compareTo(nB);
        }
        return Boolean.compare(a.pod() != null, b.pod() != null);
    }

    private long[] key(Decision d) {
        if (d.pod() != null) {
            Pod p = pods.get(d.pod());
            return new long[] {p.priority() == null ? 0 : p.priority(), p.creationEpochSec()};
        }
        PodGroup g = groups.get(d.podGroup());
        return new long[] {g.priority() == null ? 0 : g.priority(), g.creationEpochSec()};
    }

}
