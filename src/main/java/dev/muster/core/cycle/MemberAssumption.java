package dev.muster.core.cycle;

import dev.muster.core.framework.ClusterView;
import dev.muster.core.framework.Code;
import dev.muster.core.framework.CycleState;
import dev.muster.core.framework.FrameworkRuntime;
import dev.muster.core.framework.GroupContext;
import dev.muster.core.framework.NodeInfo;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.framework.RoleTally;
import dev.muster.core.framework.Status;
import dev.muster.core.snapshot.SnapshotOverlay;

/**
 * Takes a member onto a node the one way every path of the cycle does (the greedy pass, the bounded search, a
 * placement chosen after comparison, a preemption trial): assume it in the snapshot (and count it in its group's
 * role tally, when the group has per-role minimums), run Reserve, then Permit. When
 * Reserve or Permit rejects it, everything is undone; otherwise Unreserve is journaled beside the assume, so
 * rolling the snapshot back gives back what Reserve took.
 */
final class MemberAssumption {
    private final SnapshotOverlay snapshot;
    private final FrameworkRuntime runtime;
    private final ClusterView cluster;

    MemberAssumption(SchedulingScope scope) {
        this.snapshot = scope.snapshot();
        this.runtime = scope.runtime();
        this.cluster = scope.allNodes();
    }

    /**
     * Assumes {@code pod} on {@code node}. Returns the Permit verdict (Success: the group's policy now holds; Wait:
     * more members needed) with the member kept, or a rejection/Error with nothing kept.
     *
     * @param state         the PreFilter state of the attempt that chose the node, or null
     * @param placedInCycle members placed so far in this cycle, this one included
     */
    Status assume(GroupContext group, PodInfo pod, int node, CycleState state, int placedInCycle) {
        int mark = snapshot.mark();
        snapshot.assume(pod, node);
        RoleTally roles = group.roles();
        if (roles != null && roles.counts(pod.pod())) {
            roles.add(pod.pod());
            snapshot.recordUndo(() -> roles.remove(pod.pod()));
        }
        NodeInfo info = snapshot.node(node);
        if (runtime.hasReserve()) {
            CycleState s = state != null ? state : new CycleState();
            Status reserved = runtime.runReserve(s, pod, info, cluster);
            if (!reserved.isSuccess()) {
                snapshot.rollbackTo(mark);
                return reserved;
            }
            snapshot.recordUndo(() -> runtime.runUnreserve(s, pod, info, cluster));
        }
        Status permit = runtime.runPermit(group, pod, info, placedInCycle);
        if (permit.isRejected() || permit.code() == Code.Error) {
            snapshot.rollbackTo(mark);
        }
        return permit;
    }

    /** Whether a verdict of {@link #assume} kept the member. */
    static boolean kept(Status s) {
        return !s.isRejected() && s.code() != Code.Error;
    }
}
