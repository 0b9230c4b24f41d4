package dev.muster.core.plugins.defaultpreemption;

import dev.muster.core.framework.PodInfo;
import dev.muster.core.framework.PostFilterPlugin.Simulation;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Workload-aware victim selection (upstream KEP-5710, see docs/upstream.md), as an algorithm that knows nothing of
 * plugins: evict every eligible unit; if the group then fits, give units back — PDB-violating ones first, each list
 * most important first — keeping a unit only when the group still fits with at least as many members placed as the
 * best seen. What is not given back is the victim set. The answer depends on unit importance alone, never on which
 * nodes a trial happened to use, so renaming or reordering nodes does not change who is evicted.
 * <p>
 * Beyond upstream, for speed on large clusters: a run of consecutive units (in importance order) none of which has a
 * pod on a node the group currently uses is given back together and the group re-checked once; when that breaks the
 * fit the run is halved and each half tried in order, down to single units. Giving back fewer pods never makes
 * a group that fits with more of them stop fitting (capacity only grows), so a run that passes as a whole would have
 * passed unit by unit: the victims are those of the one-by-one search, found with fewer trials. The result is
 * minimal: no victim can be given back alone. At most {@code maxTrials} trials run; units not tried by then stay
 * victims.
 */
final class VictimSearch {
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
        Reprieve r = new Reprieve(sim, used, maxTrials);
        // Budget-protected units first, while everything else is still evicted (upstream's order).
        r.all(violating);
        r.all(rest);
        r.victims.sort(Comparator.comparing(PodInfo::ref));
        return r.victims;
    }

    /** The give-back pass over importance-ordered lists: its state is the group's best placement so far. */
    private static final class Reprieve {
        private final Simulation sim;
        private final int maxTrials;
        private final List<PodInfo> victims = new ArrayList<>();
        private int[] used;
        private Set<Integer> usedNodes;
        private int trials;

        Reprieve(Simulation sim, int[] used, int maxTrials) {
            this.sim = sim;
            this.maxTrials = maxTrials;
            accept(used);
        }

        private void accept(int[] placement) {
            used = placement;
            usedNodes = new HashSet<>();
            for (int n : placement) {
                usedNodes.add(n);
            }
        }

        /** Every unit of an importance-ordered list, runs away from the group's nodes together. */
        void all(List<Unit> units) {
            int i = 0;
            while (i < units.size()) {
                if (touches(units.get(i))) {
                    run(units.subList(i, i + 1));
                    i++;
                    continue;
                }
                int j = i + 1;
                while (j < units.size() && !touches(units.get(j))) {
                    j++;
                }
                run(units.subList(i, j));
                i = j;
            }
        }

        /** Gives a run back as one; when the group stops fitting, its halves in order, down to single units. */
        private void run(List<Unit> run) {
            if (trials++ >= maxTrials) {
                run.forEach(u -> victims.addAll(u.pods()));
                return;
            }
            run.forEach(u -> u.pods().forEach(sim::restore));
            int[] r = sim.tryGroup();
            if (r != null && r.length >= used.length) {
                accept(r);
                return;
            }
            run.forEach(u -> u.pods().forEach(sim::evict));
            if (run.size() == 1) {
                victims.addAll(run.get(0).pods());
                return;
            }
            int half = run.size() / 2;
            run(run.subList(0, half));
            run(run.subList(half, run.size()));
        }

        private boolean touches(Unit u) {
            for (PodInfo p : u.pods()) {
                if (usedNodes.contains(homeNode(sim, p))) {
                    return true;
                }
            }
            return false;
        }
    }

    private static int homeNode(Simulation sim, PodInfo p) {
        return sim.cluster().nodeIndex(p.pod().nodeName());
    }
}
