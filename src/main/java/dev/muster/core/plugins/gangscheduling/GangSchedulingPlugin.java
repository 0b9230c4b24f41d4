package dev.muster.core.plugins.gangscheduling;

import dev.muster.core.framework.ClusterView;
import dev.muster.core.framework.CycleState;
import dev.muster.core.framework.GroupContext;
import dev.muster.core.framework.NodeField;
import dev.muster.core.framework.NodeInfo;
import dev.muster.core.framework.PermitPlugin;
import dev.muster.core.framework.PodField;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.framework.PreEnqueuePlugin;
import dev.muster.core.framework.PreFilterPlugin;
import dev.muster.core.framework.ResourceIndex;
import dev.muster.core.framework.RoleTally;
import dev.muster.core.framework.SignPlugin;
import dev.muster.core.model.GroupRef;
import dev.muster.core.model.PodGroup;
import dev.muster.core.model.ResourceList;
import dev.muster.core.framework.Status;
import dev.muster.core.model.SchedulingPolicy;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * All-or-nothing for {@code gang} PodGroups (upstream GangScheduling, v1.36).
 * <ul>
 *   <li>PreEnqueue: a gang whose members that can be placed (bound plus pending, gated ones excluded) number fewer
 *   than {@code minCount} waits; nothing is tried. So does a gang with per-role minimums
 *   ({@link PodGroup#minPerRole}, beyond upstream) when some role has fewer such members than its minimum.</li>
 *   <li>Permit (validation mode): Wait while bound plus placed members are below {@code minCount}, or while some
 *   role's bound plus placed members are below its minimum; Success once all hold. Basic groups always get
 *   Success.</li>
 *   <li>PreFilter, for a group with {@code minResources} (coscheduling and Volcano PodGroups): the free capacity
 *   summed over every node (allocatable minus the requests of the pods there that are not the group's own) must hold
 *   {@code minResources}, else each member is unschedulable and unresolvable with coscheduling's own
 *   {@code resource gap: map[...]} message (scheduler-plugins' PreFilter; the sum is cluster-wide, so a group that
 *   passes may still not fit node by node).</li>
 *   <li>Sign: that verdict is the group's, so a member of a group with {@code minResources} is signed with its group
 *   and shares no evaluation with a member of another group.</li>
 * </ul>
 */
public final class GangSchedulingPlugin implements PreEnqueuePlugin, PreFilterPlugin, PermitPlugin, SignPlugin {
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
        if (policy.holds(usable)) {
            return group.group().hasRoleMinimums() ? rolesEnqueue(group) : Status.SUCCESS;
        }
        int exist = usable + group.gated().size();
        return Status.unresolvable(NAME, String.format(
                "waiting for minCount pods from a gang to appear in scheduling queue: %d of %d needed member(s) "
                        + "can be scheduled (%d exist, %d bound, %d gated)",
                usable, policy.minCount(), exist, group.bound().size(), group.gated().size()));
    }

    /** PreEnqueue's per-role check: the first role (by name) with fewer schedulable members than its minimum. */
    private static Status rolesEnqueue(GroupContext group) {
        for (Map.Entry<String, Integer> e : group.group().minPerRole().entrySet()) {
            String role = e.getKey();
            int bound = count(group.bound(), role);
            int usable = bound + count(group.pending(), role);
            if (usable >= e.getValue()) {
                continue;
            }
            int gated = count(group.gated(), role);
            return Status.unresolvable(NAME, String.format(
                    "waiting for pods of role \"%s\" from a gang to appear in scheduling queue: %d of %d needed "
                            + "member(s) can be scheduled (%d exist, %d bound, %d gated)",
                    role, usable, e.getValue(), usable + gated, bound, gated));
        }
        return Status.SUCCESS;
    }

    private static int count(List<PodInfo> pods, String role) {
        int n = 0;
        for (PodInfo p : pods) {
            if (role.equals(p.pod().role())) {
                n++;
            }
        }
        return n;
    }

    /** Permit's message while a role is below its minimum (and bound plus placed members reach minCount). */
    public static String waitingForRole(RoleTally.Shortfall s) {
        return String.format("waiting for pods of role \"%s\" from a gang to be scheduled: %d of %d needed",
                s.role(), s.have(), s.need());
    }

    /** PreFilter reads the pod's group: its namespace and group name. */
    private static final Set<PodField> READS = Set.of(PodField.NAMESPACE, PodField.POD_GROUP);

    private static final Set<NodeField> NODE_READS = Set.of(NodeField.ALLOCATABLE, NodeField.REQUESTED,
            NodeField.POD_COUNT, NodeField.PODS);

    @Override
    public Set<PodField> podFields() {
        return READS;
    }

    /** The group matters only through {@link #podKey}: the group itself when it has minResources. */
    @Override
    public Set<PodField> podKeyFields() {
        return READS;
    }

    /**
     * PreFilter sums what every node has free (allocatable less requested, pod slots), leaving out the group's own
     * pods there.
     */
    @Override
    public Set<NodeField> nodeFields() {
        return NODE_READS;
    }

    /** Read only into PreFilter's verdict, which every node shares. */
    @Override
    public Set<NodeField> nodeKeyFields() {
        return NODE_READS;
    }

    /**
     * The capacity check sums every node's free capacity leaving out the group's own members, so a member landing
     * changes no verdict of another member of its group.
     */
    @Override
    public boolean nodeLocal(PodInfo pod, ClusterView cluster) {
        return true;
    }

    /**
     * The group, when it has minResources: then PreFilter's verdict is the group's, and a member of another group
     * must not get it. Null otherwise (PreFilter passes whatever the group).
     */
    @Override
    public Object podKey(PodInfo pod, ClusterView cluster) {
        GroupRef ref = pod.groupRef();
        PodGroup group = ref == null ? null : cluster.podGroup(ref);
        return group == null || group.minResources() == null ? null : ref;
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
        if (!policy.isGang()) {
            return Status.SUCCESS;
        }
        if (!policy.holds(group.bound().size() + placedInCycle)) {
            return Status.waiting(NAME, WAITING_FOR_MIN_COUNT);
        }
        RoleTally.Shortfall shortRole = group.roles() == null ? null : group.roles().shortfall();
        return shortRole == null ? Status.SUCCESS : Status.waiting(NAME, waitingForRole(shortRole));
    }
}
