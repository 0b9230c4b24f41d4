package dev.muster.core.preemption;

import dev.muster.core.framework.PodInfo;
import dev.muster.core.framework.PostFilterPlugin.Simulation;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Workload-aware victim selection (upstream KEP-5710, see docs/upstream.md), as an algorithm that knows nothing of
 * plugins: evict every eligible unit; if the group then fits, give units back one by one — PDB-violating ones first,
 * each list most important first — keeping a unit only when the group still fits with at least as many members
 * placed as the best seen. What is not given back is the victim set.
 * <p>
 * Beyond upstream, for speed on large clusters: after the PDB-violating units, the other units with no pod on a
 * node the group used are given back together and the group is re-checked once; only the units on used nodes are
 * then tried one by one (when the bulk give-back breaks the fit, every unit is tried one by one as upstream does).
 * At most {@code maxTrials} one-by-one trials run; units beyond that stay victims.
 */
public final class VictimSearch {
    /**
     * A unit of eviction: one pod, or every running pod of a PodGroup with {@code disruptionMode: PodGroup}.
     *
     * @param creation       creation time (epoch seconds) of the pod or the group, for importance
     * @param violatesBudget evicting it would exceed a PodDisruptionBudget's allowed disruptions
     */
    public record Unit(List<PodInfo> pods, int priority, boolean group, long creation, boolean violatesBudget) {
    }

    /** Upstream's moreImportantVictim: most important first. */
    public static final Comparator<Unit> MOST_IMPORTANT_FIRST = (a, b) -> {
        if (a.priority() != b.priority()) {
            return Integer.compare(b.priority(), a.priority());
        }
        if (a.group() != b.group()) {
            return a.group() ? -1 : 1;
        }
        if (a.group() && a.pods().size() != b.pods().size()) {
            return Integer.compare(b.pods().size(), a.pods().size());
        }
        if (a.creation() != b.creation()) {
            return Long.compare(a.creation(), b.creation());
        }
        return a.pods().get(0).ref().compareTo(b.pods().get(0).ref());
    };

    private VictimSearch() {
    }

    /**
     * The victims, or null when evicting every unit still does not make the group fit. On return the simulation
     * holds the victims evicted and everything else restored.
     */
    public static List<PodInfo> select(List<Unit> units, Simulation sim, int maxTrials) {
        for (Unit u : units) {
            u.pods().forEach(sim::evict);
        }
        int[] used = sim.tryGroup();
        if (used == null) {
            for (Unit u : units) {
                u.pods().forEach(sim::restore);
            }
            return null;
        }
        List<Unit> violating = new ArrayList<>();
        List<Unit> rest = new ArrayList<>();
        for (Unit u : units) {
            (u.violatesBudget() ? violating : rest).add(u);
        }
        violating.sort(MOST_IMPORTANT_FIRST);
        rest.sort(MOST_IMPORTANT_FIRST);
        List<PodInfo> victims = new ArrayList<>();
        int[] trials = {0};
        // Budget-protected units first, while everything else is still evicted (upstream's order).
        used = reprieve(violating, sim, used, victims, trials, maxTrials);
        // The rest: give back in bulk what does not sit where the group went, then try the others one by one.
        Set<Integer> usedNodes = new HashSet<>();
        for (int n : used) {
            usedNodes.add(n);
        }
        List<Unit> elsewhere = new ArrayList<>();
        List<Unit> onUsed = new ArrayList<>();
        for (Unit u : rest) {
            boolean touches = false;
            for (PodInfo p : u.pods()) {
                touches |= usedNodes.contains(homeNode(sim, p));
            }
            (touches ? onUsed : elsewhere).add(u);
        }
        List<Unit> oneByOne = onUsed;
        if (!elsewhere.isEmpty()) {
            elsewhere.forEach(u -> u.pods().forEach(sim::restore));
            int[] again = sim.tryGroup();
            if (again == null || again.length < used.length) {
                elsewhere.forEach(u -> u.pods().forEach(sim::evict));
                oneByOne = rest;
            } else {
                used = again;
            }
        }
        reprieve(oneByOne, sim, used, victims, trials, maxTrials);
        victims.sort(Comparator.comparing(PodInfo::ref));
        return victims;
    }

    /**
     * Gives units back one by one; a unit stays given back only when the group still fits with at least as many
     * members placed. Returns the placement of the last successful trial.
     */
    private static int[] reprieve(List<Unit> units, Simulation sim, int[] used, List<PodInfo> victims, int[] trials,
                                  int maxTrials) {
        for (Unit u : units) {
            if (trials[0]++ >= maxTrials) {
                victims.addAll(u.pods());
                continue;
            }
            u.pods().forEach(sim::restore);
            int[] r = sim.tryGroup();
            if (r != null && r.length >= used.length) {
                used = r;
            } else {
                u.pods().forEach(sim::evict);
                victims.addAll(u.pods());
            }
        }
        return used;
    }

    private static int homeNode(Simulation sim, PodInfo p) {
        return sim.cluster().nodeIndex(p.pod().nodeName());
    }
}
