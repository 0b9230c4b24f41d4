package dev.muster.core.plugins.defaultpreemption;

import dev.muster.core.framework.GroupContext;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.framework.PostFilterPlugin;
import dev.muster.core.framework.Status;
import dev.muster.core.model.PlainPod;
import dev.muster.core.model.PodGroup;
import dev.muster.core.model.VictimUnits;
import dev.muster.core.model.VictimUnits.Unit;

import java.util.List;

/**
 * Workload-aware preemption for PodGroups (upstream DefaultPreemption's PodGroupPostFilter, v1.36): the preemptor is
 * the whole group at its PodGroup priority, and the victims are {@link VictimUnits}: a running pod on its own, every
 * running pod of a {@code disruptionMode: PodGroup} group, or every running pod of a CompositePodGroup tree evicted
 * whole, each eligible only when its priority is strictly lower and it is not the preemptor's own group or tree.
 * The domain is the whole cluster; for a group with a topology constraint (which upstream v1.36 does not preempt
 * for), one domain of its key ({@link DomainPreemption}). A plain pod ({@link PlainPod}) preempts as upstream's
 * single-pod DefaultPreemption does ({@link SinglePodPreemption}).
 */
public final class DefaultPreemptionPlugin implements PostFilterPlugin {
    public static final String NAME = "DefaultPreemption";
    /** One-by-one reprieve trials per group (each re-runs the group's algorithm). */
    public static final int MAX_TRIALS = 512;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Result postFilter(GroupContext group, int groupPriority, Simulation sim) {
        PodGroup pg = group.group();
        if (pg.neverPreempts()) {
            return new Result(List.of(), Status.unresolvable(NAME, "not eligible due to preemptionPolicy=Never."));
        }
        for (PodInfo p : group.pending()) {
            if ("Never".equals(p.pod().preemptionPolicy())) {
                return new Result(List.of(), Status.unresolvable(NAME,
                        "not eligible due to preemptionPolicy=Never."));
            }
        }
        List<Unit<PodInfo>> units = sim.victimUnits().eligible(pg.ref(), groupPriority);
        if (PlainPod.is(pg)) {
            // A plain pod: kube-scheduler's own DefaultPreemption, node by node.
            return SinglePodPreemption.select(group.pending().get(0), units, sim);
        }
        if (units.isEmpty()) {
            return new Result(List.of(), Status.unresolvable(NAME,
                    "No preemption victims found for incoming preemptor"));
        }
        List<PodInfo> victims = pg.topologyKeys().isEmpty() ? VictimSearch.select(units, sim, MAX_TRIALS)
                : DomainPreemption.select(group, pg.topologyKeys().get(0), units, sim, MAX_TRIALS);
        if (victims == null) {
            return new Result(List.of(), Status.unschedulable(NAME,
                    "not enough lower-priority victims to make the pod group schedulable"));
        }
        return new Result(victims, Status.SUCCESS);
    }
}
