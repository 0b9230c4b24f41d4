package dev.muster.core.decision;

import dev.muster.core.model.Condition;
import dev.muster.core.model.GroupRef;
import dev.muster.core.model.PodRef;

import java.util.List;

/**
 * The decision for one PodGroup, or for one plain pod (docs/api.md). Lists are sorted by pod reference;
 * {@code explanation} is null unless asked for; {@code compositePodGroup} names the CompositePodGroup the group is a
 * child of, or is null. A plain pod's decision has {@code pod} and no {@code podGroup}; a group's the other way round.
 *
 * @param score the chosen placement's score when the group has candidate placements (a topology constraint): its
 *              total PlacementScore, or the negated stranded capacity with BestFit; higher is better; 0 otherwise
 *              and for a decision that places nothing
 */
public record Decision(GroupRef podGroup, Outcome outcome, List<Assignment> placements,
                       List<PodMessage> unschedulablePods, List<Assignment> victims, List<Assignment> nominations,
                       List<ClaimDecision> claims, List<Condition> conditions, String message,
                       Explanation explanation, GroupRef compositePodGroup, PodRef pod, long score) {
    public Decision(GroupRef podGroup, Outcome outcome, List<Assignment> placements,
                    List<PodMessage> unschedulablePods, List<Assignment> victims, List<Assignment> nominations,
                    List<ClaimDecision> claims, List<Condition> conditions, String message,
                    Explanation explanation, GroupRef compositePodGroup, PodRef pod) {
        this(podGroup, outcome, placements, unschedulablePods, victims, nominations, claims, conditions, message,
                explanation, compositePodGroup, pod, 0);
    }

    public Decision(GroupRef podGroup, Outcome outcome, List<Assignment> placements,
                    List<PodMessage> unschedulablePods, List<Assignment> victims, List<Assignment> nominations,
                    List<ClaimDecision> claims, List<Condition> conditions, String message,
                    Explanation explanation, GroupRef compositePodGroup) {
        this(podGroup, outcome, placements, unschedulablePods, victims, nominations, claims, conditions, message,
                explanation, compositePodGroup, null);
    }

    public Decision(GroupRef podGroup, Outcome outcome, List<Assignment> placements,
                    List<PodMessage> unschedulablePods, List<Assignment> victims, List<Assignment> nominations,
                    List<ClaimDecision> claims, List<Condition> conditions, String message,
                    Explanation explanation) {
        this(podGroup, outcome, placements, unschedulablePods, victims, nominations, claims, conditions, message,
                explanation, null);
    }

    /** The same decision for a child of that CompositePodGroup. */
    public Decision withCompositePodGroup(GroupRef composite) {
        return new Decision(podGroup, outcome, placements, unschedulablePods, victims, nominations, claims, conditions,
                message, explanation, composite, pod, score);
    }

    /** The same decision with that placement score. */
    Decision withScore(long placementScore) {
        return new Decision(podGroup, outcome, placements, unschedulablePods, victims, nominations, claims, conditions,
                message, explanation, compositePodGroup, pod, placementScore);
    }

    /** Whether this is a plain pod's decision ({@link #pod}) rather than a group's. */
    public boolean isPlainPod() {
        return pod != null;
    }

    public Decision {
        placements = List.copyOf(placements);
        unschedulablePods = List.copyOf(unschedulablePods);
        victims = List.copyOf(victims);
        nominations = List.copyOf(nominations);
        claims = List.copyOf(claims);
        conditions = List.copyOf(conditions);
    }
}
