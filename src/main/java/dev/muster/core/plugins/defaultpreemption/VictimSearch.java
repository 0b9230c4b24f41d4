package dev.muster.core.plugins.defaultpreemption;

import dev.muster.core.framework.ClusterView;
import dev.muster.core.framework.NodeInfo;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.model.Pod;
import dev.muster.core.model.VictimUnits;
import dev.muster.core.model.VictimUnits.Unit;
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
 * plugins: evict every eligible unit ({@link VictimUnits}); if the group then fits, give units back — PDB-violating ones first, each list
 * most important first — keeping a unit only when the group still fits with at least as many members placed as the
 * best seen. What is not given back is the victim set. The answer depends on unit importance alone, never on which
 * nodes a trial happened to use, so renaming or reordering nodes does not change who is evicted.
 * <p>
 * Beyond upstream, for speed on large clusters: most units are decided by a proof instead of a trial (see
 * {@link Reprieve}), and of the rest, a run of consecutive units (in importance order) none of which has a
 * pod on a node the group currently uses is given back together and the group re-checked once; when that breaks the
 * fit the run is halved and each half tried in order, down to single units. Giving back fewer pods never makes
 * a group that fits with more of them stop fitting (capacity only grows), so a run that passes as a whole would have
 * passed unit by unit: the victims are those of the one-by-one search, found with fewer trials. The result is
 * minimal: no victim can be given back alone. At most {@code maxTrials} trials run; units not tried by then stay
 * victims.
 */
final class VictimSearch {
    private VictimSearch() {
    }

