package dev.muster.core.plugins.defaultpreemption;

import dev.muster.core.framework.ClusterView;
import dev.muster.core.framework.NodeInfo;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.model.Pod;
import dev.muster.core.framework.PostFilterPlugin.Simulation;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
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
        Reprieve r = reprieve(units, sim, used, maxTrials, true);
        if (r.proved > 0 && sim.tryGroup() == null) {
            // A placement the capacity argument kept was not found again by the group's algorithm: search by trials.
            Set<PodInfo> evicted = new HashSet<>(r.victims);
            for (Unit u : units) {
                for (PodInfo p : u.pods()) {
                    if (!evicted.contains(p)) {
                        sim.evict(p);
                    }
                }
            }
            r = reprieve(units, sim, used, maxTrials, false);
        }
        r.victims.sort(Comparator.comparing(PodInfo::ref));
        return r.victims;
    }

    private static Reprieve reprieve(List<Unit> units, Simulation sim, int[] used, int maxTrials, boolean prove) {
        List<Unit> violating = new ArrayList<>();
        List<Unit> rest = new ArrayList<>();
        for (Unit u : units) {
            (u.violatesBudget() ? violating : rest).add(u);
        }
        violating.sort(MOST_IMPORTANT_FIRST);
        rest.sort(MOST_IMPORTANT_FIRST);
        Reprieve r = new Reprieve(sim, used, maxTrials, prove);
        // Budget-protected units first, while everything else is still evicted (upstream's order).
        r.all(violating);
        r.all(rest);
        return r;
    }

    /**
     * The give-back pass over importance-ordered lists: its state is the group's best placement so far.
     * <p>
     * A unit is given back when the group still fits without it evicted. Where that can be shown without re-running
     * the group, no trial is spent ({@code proved}): when the placement's members carry nothing that other pods can
     * interfere with (pod affinity, topology spread, host ports, device claims) and the unit's pods carry no pod
     * (anti-)affinity, the group's current placement still holds if every node it uses keeps room for the members
     * placed there by their requests. The answer is the one-by-one reprieve's, with a trial only where a unit takes
     * room the placement needs; a final trial confirms the kept placement (else the search runs again by trials).
     */
    private static final class Reprieve {
        private final Simulation sim;
        private final int maxTrials;
        private final boolean prove;
        private final List<PodInfo> victims = new ArrayList<>();
        private int[] used;
        private Set<Integer> usedNodes;
        private Map<Integer, long[]> need;
        private int trials;
        private int proved;

        Reprieve(Simulation sim, int[] used, int maxTrials, boolean prove) {
            this.sim = sim;
            this.maxTrials = maxTrials;
            this.prove = prove;
            accept(used);
        }

        private void accept(int[] placement) {
            used = placement;
            usedNodes = new HashSet<>();
            for (int n : placement) {
                usedNodes.add(n);
            }
            need = prove ? needs(placement, sim.placedMembers()) : null;
        }

        /**
         * Per node of the placement, the summed requests of its members, their count (column k) and the smallest request
     * of any of them per resource (columns k+1..2k), or null when
         * a member could be kept off a node by a pod given back there, or the simulation does not say who went where.
         */
        private Map<Integer, long[]> needs(int[] placement, List<PodInfo> members) {
            if (members == null || members.size() != placement.length) {
                return null;
            }
            int k = sim.cluster().resources().size();
            Map<Integer, long[]> out = new HashMap<>();
            for (int i = 0; i < placement.length; i++) {
                PodInfo m = members.get(i);
                if (interferes(m.pod()) || !m.pod().hostPorts().isEmpty() || !m.pod().resourceClaims().isEmpty()
                        || !m.pod().topologySpreadConstraints().isEmpty()) {
                    return null;
                }
                boolean first = !out.containsKey(placement[i]);
                long[] v = out.computeIfAbsent(placement[i], n -> new long[2 * k + 1]);
                for (int r = 0; r < k; r++) {
                    v[r] += m.request(r);
                    v[k + 1 + r] = first ? m.request(r) : Math.min(v[k + 1 + r], m.request(r));
                }
                v[k]++;
            }
            return out;
        }

        private static boolean interferes(Pod p) {
            return p.affinity().hasPodAffinity() || !p.affinity().requiredPodAntiAffinity().isEmpty();
        }

        /** Whether giving {@code u} back provably leaves the current placement standing. */
        private boolean keepsPlacement(Unit u) {
            if (need == null) {
                return false;
            }
            Map<Integer, long[]> back = new HashMap<>();
            int k = sim.cluster().resources().size();
            for (PodInfo p : u.pods()) {
                if (interferes(p.pod())) {
                    return false;
                }
                int n = homeNode(sim, p);
                if (need.containsKey(n)) {
                    long[] v = back.computeIfAbsent(n, x -> new long[k + 1]);
                    for (int r = 0; r < k; r++) {
                        v[r] += p.request(r);
                    }
                    v[k]++;
                }
            }
            for (Map.Entry<Integer, long[]> e : back.entrySet()) {
                NodeInfo n = sim.cluster().anyNode(e.getKey());
                long[] want = need.get(e.getKey());
                long[] add = e.getValue();
                for (int r = 0; r < k; r++) {
                    if (n.requested(r) + add[r] + want[r] > n.allocatable(r)) {
                        return false;
                    }
                }
                if (n.podCount() + add[k] + want[k] > n.allowedPodNumber()) {
                    return false;
                }
            }
            return true;
        }

        /**
         * Whether giving {@code u} back provably leaves the group short: a member its pods crowd out needs room
         * elsewhere, and no node has room (by requests) for even the smallest member placed on its nodes.
         */
        private boolean leavesNoRoom(Unit u) {
            if (need == null) {
                return false;
            }
            int k = sim.cluster().resources().size();
            Map<Integer, long[]> back = new HashMap<>();
            for (PodInfo p : u.pods()) {
                if (interferes(p.pod())) {
                    return false;
                }
                long[] v = back.computeIfAbsent(homeNode(sim, p), x -> new long[k + 1]);
                for (int r = 0; r < k; r++) {
                    v[r] += p.request(r);
                }
                v[k]++;
            }
            long[] smallest = null;
            for (int n : back.keySet()) {
                long[] want = need.get(n);
                if (want != null) {
                    long[] one = java.util.Arrays.copyOfRange(want, k + 1, 2 * k + 1);
                    smallest = smallest == null ? one : min(smallest, one);
                }
            }
            if (smallest == null) {
                return false;
            }
            ClusterView c = sim.cluster();
            for (int i = 0; i < c.allNodeCount(); i++) {
                NodeInfo n = c.anyNode(i);
                long[] want = need.get(i);
                long[] add = back.get(i);
                boolean room = n.podCount() + (want == null ? 0 : want[k]) + (add == null ? 0 : add[k]) + 1
                        <= n.allowedPodNumber();
                for (int r = 0; r < k && room; r++) {
                    room = n.requested(r) + (want == null ? 0 : want[r]) + (add == null ? 0 : add[r]) + smallest[r]
                            <= n.allocatable(r);
                }
                if (room) {
                    return false;
                }
            }
            return true;
        }

        private static long[] min(long[] a, long[] b) {
            long[] out = new long[a.length];
            for (int r = 0; r < a.length; r++) {
                out[r] = Math.min(a[r], b[r]);
            }
            return out;
        }

        /** Every unit of an importance-ordered list, runs away from the group's nodes together. */
        void all(List<Unit> units) {
            int i = 0;
            while (i < units.size()) {
                if (keepsPlacement(units.get(i))) {
                    units.get(i).pods().forEach(sim::restore);
                    proved++;
                    i++;
                    continue;
                }
                if (leavesNoRoom(units.get(i))) {
                    victims.addAll(units.get(i).pods());
                    proved++;
                    i++;
                    continue;
                }
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
