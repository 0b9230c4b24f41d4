package dev.muster.core.cycle;

import dev.muster.core.framework.NodeInfo;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.framework.ResourceIndex;
import dev.muster.core.model.GroupRef;
import dev.muster.core.model.VictimUnits;
import dev.muster.core.model.VictimUnits.Unit;
import dev.muster.core.snapshot.SnapshotOverlay;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Works out what an unschedulable group is short of (its {@link Result}, which the decision's explanation reports as
 * its shortage) from the trials its cycle already ran (nothing is searched again): how many members each evaluated
 * placement held against how many the group needs, why the next member fitted no node of the placement that came
 * closest, and the smallest change that would make the group fit there.
 * <p>
 * Two changes are computed, both by requests alone (cpu, memory, ephemeral-storage, extended resources and pod
 * slots; taints, selectors, affinity, ports and devices are not re-checked):
 * <ul>
 *   <li><b>More nodes.</b> The reference node is the node of the closest placement that holds a placed member and
 *       could hold the most copies of the first missing member when empty (or, when no member was placed and every
 *       node was excluded for lack of resources only, any node of the placement on the same rule; ties by name).
 *       The missing members, in cycle order, are packed first-fit onto empty copies of it; the number of copies
 *       is the answer. Not offered for a host-level placement ({@code kubernetes.io/hostname}), where nodes
 *       cannot be added.</li>
 *   <li><b>Preemption.</b> The victim units are the engine's ({@link VictimUnits}): a pod, or a
 *       {@code disruptionMode: PodGroup} group or a CompositePodGroup tree that goes whole, eligible when below the
 *       group's priority and not its own. For each missing member in cycle order, every node of the closest
 *       placement where it does not fit by requests is tried with the units that have a pod there evicted, those that
 *       keep every PodDisruptionBudget first, then lowest priority first (then fewest pods, then by namespace/name),
 *       until it fits; the node whose evictions break the fewest budgets wins, then the lowest highest priority, then
 *       the fewest pods evicted, then the node name (a node where evictions counted for an earlier member left room
 *       is taken first, without more). A unit is counted whole: every one of its pods frees its room wherever it
 *       runs in the placement, and it is named as one. Offered when at least one eviction helps.</li>
 * </ul>
 * The work is bounded ({@link #VISIT_BUDGET} node visits for the preemption argument), so an explanation never
 * costs more than a fraction of the cycle it explains.
 */
public final class ShortageAnalysis {
    /** Node visits the preemption argument may spend; it reports what it found by then. */
    static final int VISIT_BUDGET = 200_000;
    private static final int VICTIMS_SHOWN = 3;
    private static final String HOSTNAME = "kubernetes.io/hostname";

    /** A placement and how many members its trial placed. */
    public record Fit(String placement, int fits) {
    }

    /**
     * @param needed   members the group needs placed at once (a gang: minCount less its bound members; basic: one)
     * @param fits     every evaluated placement (all nodes, {@code *}, without a topology constraint)
     * @param closest  the placement whose trial placed the most members
     * @param excluded for the first member that fitted nowhere in the closest placement: nodes excluded per reason
     * @param remedies the smallest changes found, in words
     */
    public record Result(int needed, List<Fit> fits, String closest, Map<String, Integer> excluded,
                         List<String> remedies) {
    }

    private final SnapshotOverlay snapshot;
    private final ResourceIndex resources;

    private ShortageAnalysis(SnapshotOverlay snapshot) {
        this.snapshot = snapshot;
        this.resources = snapshot.resources();
    }

    /**
     * The shortage of a group whose cycle found nothing feasible, or null when the cycle ran no trial.
     *
     * @param snapshot          the run's overlay as the failed group left it (its trials rolled back)
     * @param needed            members the group needs placed at once
     * @param preemptorPriority the group's priority (pods below it are what preemption could evict)
     */
    public static Result of(SnapshotOverlay snapshot, AlgorithmResult result, GroupRef self, int needed,
                            int preemptorPriority) {
        AlgorithmResult.Trial closest = result == null ? null : result.closest();
        if (closest == null) {
            return null;
        }
        List<Fit> fits = new ArrayList<>();
        if (result.placements().isEmpty()) {
            fits.add(new Fit(closest.name(), closest.result().placed()));
        }
        for (PlacementReport r : result.placements()) {
            if (!r.pruned() || r.name().equals(closest.name())) {
                fits.add(new Fit(r.name(), r.placed()));
            }
        }
        List<MemberResult> missing = new ArrayList<>();
        Map<String, Integer> excluded = new TreeMap<>();
        for (MemberResult m : closest.result().members()) {
            if (!m.placed()) {
                missing.add(m);
                if (excluded.isEmpty() && m.diagnosis() != null) {
                    excluded.putAll(m.diagnosis().reasons());
                }
            }
        }
        int short_ = needed - closest.result().placed();
        List<String> remedies = new ArrayList<>();
        if (short_ > 0 && !missing.isEmpty()) {
            ShortageAnalysis s = new ShortageAnalysis(snapshot);
            List<PodInfo> pods = new ArrayList<>();
            for (int i = 0; i < missing.size() && pods.size() < short_; i++) {
                pods.add(missing.get(i).pod());
            }
            String nodes = closest.name().startsWith(HOSTNAME + "=") ? null : s.moreNodes(closest, pods, excluded);
            if (nodes != null) {
                remedies.add(nodes);
            }
            String preempt = s.preemption(closest, pods, self, preemptorPriority);
            if (preempt != null) {
                remedies.add(preempt);
            }
        }
        return new Result(needed, fits, closest.name(), excluded, remedies);
    }

    // ---------------------------------------------------------------- more nodes

    private String moreNodes(AlgorithmResult.Trial trial, List<PodInfo> pods, Map<String, Integer> excluded) {
        PodInfo first = pods.get(0);
        List<Integer> reference = new ArrayList<>();
        for (MemberResult m : trial.result().members()) {
            if (m.placed() && !reference.contains(m.node())) {
                reference.add(m.node());
            }
        }
        if (reference.isEmpty()) {
            if (excluded.isEmpty() || !resourcesOnly(excluded)) {
                return null;
            }
            for (int n : trial.nodes()) {
                reference.add(n);
            }
        }
        int best = -1;
        long bestCopies = -1;
        for (int n : reference) {
            long copies = copies(snapshot.node(n), first);
            if (copies > bestCopies || (copies == bestCopies && n < best)) {
                best = n;
                bestCopies = copies;
            }
        }
        NodeInfo like = snapshot.node(best);
        if (bestCopies == 0) {
            return "pod " + first.ref() + " requests more than node " + like.name() + " allocates ("
                    + binding(like, first) + ")";
        }
        List<long[]> opened = new ArrayList<>();
        int slots = resources.size();
        for (PodInfo p : pods) {
            boolean placed = false;
            for (long[] free : opened) {
                if (fits(free, p)) {
                    take(free, p);
                    placed = true;
                    break;
                }
            }
            if (!placed) {
                long[] free = new long[slots + 1];
                for (int r = 0; r < slots; r++) {
                    free[r] = like.allocatable(r);
                }
                free[slots] = like.allowedPodNumber();
                if (!fits(free, p)) {
                    return "pod " + p.ref() + " requests more than node " + like.name() + " allocates ("
                            + binding(like, p) + ")";
                }
                take(free, p);
                opened.add(free);
            }
        }
        return "needs " + opened.size() + " more node" + (opened.size() == 1 ? "" : "s") + " like " + like.name()
                + " (" + binding(like, first) + ")" + where(trial);
    }

    /** Whether every reason is a lack of a resource or of pod slots. */
    private static boolean resourcesOnly(Map<String, Integer> excluded) {
        for (String r : excluded.keySet()) {
            if (!r.startsWith("Insufficient ") && !r.equals("Too many pods")) {
                return false;
            }
        }
        return true;
    }

    /** How many copies of the pod an empty node like this one holds. */
    private long copies(NodeInfo n, PodInfo p) {
        long copies = n.allowedPodNumber();
        for (int r = 0; r < resources.size(); r++) {
            long req = p.request(r);
            if (req > 0) {
                copies = Math.min(copies, n.allocatable(r) / req);
            }
        }
        return Math.max(0, copies);
    }

    /** The node's allocatable of the resources that bound how many copies of the pod it holds, in words. */
    private String binding(NodeInfo n, PodInfo p) {
        long min = Long.MAX_VALUE;
        for (int r = 0; r < resources.size(); r++) {
            if (p.request(r) > 0) {
                min = Math.min(min, n.allocatable(r) / p.request(r));
            }
        }
        List<String> parts = new ArrayList<>();
        for (int r = 0; r < resources.size(); r++) {
            if (p.request(r) > 0 && n.allocatable(r) / p.request(r) == min) {
                parts.add(format(resources.name(r), n.allocatable(r)) + " " + resources.name(r));
            }
        }
        if (parts.isEmpty() || n.allowedPodNumber() < min) {
            parts.add(n.allowedPodNumber() + " pods");
        }
        return String.join(", ", parts);
    }

    // ---------------------------------------------------------------- preemption

    private String preemption(AlgorithmResult.Trial trial, List<PodInfo> pods, GroupRef self, int priority) {
        int[] nodes = trial.nodes();
        long[][] free = new long[nodes.length][];
        Map<Integer, Integer> position = new HashMap<>(nodes.length * 2);
        for (int i = 0; i < nodes.length; i++) {
            position.put(nodes[i], i);
        }
        for (MemberResult m : trial.result().members()) {
            if (m.placed()) {
                Integer i = position.get(m.node());
                if (i != null) {
                    take(free(free, i, nodes[i]), m.pod());
                }
            }
        }
        List<List<Unit<PodInfo>>> onNode = unitsByNode(nodes, position, self, priority);
        Set<Unit<PodInfo>> chosen = Collections.newSetFromMap(new IdentityHashMap<>());
        boolean[] touched = new boolean[nodes.length];
        List<Unit<PodInfo>> victims = new ArrayList<>();
        int fitted = 0;
        long visits = 0;
        for (PodInfo p : pods) {
            int bestNode = -1;
            List<Unit<PodInfo>> best = List.of();
            long[] bestCost = null;
            for (int i = 0; i < nodes.length && visits < VISIT_BUDGET; i++, visits++) {
                long[] f = free(free, i, nodes[i]);
                if (fits(f, p)) {
                    if (touched[i] && (bestCost == null || bestCost[1] > Integer.MIN_VALUE)) {
                        // Room made by evictions counted here already: no further eviction needed.
                        bestNode = i;
                        best = List.of();
                        bestCost = new long[] {0, Integer.MIN_VALUE, 0};
                    }
                    continue; // untouched: room by requests already, so something else keeps the member off it
                }
                long[] trialFree = f.clone();
                List<Unit<PodInfo>> taken = new ArrayList<>();
                long[] cost = {0, Integer.MIN_VALUE, 0}; // budget violations, highest priority, pods
                for (Unit<PodInfo> u : onNode.get(i)) {
                    if (fits(trialFree, p)) {
                        break;
                    }
                    if (chosen.contains(u)) {
                        continue;
                    }
                    for (PodInfo v : u.pods()) {
                        if (snapshot.nodeIndex(v.pod().nodeName()) == nodes[i]) {
                            give(trialFree, v);
                        }
                    }
                    taken.add(u);
                    cost[0] += u.violatesBudget() ? 1 : 0;
                    cost[1] = Math.max(cost[1], u.priority());
                    cost[2] += u.pods().size();
                }
                if (taken.isEmpty() || !fits(trialFree, p)) {
                    continue;
                }
                if (bestCost == null || Arrays.compare(cost, bestCost) < 0) {
                    bestNode = i;
                    best = taken;
                    bestCost = cost;
                }
            }
            if (bestNode < 0) {
                break;
            }
            for (Unit<PodInfo> u : best) {
                // The whole unit goes: its pods free room on every node of the placement they run on.
                chosen.add(u);
                victims.add(u);
                for (PodInfo v : u.pods()) {
                    Integer j = position.get(snapshot.nodeIndex(v.pod().nodeName()));
                    if (j != null) {
                        give(free(free, j, nodes[j]), v);
                        touched[j] = true;
                    }
                }
            }
            take(free[bestNode], p);
            touched[bestNode] = true;
            fitted++;
        }
        if (victims.isEmpty()) {
            return null;
        }
        victims.sort(Comparator.comparingInt((Unit<PodInfo> u) -> u.priority()).thenComparing(Unit::first));
        List<String> named = new ArrayList<>();
        int more = 0;
        for (int i = 0; i < victims.size(); i++) {
            if (i < VICTIMS_SHOWN) {
                named.add(name(victims.get(i)));
            } else {
                more += victims.get(i).pods().size();
            }
        }
        String who = String.join(", ", named);
        if (more > 0) {
            who += " and " + more + " more lower-priority pods";
        }
        return fitted + " of the " + pods.size() + " missing member" + (pods.size() == 1 ? "" : "s")
                + " fit" + where(trial) + " by requests if " + who + " were preempted";
    }

    /**
     * Per node of the placement, the eligible victim units with a pod on it, in the order they are evicted: those
     * whose eviction keeps every PodDisruptionBudget first, then lowest priority, fewest pods, then by reference.
     */
    private List<List<Unit<PodInfo>>> unitsByNode(int[] nodes, Map<Integer, Integer> position, GroupRef self,
                                                  int priority) {
        List<List<Unit<PodInfo>>> out = new ArrayList<>(nodes.length);
        for (int i = 0; i < nodes.length; i++) {
            out.add(new ArrayList<>());
        }
        for (Unit<PodInfo> u : snapshot.victimUnits().eligible(self, priority)) {
            for (PodInfo v : u.pods()) {
                Integer i = position.get(snapshot.nodeIndex(v.pod().nodeName()));
                List<Unit<PodInfo>> list = i == null ? null : out.get(i);
                if (list != null && (list.isEmpty() || list.get(list.size() - 1) != u)) {
                    list.add(u);
                }
            }
        }
        Comparator<Unit<PodInfo>> evictFirst = Comparator.comparing((Unit<PodInfo> u) -> u.violatesBudget())
                .thenComparingInt(Unit::priority).thenComparingInt(u -> u.pods().size()).thenComparing(Unit::first);
        for (List<Unit<PodInfo>> list : out) {
            list.sort(evictFirst);
        }
        return out;
    }

    /** A unit in words: the pod, or the group or tree that goes whole. */
    private static String name(Unit<PodInfo> u) {
        return switch (u.kind()) {
            case POD -> "pod " + u.first() + " (priority " + u.priority() + ")";
            case POD_GROUP -> "pod group " + u.owner() + " (" + u.pods().size() + " pods, priority " + u.priority()
                    + ")";
            case COMPOSITE -> "composite pod group " + u.owner() + " (" + u.pods().size() + " pods, priority "
                    + u.priority() + ")";
        };
    }

    private long[] free(long[][] free, int i, int node) {
        if (free[i] == null) {
            NodeInfo n = snapshot.node(node);
            int slots = resources.size();
            long[] f = new long[slots + 1];
            for (int r = 0; r < slots; r++) {
                f[r] = n.allocatable(r) - n.requested(r);
            }
            f[slots] = n.allowedPodNumber() - n.podCount();
            free[i] = f;
        }
        return free[i];
    }

    // ---------------------------------------------------------------- vectors: resources, then pod slots

    private boolean fits(long[] free, PodInfo p) {
        int slots = resources.size();
        if (free[slots] < 1) {
            return false;
        }
        for (int r = 0; r < slots; r++) {
            if (p.request(r) > free[r]) {
                return false;
            }
        }
        return true;
    }

    private void take(long[] free, PodInfo p) {
        int slots = resources.size();
        free[slots]--;
        for (int r = 0; r < slots; r++) {
            free[r] -= p.request(r);
        }
    }

    private void give(long[] free, PodInfo p) {
        int slots = resources.size();
        free[slots]++;
        for (int r = 0; r < slots; r++) {
            free[r] += p.request(r);
        }
    }

    private static String where(AlgorithmResult.Trial trial) {
        return "*".equals(trial.name()) ? "" : " in " + trial.name();
    }

    /** A resource amount in the units people write: cores or millicores, binary bytes, else a count. */
    static String format(String resource, long amount) {
        if (resource.equals("cpu")) {
            return amount % 1000 == 0 ? Long.toString(amount / 1000) : amount + "m";
        }
        if (resource.equals("memory") || resource.equals("ephemeral-storage") || resource.startsWith("hugepages-")) {
            String[] units = {"Ti", "Gi", "Mi", "Ki"};
            long[] sizes = {1L << 40, 1L << 30, 1L << 20, 1L << 10};
            for (int u = 0; u < units.length; u++) {
                if (amount != 0 && amount % sizes[u] == 0) {
                    return amount / sizes[u] + units[u];
                }
            }
        }
        return Long.toString(amount);
    }
}