    /**
     * The victims, or null when evicting every unit still does not make the group fit. On return the simulation
     * holds the victims evicted and everything else restored.
     */
    public static List<PodInfo> select(List<Unit<PodInfo>> units, Simulation sim, int maxTrials) {
        for (Unit<PodInfo> u : units) {
            u.pods().forEach(sim::evict);
        }
        int[] used = sim.tryGroup();
        if (used == null) {
            for (Unit<PodInfo> u : units) {
                u.pods().forEach(sim::restore);
            }
            return null;
        }
        Reprieve r = reprieve(units, sim, used, maxTrials, sim.proofs());
        if (r.proved > 0 && sim.tryGroup() == null) {
            // A placement the capacity argument kept was not found again by the group's algorithm: search by trials.
            Set<PodInfo> evicted = new HashSet<>(r.victims);
            for (Unit<PodInfo> u : units) {
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

    private static Reprieve reprieve(List<Unit<PodInfo>> units, Simulation sim, int[] used, int maxTrials,
                                     boolean prove) {
        List<Unit<PodInfo>> violating = new ArrayList<>();
        List<Unit<PodInfo>> rest = new ArrayList<>();
        for (Unit<PodInfo> u : units) {
            (u.violatesBudget() ? violating : rest).add(u);
        }
        violating.sort(VictimUnits.MOST_IMPORTANT_FIRST);
        rest.sort(VictimUnits.MOST_IMPORTANT_FIRST);
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
     * the group, no trial is spent ({@code proved}). The proofs hold when the placement's members carry nothing that
     * other pods can interfere with (pod affinity, topology spread, host ports, device claims) and the unit's pods
     * carry no pod (anti-)affinity:
     * <ul>
     *   <li>the placement still stands if every node it uses keeps room for the members placed there, by their
     *       requests ({@link #keepsPlacement});</li>
     *   <li>the group cannot keep its count if a member the unit crowds out has no node with room for even the
     *       smallest member placed on the unit's nodes ({@link #leavesNoRoom});</li>
     *   <li>the group still fits if the members the unit crowds out each move to another node of the placement's
     *       domain that passes their filters and has room beside the members already there ({@link #relocates}).
     *       Among such nodes the one whose pods come up for give-back last is taken, so that a moved member is
     *       crowded out again as late as possible.</li>
     * </ul>
     * Only the rest cost a trial (a run of the group's algorithm). The answer is the one-by-one reprieve's: each unit
     * is given back exactly when the group fits with it back. A final trial confirms the kept placement (else the
     * search runs again by trials).
     */
    private static final class Reprieve {
        private final Simulation sim;
        private final int maxTrials;
        private final boolean prove;
        private final int k;
        private final List<PodInfo> victims = new ArrayList<>();
        /** Per snapshot node: whether the current placement uses it. */
        private final boolean[] usedNode;
        /**
         * Per snapshot node of the placement: the summed requests of its members (columns 0..k-1), their count
         * (column k) and the smallest request of any of them per resource (columns k+1..2k); null elsewhere.
         */
        private final long[][] need;
        private int[] used;
        private List<PodInfo> members;
        private boolean provable;
        private Hits hits = Hits.NONE;
        private int position;
        private int trials;
        private int proved;

        Reprieve(Simulation sim, int[] used, int maxTrials, boolean prove) {
            this.sim = sim;
            this.maxTrials = maxTrials;
            this.prove = prove;
            this.k = sim.cluster().resources().size();
            int nodes = sim.cluster().allNodeCount();
            this.usedNode = new boolean[nodes];
            this.need = new long[nodes][];
            accept(used, sim.placedMembers());
        }

        private void accept(int[] placement, List<PodInfo> placedMembers) {
            if (used != null) {
                for (int n : used) {
                    usedNode[n] = false;
                    need[n] = null;
                }
            }
            used = placement;
            members = placedMembers;
            for (int n : placement) {
                usedNode[n] = true;
            }
            provable = prove && members != null && members.size() == placement.length && fillNeeds();
        }

        /** Fills {@link #need} for the placement; false (and nothing provable) when a member can be interfered with. */
        private boolean fillNeeds() {
            for (PodInfo m : members) {
                if (interferes(m.pod()) || !m.pod().hostPorts().isEmpty() || m.pod().usesDevices()
                        || !m.pod().topologySpreadConstraints().isEmpty()) {
                    return false;
                }
            }
            for (int i = 0; i < used.length; i++) {
                add(used[i], members.get(i));
            }
            return true;
        }

        private void add(int node, PodInfo m) {
            long[] v = need[node];
            boolean first = v == null;
            if (first) {
                v = need[node] = new long[2 * k + 1];
            }
            for (int r = 0; r < k; r++) {
                v[r] += m.request(r);
                v[k + 1 + r] = first ? m.request(r) : Math.min(v[k + 1 + r], m.request(r));
            }
            v[k]++;
        }

        private static boolean interferes(Pod p) {
            return p.affinity().hasPodAffinity() || !p.affinity().requiredPodAntiAffinity().isEmpty();
        }

        /** Per node, the requests (columns 0..k-1) and count (column k) of the unit's pods; null if one interferes. */
        private Map<Integer, long[]> back(Unit<PodInfo> u) {
            Map<Integer, long[]> back = new HashMap<>(4);
            for (PodInfo p : u.pods()) {
                if (interferes(p.pod())) {
                    return null;
                }
                long[] v = back.computeIfAbsent(homeNode(sim, p), x -> new long[k + 1]);
                for (int r = 0; r < k; r++) {
                    v[r] += p.request(r);
                }
                v[k]++;
            }
            return back;
        }

        /** Whether giving {@code u} back provably leaves the current placement standing. */
        private boolean keepsPlacement(Unit<PodInfo> u) {
            if (!provable) {
                return false;
            }
            if (u.pods().size() == 1) {
                PodInfo p = u.pods().get(0);
                if (interferes(p.pod())) {
                    return false;
                }
                int n = homeNode(sim, p);
                return need[n] == null || roomFor(n, p, need[n]);
            }
            Map<Integer, long[]> back = back(u);
            if (back == null) {
                return false;
            }
            for (Map.Entry<Integer, long[]> e : back.entrySet()) {
                long[] want = need[e.getKey()];
                if (want != null && !room(sim.cluster().anyNode(e.getKey()), e.getValue(), want)) {
                    return false;
                }
            }
            return true;
        }

        private boolean roomFor(int n, PodInfo p, long[] want) {
            NodeInfo node = sim.cluster().anyNode(n);
            for (int r = 0; r < k; r++) {
                if (node.requested(r) + p.request(r) + want[r] > node.allocatable(r)) {
                    return false;
                }
            }
            return node.podCount() + 1 + want[k] <= node.allowedPodNumber();
        }

        private boolean room(NodeInfo node, long[] add, long[] want) {
            for (int r = 0; r < k; r++) {
                if (node.requested(r) + add[r] + want[r] > node.allocatable(r)) {
                    return false;
                }
            }
            return node.podCount() + add[k] + want[k] <= node.allowedPodNumber();
        }

        /**
         * Whether giving {@code u} back provably leaves the group short: a member its pods crowd out needs room
         * elsewhere, and no node has room (by requests) for even the smallest member placed on its nodes.
         */
        private boolean leavesNoRoom(Unit<PodInfo> u) {
            if (!provable) {
                return false;
            }
            Map<Integer, long[]> back = back(u);
            if (back == null) {
                return false;
            }
            long[] smallest = null;
            for (int n : back.keySet()) {
                long[] want = need[n];
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
                long[] want = need[i];
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

        /**
         * Gives {@code u} back when the members it crowds out can each move to another node: one that passes
         * their filters with the unit back and has room beside the members already there. On success the moved
         * placement becomes the current one; otherwise nothing changes.
         */
        private boolean relocates(Unit<PodInfo> u) {
            if (!provable) {
                return false;
            }
            for (PodInfo p : u.pods()) {
                if (interferes(p.pod())) {
                    return false;
                }
            }
            u.pods().forEach(sim::restore);
            java.util.TreeSet<Integer> crowded = new java.util.TreeSet<>();
            for (PodInfo p : u.pods()) {
                int n = homeNode(sim, p);
                if (need[n] != null) {
                    crowded.add(n);
                }
            }
            Map<Integer, long[]> load = new HashMap<>();
            List<Integer> displaced = new ArrayList<>();
            for (int n : crowded) {
                NodeInfo node = sim.cluster().anyNode(n);
                long[] kept = new long[k + 1];
                for (int i = 0; i < used.length; i++) {
                    if (used[i] == n) {
                        PodInfo m = members.get(i);
                        if (fits(node, kept, m)) {
                            plus(kept, m);
                        } else {
                            displaced.add(i);
                        }
                    }
                }
                load.put(n, kept);
            }
            int[] moved = used.clone();
            for (int i : displaced) {
                PodInfo m = members.get(i);
                int[] candidates = sim.feasibleNodes(m);
                int best = -1;
                int bestHit = -1;
                for (int t : candidates == null ? new int[0] : candidates) {
                    long[] there = load.containsKey(t) ? load.get(t) : need[t];
                    if (!fits(sim.cluster().anyNode(t), there, m)) {
                        continue;
                    }
                    int hit = hits.next(t, position);
                    if (hit > bestHit) {
                        best = t;
                        bestHit = hit;
                    }
                }
                if (best < 0) {
                    u.pods().forEach(sim::evict);
                    return false;
                }
                long[] there = load.get(best);
                if (there == null) {
                    there = new long[k + 1];
                    if (need[best] != null) {
                        System.arraycopy(need[best], 0, there, 0, k + 1);
                    }
                    load.put(best, there);
                }
                plus(there, m);
                moved[i] = best;
            }
            accept(moved, members);
            return true;
        }

        /** Whether {@code m} fits on {@code node} beside the pods there and {@code load} (requests, count; may be null). */
        private boolean fits(NodeInfo node, long[] load, PodInfo m) {
            for (int r = 0; r < k; r++) {
                if (node.requested(r) + (load == null ? 0 : load[r]) + m.request(r) > node.allocatable(r)) {
                    return false;
                }
            }
            return node.podCount() + (load == null ? 0 : load[k]) + 1 <= node.allowedPodNumber();
        }

        private void plus(long[] load, PodInfo m) {
            for (int r = 0; r < k; r++) {
                load[r] += m.request(r);
            }
            load[k]++;
        }

        /** Every unit of an importance-ordered list, runs away from the group's nodes together. */
        void all(List<Unit<PodInfo>> units) {
            hits = prove ? Hits.of(units, sim) : Hits.NONE;
            int i = 0;
            while (i < units.size()) {
                position = i;
                Unit<PodInfo> u = units.get(i);
                if (keepsPlacement(u)) {
                    u.pods().forEach(sim::restore);
                    proved++;
                    i++;
                    continue;
                }
                if (leavesNoRoom(u)) {
                    victims.addAll(u.pods());
                    proved++;
                    i++;
                    continue;
                }
                if (relocates(u)) {
                    proved++;
                    i++;
                    continue;
                }
                if (touches(u)) {
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
        private void run(List<Unit<PodInfo>> run) {
            if (trials++ >= maxTrials) {
                run.forEach(u -> victims.addAll(u.pods()));
                return;
            }
            run.forEach(u -> u.pods().forEach(sim::restore));
            int[] r = sim.tryGroup();
            if (r != null && r.length >= used.length) {
                accept(r, sim.placedMembers());
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

        private boolean touches(Unit<PodInfo> u) {
            for (PodInfo p : u.pods()) {
                if (usedNode[homeNode(sim, p)]) {
                    return true;
                }
            }
            return false;
        }
    }

    /** Per node, the positions (ascending) in a unit list of the units with a pod on it. */
    private record Hits(int[] start, int[] positions) {
        static final Hits NONE = new Hits(null, null);

        static Hits of(List<Unit<PodInfo>> units, Simulation sim) {
            int nodes = sim.cluster().allNodeCount();
            int[] start = new int[nodes + 1];
            int[] last = new int[nodes];
            java.util.Arrays.fill(last, -1);
            for (int i = 0; i < units.size(); i++) {
                for (PodInfo p : units.get(i).pods()) {
                    int n = homeNode(sim, p);
                    if (last[n] != i) {
                        last[n] = i;
                        start[n + 1]++;
                    }
                }
            }
            for (int n = 0; n < nodes; n++) {
                start[n + 1] += start[n];
            }
            int[] fill = java.util.Arrays.copyOf(start, nodes);
            int[] positions = new int[start[nodes]];
            java.util.Arrays.fill(last, -1);
            for (int i = 0; i < units.size(); i++) {
                for (PodInfo p : units.get(i).pods()) {
                    int n = homeNode(sim, p);
                    if (last[n] != i) {
                        last[n] = i;
                        positions[fill[n]++] = i;
                    }
                }
            }
            return new Hits(start, positions);
        }

        /** The first position after {@code after} of a unit on {@code node}; MAX_VALUE when none comes. */
        int next(int node, int after) {
            if (start == null) {
                return Integer.MAX_VALUE;
            }
            int at = java.util.Arrays.binarySearch(positions, start[node], start[node + 1], after + 1);
            if (at < 0) {
                at = -at - 1;
            }
            return at < start[node + 1] ? positions[at] : Integer.MAX_VALUE;
        }
    }

    private static int homeNode(Simulation sim, PodInfo p) {
        return sim.cluster().nodeIndex(p.pod().nodeName());
    }
}
