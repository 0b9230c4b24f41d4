package dev.muster.core.cycle;

import dev.muster.core.framework.GroupContext;
import dev.muster.core.framework.PodInfo;

import java.util.List;

/**
 * How one PodGroup cycle ended, for the decision to report.
 *
 * @param group    the group's members as the cycle saw them
 * @param result   the placement result (the chosen placement's, or the nominations when preempting); null when
 *                 the group was rejected or held before any placement was tried
 * @param victims  the pods to evict ({@link Kind#PREEMPTING} only)
 * @param message  why the group was held or rejected, or the PostFilter's reason when preemption did not help
 */
public record GroupOutcome(Kind kind, GroupContext group, AlgorithmResult result, List<PodInfo> victims,
                           String message) {
    public enum Kind {
        /** The members cannot all be scheduled together (they disagree on the scheduler); nothing was tried. */
        REJECTED,
        /** PreEnqueue held the group back (a gang short of members); nothing was tried. */
        WAITING,
        /** The group's policy holds; its placed members stay assumed. */
        SCHEDULED,
        /** The group fits once the victims are gone; members stay assumed on their nominated nodes. */
        PREEMPTING,
        /** The group does not fit, even with preemption. Nothing stays assumed. */
        UNSCHEDULABLE
    }
}
