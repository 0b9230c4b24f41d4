package dev.muster.core.plugins.defaultpreemption;

import dev.muster.core.framework.GroupContext;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.framework.PostFilterPlugin;
import dev.muster.core.framework.Status;
import dev.muster.core.model.Disruption;
import dev.muster.core.model.GroupRef;
import dev.muster.core.model.PodDisruptionBudget;
import dev.muster.core.model.PlainPod;
import dev.muster.core.model.PodGroup;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Workload-aware preemption for PodGroups (upstream DefaultPreemption's PodGroupPostFilter, v1.36): the preemptor is
 * the whole group at its PodGroup priority; every running pod outside it is a victim unit of its own, except the
 * pods of a {@code disruptionMode: PodGroup} group, which form one unit at their group's priority, and the pods of a
 * CompositePodGroup tree whose composite says {@code disruptionMode: PodGroup}, which form one unit together. A unit is
 * eligible only when its priority is strictly lower. The domain is the whole cluster; for a group with a topology
 * constraint (which upstream v1.36 does not preempt for), one domain of its key ({@link DomainPreemption}). A plain
 * pod ({@link PlainPod}) preempts as upstream's single-pod DefaultPreemption does ({@link SinglePodPreemption}).
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
        List<VictimSearch.Unit> units = units(group, groupPriority, sim);
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

    private static List<VictimSearch.Unit> units(GroupContext group, int preemptorPriority, Simulation sim) {
        GroupRef self = group.group().ref();
        GroupRef ownTree = sim.evictedWith(self);
        Map<GroupRef, List<PodInfo>> wholeGroups = new LinkedHashMap<>();
        Map<GroupRef, List<PodInfo>> wholeTrees = new LinkedHashMap<>();
        List<VictimSearch.Unit> units = new ArrayList<>();
        for (PodInfo p : sim.runningPods()) {
            GroupRef g = p.groupRef();
            if (self.equals(g)) {
                continue;
            }
            GroupRef tree = g == null ? null : sim.evictedWith(g);
            if (tree != null) {
                if (!tree.equals(ownTree)) {
                    wholeTrees.computeIfAbsent(tree, k -> new ArrayList<>()).add(p);
                }
                continue;
            }
            PodGroup pg = g == null ? null : sim.podGroup(g);
            if (Disruption.wholeGroup(pg)) {
                wholeGroups.computeIfAbsent(g, k -> new ArrayList<>()).add(p);
                continue;
            }
            int priority = p.effectivePriority();
            if (Disruption.eligible(priority, preemptorPriority)) {
                units.add(new VictimSearch.Unit(List.of(p), priority, false, p.pod().creationEpochSec(),
                        violates(List.of(p), sim.podDisruptionBudgets())));
            }
        }
        for (Map.Entry<GroupRef, List<PodInfo>> e : wholeGroups.entrySet()) {
            int priority = sim.groupPriority(e.getKey());
            if (Disruption.eligible(priority, preemptorPriority)) {
                units.add(new VictimSearch.Unit(List.copyOf(e.getValue()), priority, true,
                        sim.podGroup(e.getKey()).creationEpochSec(), violates(e.getValue(), sim.podDisruptionBudgets())));
            }
        }
        for (Map.Entry<GroupRef, List<PodInfo>> e : wholeTrees.entrySet()) {
            // A CompositePodGroup evicted whole: its members' priority (the composite's when it sets one).
            int priority = Integer.MIN_VALUE;
            long creation = Long.MAX_VALUE;
            for (PodInfo p : e.getValue()) {
                priority = Math.max(priority, p.effectivePriority());
                creation = Math.min(creation, p.pod().creationEpochSec());
            }
            if (Disruption.eligible(priority, preemptorPriority)) {
                units.add(new VictimSearch.Unit(List.copyOf(e.getValue()), priority, true, creation,
                        violates(e.getValue(), sim.podDisruptionBudgets())));
            }
        }
        return units;
    }

    /** Whether evicting these pods takes more disruptions from some matching PDB than it allows. */
    private static boolean violates(List<PodInfo> pods, List<PodDisruptionBudget> pdbs) {
        for (PodDisruptionBudget pdb : pdbs) {
            int hit = 0;
            for (PodInfo p : pods) {
                if (pdb.ref().namespace().equals(p.ref().namespace()) && pdb.selector() != null
                        && !pdb.selector().isEmpty() && pdb.selector().matches(p.pod().labels())) {
                    hit++;
                }
            }
            if (hit > 0 && hit > pdb.disruptionsAllowed()) {
                return true;
            }
        }
        return false;
    }
}
