package dev.muster.core.decision;

import dev.muster.core.model.Condition;
import dev.muster.core.model.GroupRef;

import java.util.List;

/**
 * The decision for one PodGroup (docs/api.md). Lists are sorted by pod reference; {@code explanation} is null
 * unless asked for; {@code compositePodGroup} names the CompositePodGroup the group is a child of, or is null.
 */
public record Decision(GroupRef podGroup, Outcome outcome, List<Assignment> placements,
                       List<PodMessage> unschedulablePods, List<Assignment> victims, List<Assignment> nominations,
                       List<ClaimDecision> claims, List<Condition> conditions, String message,
                       Explanation explanation, GroupRef compositePodGroup) {
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
                message, explanation, composite);
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
