package dev.muster.core.framework;

import dev.muster.core.model.PodGroup;

import java.util.List;

/**
 * A PodGroup during its cycle: the group object and its members by state. Read by PreEnqueue and Permit plugins.
 *
 * @param bound    members bound to a node (not terminal)
 * @param pending  members to place in this cycle, in cycle order
 * @param gated    members that still carry scheduling gates
 * @param roles    for a group with per-role minimums, its members on a node per role (bound ones, and pending ones
 *                 while assumed); null otherwise
 */
public record GroupContext(PodGroup group, List<PodInfo> bound, List<PodInfo> pending, List<PodInfo> gated,
                           RoleTally roles) {
    public GroupContext(PodGroup group, List<PodInfo> bound, List<PodInfo> pending, List<PodInfo> gated) {
        this(group, bound, pending, gated, RoleTally.of(group, bound));
    }

    /** Whether every role with a minimum has it on a node now (true for a group without role minimums). */
    public boolean rolesHeld() {
        return roles == null || roles.held();
    }
}
