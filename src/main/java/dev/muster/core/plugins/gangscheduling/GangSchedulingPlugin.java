package dev.muster.core.plugins.gangscheduling;

import dev.muster.core.framework.GroupContext;
import dev.muster.core.framework.NodeInfo;
import dev.muster.core.framework.PermitPlugin;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.framework.PreEnqueuePlugin;
import dev.muster.core.framework.Status;
import dev.muster.core.model.SchedulingPolicy;

/**
 * All-or-nothing for {@code gang} PodGroups (upstream GangScheduling, v1.36).
 * <ul>
 *   <li>PreEnqueue: a gang whose members that can be placed (bound plus pending, gated ones excluded) number fewer
 *   than {@code minCount} waits; nothing is tried.</li>
 *   <li>Permit (validation mode): Wait while bound plus placed members are below {@code minCount}, Success once
 *   they reach it. Basic groups always get Success.</li>
 * </ul>
 */
public final class GangSchedulingPlugin implements PreEnqueuePlugin, PermitPlugin {
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
    public Status permit(GroupContext group, PodInfo pod, NodeInfo node, int placedInCycle) {
        SchedulingPolicy policy = group.group().policy();
        if (!policy.isGang() || group.bound().size() + placedInCycle >= policy.minCount()) {
            return Status.SUCCESS;
        }
        return Status.waiting(NAME, WAITING_FOR_MIN_COUNT);
    }
}
