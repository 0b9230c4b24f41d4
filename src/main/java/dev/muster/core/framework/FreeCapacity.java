package dev.muster.core.framework;

import java.util.Arrays;
import java.util.List;

/**
 * Free capacity summed over a set of nodes, per resource and in pod slots: the cheap necessary condition that a
 * node set (a candidate placement, a preemption domain) can hold a group before any member is run on it.
 */
public final class FreeCapacity {
    private final long[] free;
    private long slots;

    private FreeCapacity(int resources) {
        this.free = new long[resources];
    }

    /** What the nodes (snapshot indices) have free now. */
    public static FreeCapacity of(ClusterView cluster, int[] nodes) {
        int resources = cluster.resources().size();
        FreeCapacity c = new FreeCapacity(resources);
        for (int idx : nodes) {
            NodeInfo n = cluster.anyNode(idx);
            c.slots += Math.max(0, n.allowedPodNumber() - n.podCount());
            for (int r = 0; r < resources; r++) {
                c.free[r] += Math.max(0, n.allocatable(r) - n.requested(r));
            }
        }
        return c;
    }

    /** Counts a pod's requests and slot as free (a victim that would be evicted). */
    public void release(PodInfo pod) {
        slots++;
        for (int r = 0; r < free.length; r++) {
            free[r] += pod.request(r);
        }
    }

    /**
     * Whether, per resource and in slots, it holds the smallest pending members the group needs to hold its policy
     * (a gang: {@code minCount} less its bound members; basic: one). False when the group has fewer pending members
     * than it needs.
     */
    public boolean holdsSmallestNeeded(GroupContext group) {
        int need = group.group().policy().isGang() ? group.group().policy().minCount() - group.bound().size() : 1;
        if (need <= 0) {
            return true;
        }
        List<PodInfo> pending = group.pending();
        if (need > pending.size() || slots < need) {
            return false;
        }
        long[] req = new long[pending.size()];
        for (int r = 0; r < free.length; r++) {
            for (int i = 0; i < req.length; i++) {
                req[i] = pending.get(i).request(r);
            }
            Arrays.sort(req);
            long sum = 0;
            for (int i = 0; i < need; i++) {
                sum += req[i];
            }
            if (sum > free[r]) {
                return false;
            }
        }
        return true;
    }
}
