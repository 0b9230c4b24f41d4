package dev.muster.core.plugins.defaultpreemption;

import dev.muster.core.framework.Code;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.framework.PostFilterPlugin;
import dev.muster.core.framework.PostFilterPlugin.Simulation;
import dev.muster.core.framework.Status;
import dev.muster.core.model.VictimUnits;
import dev.muster.core.model.VictimUnits.Unit;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * kube-scheduler's DefaultPreemption for one pod (the plain pods of a request), node by node as upstream does it:
 * <ol>
 *   <li>a node whose Filter verdict was UnschedulableAndUnresolvable is not a candidate ("Preemption is not helpful
 *       for scheduling");</li>
 *   <li>on every other node, each eligible victim unit with a pod there is evicted (none: "No preemption victims
 *       found for incoming pod"); if the pod still does not pass Filter there, the node is not a candidate and its
 *       Filter reasons are counted;</li>
 *   <li>otherwise units are given back one by one — those whose eviction a PodDisruptionBudget forbids first, then
 *       the rest, each list most important first — and a unit stays a victim only when the pod no longer fits
 *       without its eviction;</li>
 *   <li>among the candidates the node is picked by upstream's criteria: fewest PodDisruptionBudget violations, the
 *       lowest highest victim priority, the lowest sum of victim priorities, the fewest victims, the latest start
 *       of the most important victims, then the first node by name.</li>
 * </ol>
 * The units are {@link VictimUnits}': a victim's priority is its PodGroup's when it has one, and a group with
 * {@code disruptionMode: PodGroup} (or a CompositePodGroup tree evicted whole) is one unit, wherever its other pods
 * run. With no candidate the status is the FitError upstream's
 * preemption returns, built from each node's reason.
 */
final class SinglePodPreemption {
    static final String NOT_HELPFUL = "Preemption is not helpful for scheduling";
    static final String NO_VICTIMS = "No preemption victims found for incoming pod";

    private record Candidate(int node, List<Unit<PodInfo>> victims, int violations, int maxPriority,
                             long prioritySum, int pods, long earliestTop) {
    }

    /** Upstream's pickOneNodeForPreemption, best first. */
    private static final Comparator<Candidate> BEST = Comparator.comparingInt(Candidate::violations)
            .thenComparingInt(Candidate::maxPriority)
            .thenComparingLong(Candidate::prioritySum)
            .thenComparingInt(Candidate::pods)
            .thenComparing(Comparator.comparingLong(Candidate::earliestTop).reversed())
            .thenComparingInt(Candidate::node);

    private SinglePodPreemption() {
    }

    /** The victims on the chosen node, left evicted in the simulation; or none with upstream's FitError. */
    static PostFilterPlugin.Result select(PodInfo pod, List<Unit<PodInfo>> units, Simulation sim) {
        int n = sim.cluster().allNodeCount();
        int[] all = new int[n];
        for (int i = 0; i < n; i++) {
            all[i] = i;
        }
        Status[] before = sim.filter(pod, all);
        Map<Integer, Set<Unit<PodInfo>>> byNode = new TreeMap<>();
        for (Unit<PodInfo> u : units) {
            for (PodInfo p : u.pods()) {
                int at = sim.nodeOf(p);
                if (at >= 0) {
                    byNode.computeIfAbsent(at, k -> new LinkedHashSet<>()).add(u);
                }
            }
        }
        TreeMap<String, Integer> reasons = new TreeMap<>();
        Candidate best = null;
        for (int node = 0; node < n; node++) {
            if (before[node].code() == Code.UnschedulableAndUnresolvable) {
                reasons.merge(NOT_HELPFUL, 1, Integer::sum);
                continue;
            }
            Set<Unit<PodInfo>> on = byNode.get(node);
            if (on == null) {
                reasons.merge(NO_VICTIMS, 1, Integer::sum);
                continue;
            }
            Candidate c = victimsOn(pod, node, new ArrayList<>(on), sim, reasons);
            if (c != null && (best == null || BEST.compare(c, best) < 0)) {
                best = c;
            }
        }
        if (best == null) {
            return new PostFilterPlugin.Result(List.of(), Status.unschedulable(DefaultPreemptionPlugin.NAME,
                    fitError(n, reasons)));
        }
        List<PodInfo> victims = new ArrayList<>();
        for (Unit<PodInfo> u : best.victims()) {
            for (PodInfo p : u.pods()) {
                sim.evict(p);
                victims.add(p);
            }
        }
        victims.sort(Comparator.comparing(PodInfo::ref));
        return new PostFilterPlugin.Result(victims, Status.SUCCESS);
    }

    /**
     * Upstream's SelectVictimsOnNode: the fewest units (given back most important first) whose eviction lets the pod
     * pass Filter on the node, or null when even evicting all of them does not (its reasons counted). Leaves the
     * simulation as it found it.
     */
    private static Candidate victimsOn(PodInfo pod, int node, List<Unit<PodInfo>> units, Simulation sim,
                                       Map<String, Integer> reasons) {
        units.sort(VictimUnits.MOST_IMPORTANT_FIRST);
        for (Unit<PodInfo> u : units) {
            u.pods().forEach(sim::evict);
        }
        try {
            Status after = fits(pod, node, sim);
            if (!after.isSuccess()) {
                for (String r : after.reasons()) {
                    reasons.merge(r, 1, Integer::sum);
                }
                return null;
            }
            // Upstream's filterPodsWithPDBViolation: budgets used up unit by unit in importance order.
            boolean[] violates = sim.victimUnits().violationsInOrder(units);
            List<Unit<PodInfo>> violating = new ArrayList<>();
            List<Unit<PodInfo>> rest = new ArrayList<>();
            for (int i = 0; i < violates.length; i++) {
                (violates[i] ? violating : rest).add(units.get(i));
            }
            List<Unit<PodInfo>> victims = new ArrayList<>();
            int violations = 0;
            for (List<Unit<PodInfo>> list : List.of(violating, rest)) {
                for (Unit<PodInfo> u : list) {
                    u.pods().forEach(sim::restore);
                    if (!fits(pod, node, sim).isSuccess()) {
                        u.pods().forEach(sim::evict);
                        victims.add(u);
                        if (list == violating) {
                            violations++;
                        }
                    }
                }
            }
            return candidate(node, victims, violations);
        } finally {
            for (Unit<PodInfo> u : units) {
                u.pods().forEach(sim::restore);
            }
        }
    }

    private static Status fits(PodInfo pod, int node, Simulation sim) {
        return sim.filter(pod, new int[] {node})[0];
    }

    private static Candidate candidate(int node, List<Unit<PodInfo>> victims, int violations) {
        int max = Integer.MIN_VALUE;
        long sum = 0;
        int pods = 0;
        for (Unit<PodInfo> u : victims) {
            max = Math.max(max, u.priority());
            for (int i = 0; i < u.pods().size(); i++) {
                sum += (long) u.priority() + Integer.MAX_VALUE + 1L; // upstream: every term non-negative
                pods++;
            }
        }
        long earliest = Long.MAX_VALUE;
        for (Unit<PodInfo> u : victims) {
            if (u.priority() == max) {
                for (PodInfo p : u.pods()) {
                    earliest = Math.min(earliest, p.pod().creationEpochSec());
                }
            }
        }
        return new Candidate(node, List.copyOf(victims), violations, max, sum, pods, earliest);
    }

    /** Upstream's FitError text: {@code 0/N nodes are available: <count reason, sorted as strings>.} */
    static String fitError(int nodes, Map<String, Integer> reasons) {
        List<String> parts = new ArrayList<>(reasons.size());
        for (Map.Entry<String, Integer> e : reasons.entrySet()) {
            parts.add(e.getValue() + " " + e.getKey());
        }
        parts.sort(null);
        return "0/" + nodes + " nodes are available: " + String.join(", ", parts) + ".";
    }
}
