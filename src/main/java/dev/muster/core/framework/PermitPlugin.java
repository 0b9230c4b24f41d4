package dev.muster.core.framework;

/**
 * Runs after a member was assumed on a node, in validation mode (nothing waits): Success means the group is
 * feasible with what is placed so far, {@link Code#Wait} that more members must be placed first, a rejection
 * that this member must be taken back.
 *
 * @param placedInCycle members assumed so far in this cycle, this one included
 */
public interface PermitPlugin extends Plugin {
    Status permit(GroupContext group, PodInfo pod, NodeInfo node, int placedInCycle);
}
