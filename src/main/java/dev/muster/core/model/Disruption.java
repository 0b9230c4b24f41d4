package dev.muster.core.model;

import java.util.Collection;
import java.util.Set;

/**
 * Who may be preempted, and with whom (workload-aware preemption, v1.36): a pod only by a preemptor of strictly
 * higher priority, and a member of a {@code disruptionMode: PodGroup} group only together with every running member of
 * its group. The engine's preemption and the extender's preempt verb both apply these rules.
 */
public final class Disruption {
    private Disruption() {
    }

    /** Whether a victim at {@code victimPriority} may make room for a preemptor at {@code preemptorPriority}. */
    public static boolean eligible(int victimPriority, int preemptorPriority) {
        return victimPriority < preemptorPriority;
    }

    /** Whether the group's members are evicted all together (a victim unit of their own), not one by one. */
    public static boolean wholeGroup(PodGroup group) {
        return group != null && group.disruptionMode() == DisruptionMode.PodGroup;
    }

    /**
     * Whether evicting {@code victims} respects the victim's group: always for a pod outside a whole-group PodGroup;
     * otherwise only when every running member of the group is among the victims.
     *
     * @param group          the victim's PodGroup, or null
     * @param runningMembers the group's members bound to a node and not terminal
     */
    public static boolean respectsGroup(PodGroup group, Collection<Pod> runningMembers, Set<PodRef> victims) {
        if (!wholeGroup(group)) {
            return true;
        }
        for (Pod p : runningMembers) {
            if (!victims.contains(p.ref())) {
                return false;
            }
        }
        return true;
    }

    /**
     * The CompositePodGroup whose {@code disruptionMode: PodGroup} makes the group's pods go only with every running
     * pod of its whole tree: the highest such composite above the group, or null.
     *
     * @param composites the cluster's CompositePodGroups by reference
     */
    public static GroupRef evictedWith(PodGroup group, java.util.Map<GroupRef, CompositePodGroup> composites) {
        if (group == null || group.parentComposite() == null) {
            return null;
        }
        CompositePodGroup c = composites.get(new GroupRef(group.ref().namespace(), group.parentComposite()));
        GroupRef highest = null;
        for (int depth = 0; c != null && depth <= CompositePodGroup.MAX_TREE_DEPTH; depth++) {
            if (c.disruptionMode() == DisruptionMode.PodGroup) {
                highest = c.ref();
            }
            c = c.parent() == null ? null : composites.get(new GroupRef(c.ref().namespace(), c.parent()));
        }
        return highest;
    }
}
