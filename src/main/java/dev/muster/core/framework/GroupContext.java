package dev.muster.core.framework;

import dev.muster.core.model.PodGroup;

import java.util.List;

/**
 * A PodGroup during its cycle: the group object, its members by state, and how many are placed so far in this
 * cycle. Read by PreEnqueue and Permit plugins.
 *
 * @param bound    members bound to a node (not terminal)
 * @param pending  members to place in this cycle, in cycle order
 * @param gated    members that still carry scheduling gates
 */
public record GroupContext(PodGroup group, List<PodInfo> bound, List<PodInfo> pending, List<PodInfo> gated) {
}
