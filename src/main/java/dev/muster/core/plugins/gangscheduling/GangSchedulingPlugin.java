package dev.muster.core.plugins.gangscheduling;

import dev.muster.core.framework.ClusterView;
import dev.muster.core.framework.CycleState;
import dev.muster.core.framework.GroupContext;
import dev.muster.core.framework.NodeInfo;
import dev.muster.core.framework.PermitPlugin;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.framework.PreEnqueuePlugin;
import dev.muster.core.framework.PreFilterPlugin;
import dev.muster.core.framework.ResourceIndex;
import dev.muster.core.model.GroupRef;
import dev.muster.core.model.PodGroup;
import dev.muster.core.model.ResourceList;
import dev.muster.core.framework.Status;
import dev.muster.core.model.SchedulingPolicy;

/**
 * All-or-nothing for {@code gang} PodGroups (upstream GangScheduling, v1.36).
 * <ul>
 *   <li>PreEnqueue: a gang whose members that can be placed (bound plus pending, gated ones excluded) number fewer
 *   than {@code minCount} waits; nothing is tried.</li>
 *   <li>Permit (validation mode): Wait while bound plus placed members are below {@code minCount}, Success once
 *   they reach it. Basic groups always get Success.</li>
 *   <li>PreFilter, for a group with {@code minResources} (coscheduling and Volcano PodGroups): the free capacity
 *   summed over every node (allocatable minus the requests of the pods there that are not the group's own) must hold
 *   {@code minResources}, else each member is unschedulable and unresolvable with coscheduling's own
 *   {@code resource gap: map[...]} message (scheduler-plugins' PreFilter; the sum is cluster-wide, so a group that
 *   passes may still not fit node by node).</li>
 * </ul>
 */
public final class GangSchedulingPlugin implements PreEnqueuePlugin, PreFilterPlugin, PermitPlugin {
    public static final String NAME = "GangScheduling";
    /** Upstream's Permit message while a gang is below minCount. */
    public static final String WAITING_FOR_MIN_COUNT = "waiting for minCount pods from a gang to be scheduled";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Status preEnqueue(GroupContext group) {
        SchedulingPolicy policy = group.group().policy();
        if (!policy.isGang()) {
            return Status.SUCCESS;
        }
        int usable = group.bound().size() + group.pending().size();
        if (usable >= policy.minCount()) {
            return Status.SUCCESS;
        }
        int exist = usable + group.gated().size();
        return Status.unresolvable(NAME, String.format(
                "waiting for minCount pods from a gang to appear in scheduling queue: %d of %d needed member(s) "
                        + "can be scheduled (%d exist, %d bound, %d gated)",
                usable, policy.minCount(), exist, group.bound().size(), group.gated().size()));
    }

    @Override
    public Status preFilter(CycleState state, PodInfo pod, ClusterView cluster) {
        GroupRef ref = pod.groupRef();
        PodGroup group = ref == null ? null : cluster.podGroup(ref);
        if (group == null || group.minResources() == null) {
            return Status.SUCCESS;
        }
        String gap = resourceGap(group.minResources(), ref, cluster);
        return gap == null ? Status.SUCCESS : Status.unresolvable(NAME, gap);
    }

    /** Coscheduling's cluster check: null when the free capacity of all nodes together holds {@code min}. */
    static String resourceGap(ResourceList min, GroupRef group, ClusterView cluster) {
        ResourceIndex index = cluster.resources();
        long[] need = new long[min.size()];
        int[] slot = new int[min.size()];
        for (int i = 0; i < need.length; i++) {
            need[i] = min.value(i);
            String name = min.name(i);
            slot[i] = ResourceList.PODS.equals(name) ? -2 : index.indexOf(name);
        }
        for (int n = 0; n < cluster.allNodeCount() && !covered(need); n++) {
            NodeInfo node = cluster.anyNode(n);
            long ownPods = 0;
            long[] own = new long[index.size()];
            for (PodInfo p : node.pods()) {
                if (group.equals(p.groupRef())) {
                    ownPods++;
                    long[] r = p.requestVector();
                    for (int k = 0; k < own.length && k < r.length; k++) {
                        own[k] += r[k];
                    }
                }
            }
            for (int i = 0; i < need.length; i++) {
                if (need[i] <= 0) {
                    continue; // satisfied resources leave the check, as coscheduling drops them from its map
                }
                long free;
                if (slot[i] == -2) {
                    free = node.allowedPodNumber() - (node.podCount() - ownPods);
                } else if (slot[i] < 0) {
                    free = 0;
                } else {
                    free = node.allocatable(slot[i]) - (node.requested(slot[i]) - own[slot[i]]);
                }
                need[i] -= free;
            }
        }
        if (covered(need)) {
            return null;
        }
        StringBuilder sb = new StringBuilder("resource gap: map[");
        boolean first = true;
        for (int i = 0; i < need.length; i++) {
            if (need[i] > 0) {
                sb.append(first ? "" : " ").append(min.name(i)).append(':')
                        .append(ResourceList.CPU.equals(min.name(i)) ? milli(need[i]) : Long.toString(need[i]));
                first = false;
            }
        }
        return sb.append(']').toString();
    }

    private static boolean covered(long[] need) {
        for (long v : need) {
            if (v > 0) {
                return false;
            }
        }
        return true;
    }

    private static String milli(long m) {
        return m % 1000 == 0 ? Long.toString(m / 1000) : m + "m";
    }

    @Override
    public Status permit(GroupContext group, PodInfo pod, NodeInfo node, int placedInCycle) {
        SchedulingPolicy policy = group.group().policy();
        if (!policy.isGang() || group.bound().size() + placedInCycle >= policy.minCount()) {
            return Status.SUCCESS;
        }
        return Status.waiting(NAME, WAITING_FOR_MIN_COUNT);
    }
}
