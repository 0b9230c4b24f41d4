package dev.muster.core.cycle;

import dev.muster.core.framework.Code;
import dev.muster.core.framework.CycleState;
import dev.muster.core.framework.FilterPlugin;
import dev.muster.core.framework.NodeInfo;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.framework.PreFilterPlugin;
import dev.muster.core.framework.PreScorePlugin;
import dev.muster.core.framework.Profile;
import dev.muster.core.framework.ScorePlugin;
import dev.muster.core.framework.Status;
import dev.muster.core.snapshot.ClusterSnapshot;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.stream.IntStream;

/**
 * The single-pod algorithm of kube-scheduler (PreFilter, Filter, PreScore, Score, normalize, select host) over one
 * placement, with two deliberate differences: every node is evaluated (no percentageOfNodesToScore sampling), and
 * ties between best-scored nodes break on the node name instead of at random, so decisions are reproducible.
 * <p>
 * Opportunistic batching: the evaluation of a pod is kept — each node's verdict, raw and normalized scores and
 * total — and the next pod with an equal, batchable {@link PodSignature} re-evaluates only the nodes whose contents
 * changed since (the snapshot's change log and node versions tell). Scores are re-normalized over all feasible
 * nodes only when a node became (in)feasible or a raw score of a plugin that normalizes across nodes changed;
 * otherwise only the changed nodes' totals are updated, and the best node, kept in a tournament tree, is found in
 * O(log n) instead of a scan. The result is the same as a full evaluation.
 * <p>
 * Filtering and scoring a full node list run in parallel chunks when a pool is given and the list is large; each
 * node's results go to its own slots, so the outcome does not depend on thread timing. Not thread-safe otherwise:
 * one instance per cycle.
 */
final class PodScheduler {
    private final ClusterSnapshot snapshot;
    private final List<PreFilterPlugin> preFilters;
    private final List<FilterPlugin> filters;
    private final List<PreScorePlugin> preScores;
    private final List<Profile.WeightedScore> scores;
    private final ForkJoinPool pool;
    private final int parallelThreshold;

    // The last evaluation.
    private PodSignature cachedSignature;
    private Placement cachedPlacement;
    private CycleState cachedState;
    private PodInfo cachedPod;
    private boolean[] filterSkipped;
    private boolean[] scoreSkipped;
    private int[] versions;          // per placement node
    private Status[] verdicts;       // per placement node: null = feasible
    private long[][] raw;            // per score plugin, per placement node
    private long[][] norm;           // per score plugin, per placement node (feasible nodes only)
    private long[] totals;           // per placement node (feasible nodes only)
    private int feasibleCount;
    private int seenChanges;         // the snapshot's change count when the evaluation was last brought up to date
    private int[] tree;              // tournament over placement nodes: tree[1] is the best feasible node or -1
    private int leaves;
    private boolean preFilterFailed;
    private Status preFilterStatus;

    PodScheduler(Profile profile, ClusterSnapshot snapshot, ForkJoinPool pool, int parallelThreshold) {
        this.snapshot = snapshot;
        this.preFilters = profile.preFilter();
        this.filters = profile.filter();
        this.preScores = profile.preScore();
        this.scores = profile.score();
        this.pool = pool;
        this.parallelThreshold = parallelThreshold;
    }

    /** Forgets the cached evaluation. */
    void invalidate() {
        cachedSignature = null;
        cachedPlacement = null;
    }

    PodAttempt schedule(PodInfo pod, Placement placement) {
        PodSignature sig = new PodSignature(pod);
        int n = placement.nodeCount();
        int evaluations;
        if (sig.batchable() && sig.equals(cachedSignature) && placement == cachedPlacement) {
            if (preFilterFailed) {
                return new PodAttempt(-1, Diagnosis.preFilter(n, preFilterStatus), 0);
            }
            evaluations = refresh(pod, placement);
        } else {
            evaluations = fullEvaluation(pod, placement, sig);
            if (preFilterFailed) {
                return new PodAttempt(-1, Diagnosis.preFilter(n, preFilterStatus), evaluations);
            }
        }
        return select(placement, evaluations);
    }

    private int fullEvaluation(PodInfo pod, Placement placement, PodSignature sig) {
        int n = placement.nodeCount();
        CycleState state = new CycleState();
        cachedSignature = sig;
        cachedPlacement = placement;
        cachedState = state;
        cachedPod = pod;
        preFilterFailed = false;
        seenChanges = snapshot.changeCount();
        filterSkipped = new boolean[filters.size()];
        for (PreFilterPlugin p : preFilters) {
            Status s = p.preFilter(state, pod, placement);
            if (s.code() == Code.Skip) {
                for (int k = 0; k < filters.size(); k++) {
                    if (filters.get(k).name().equals(p.name())) {
                        filterSkipped[k] = true;
                    }
                }
            } else if (!s.isSuccess()) {
                preFilterFailed = true;
                preFilterStatus = s.plugin() != null ? s : new Status(s.code(), s.reasons(), p.name());
                return 1;
            }
        }
        versions = new int[n];
        verdicts = new Status[n];
        raw = new long[scores.size()][n];
        norm = new long[scores.size()][n];
        totals = new long[n];
        scoreSkipped = new boolean[scores.size()];
        forEachNode(n, i -> filterNode(state, pod, placement, i));
        int[] feasibleNodes = feasibleSnapshotIndices(placement);
        for (PreScorePlugin p : preScores) {
            Status s = p.preScore(state, pod, placement, feasibleNodes);
            if (s.code() == Code.Skip) {
                for (int k = 0; k < scores.size(); k++) {
                    if (scores.get(k).plugin().name().equals(p.name())) {
                        scoreSkipped[k] = true;
                    }
                }
            }
        }
        forEachNode(n, i -> {
            if (verdicts[i] == null) {
                scoreNode(state, pod, placement, i);
            }
        });
        renormalize(null);
        return n;
    }

    /**
     * Re-evaluates the nodes that changed since the cached evaluation (the snapshot's change log names them, so
     * this costs O(changes), not O(nodes)); returns how many.
     */
    private int refresh(PodInfo pod, Placement placement) {
        int end = snapshot.changeCount();
        int changed = 0;
        boolean feasibilityChanged = false;
        boolean[] renorm = null;
        for (int c = seenChanges; c < end; c++) {
            int idx = snapshot.changedNode(c);
            int i = placement.localIndex(idx);
            if (i < 0 || versions[i] == snapshot.nodeVersion(idx)) {
                continue; // not in this placement, or already brought up to date by an earlier entry
            }
            changed++;
            boolean wasFeasible = verdicts[i] == null;
            boolean feasible = filterNode(cachedState, pod, placement, i);
            if (wasFeasible != feasible) {
                feasibilityChanged = true;
            }
            if (feasible) {
                for (int k = 0; k < scores.size(); k++) {
                    if (scoreSkipped[k]) {
                        continue;
                    }
                    long before = raw[k][i];
                    long after = scores.get(k).plugin().score(cachedState, pod, snapshot.node(idx));
                    raw[k][i] = after;
                    if (scores.get(k).plugin().normalizesAcrossNodes()) {
                        if (before != after || !wasFeasible) {
                            if (renorm == null) {
                                renorm = new boolean[scores.size()];
                            }
                            renorm[k] = true;
                        }
                    } else {
                        norm[k][i] = after;
                    }
                }
            }
            if (!feasibilityChanged && renorm == null) {
                totals[i] = total(i);
                updateTree(i);
            }
        }
        seenChanges = end;
        if (feasibilityChanged) {
            renormalize(null);
        } else if (renorm != null) {
            renormalize(renorm);
        }
        return changed;
    }

    /** Recomputes normalized scores (all plugins, or those flagged) and every feasible node's total. */
    private void renormalize(boolean[] only) {
        int n = verdicts.length;
        int[] at = new int[n];
        int f = 0;
        for (int i = 0; i < n; i++) {
            if (verdicts[i] == null) {
                at[f++] = i;
            }
        }
        feasibleCount = f;
        long[] buf = new long[f];
        for (int k = 0; k < scores.size(); k++) {
            if (scoreSkipped[k] || (only != null && !only[k])) {
                continue;
            }
            long[] r = raw[k];
            for (int j = 0; j < f; j++) {
                buf[j] = r[at[j]];
            }
            scores.get(k).plugin().normalize(cachedState, cachedPod, buf);
            long[] out = norm[k];
            for (int j = 0; j < f; j++) {
                out[at[j]] = buf[j];
            }
        }
        for (int j = 0; j < f; j++) {
            totals[at[j]] = total(at[j]);
        }
        rebuildTree();
    }

    /** Rebuilds the tournament over all placement nodes: O(n). */
    private void rebuildTree() {
        int n = verdicts.length;
        int size = 1;
        while (size < n) {
            size <<= 1;
        }
        if (tree == null || tree.length != 2 * size) {
            tree = new int[2 * size];
        }
        leaves = size;
        for (int i = 0; i < size; i++) {
            tree[size + i] = i < n && verdicts[i] == null ? i : -1;
        }
        for (int k = size - 1; k >= 1; k--) {
            tree[k] = better(tree[2 * k], tree[2 * k + 1]);
        }
    }

    /** Replays node i's verdict and total up the tournament: O(log n). */
    private void updateTree(int i) {
        int k = leaves + i;
        tree[k] = verdicts[i] == null ? i : -1;
        for (k >>= 1; k >= 1; k >>= 1) {
            tree[k] = better(tree[2 * k], tree[2 * k + 1]);
        }
    }

    /** The better of two placement nodes (-1 = none): higher total, then the lower index (name order). */
    private int better(int a, int b) {
        if (a < 0) {
            return b;
        }
        if (b < 0) {
            return a;
        }
        if (totals[a] != totals[b]) {
            return totals[a] > totals[b] ? a : b;
        }
        return Math.min(a, b);
    }

    private long total(int i) {
        long t = 0;
        for (int k = 0; k < scores.size(); k++) {
            if (!scoreSkipped[k]) {
                t += scores.get(k).weight() * norm[k][i];
            }
        }
        return t;
    }

    private void forEachNode(int n, java.util.function.IntConsumer body) {
        if (pool != null && n >= parallelThreshold) {
            int chunk = Math.max(256, n / (pool.getParallelism() * 4));
            int chunks = (n + chunk - 1) / chunk;
            pool.submit(() -> IntStream.range(0, chunks).parallel().forEach(c -> {
                int end = Math.min(n, (c + 1) * chunk);
                for (int i = c * chunk; i < end; i++) {
                    body.accept(i);
                }
            })).join();
        } else {
            for (int i = 0; i < n; i++) {
                body.accept(i);
            }
        }
    }

    private int[] feasibleSnapshotIndices(Placement placement) {
        int f = 0;
        for (Status v : verdicts) {
            if (v == null) {
                f++;
            }
        }
        int[] out = new int[f];
        for (int i = 0, k = 0; i < verdicts.length; i++) {
            if (verdicts[i] == null) {
                out[k++] = placement.nodeIndex(i);
            }
        }
        return out;
    }

    /** Runs the filters on placement node i; records the first rejection. Returns whether the node is feasible. */
    private boolean filterNode(CycleState state, PodInfo pod, Placement placement, int i) {
        int idx = placement.nodeIndex(i);
        NodeInfo node = snapshot.node(idx);
        versions[i] = snapshot.nodeVersion(idx);
        for (int k = 0; k < filters.size(); k++) {
            if (filterSkipped[k]) {
                continue;
            }
            Status s = filters.get(k).filter(state, pod, node);
            if (!s.isSuccess()) {
                verdicts[i] = s;
                return false;
            }
        }
        verdicts[i] = null;
        return true;
    }

    private void scoreNode(CycleState state, PodInfo pod, Placement placement, int i) {
        NodeInfo node = snapshot.node(placement.nodeIndex(i));
        for (int k = 0; k < scores.size(); k++) {
            raw[k][i] = scoreSkipped[k] ? 0 : scores.get(k).plugin().score(state, pod, node);
        }
    }

    /** The best feasible node: highest total, the first in name order among equals. */
    private PodAttempt select(Placement placement, int evaluations) {
        int n = verdicts.length;
        if (feasibleCount == 0) {
            Diagnosis d = new Diagnosis(n);
            for (int i = 0; i < n; i++) {
                d.add(verdicts[i]);
            }
            return new PodAttempt(-1, d, evaluations);
        }
        int best = tree[1];
        return new PodAttempt(placement.nodeIndex(best), null, evaluations);
    }

    /**
     * Feasible placement nodes for a pod ordered best first (score descending, then name): the candidates the
     * bounded search branches over. Costs a full evaluation.
     */
    int[] rankedCandidates(PodInfo pod, Placement placement) {
        invalidate();
        PodAttempt first = schedule(pod, placement);
        if (!first.fits()) {
            return new int[0];
        }
        int n = verdicts.length;
        Integer[] order = new Integer[feasibleCount];
        for (int i = 0, k = 0; i < n; i++) {
            if (verdicts[i] == null) {
                order[k++] = i;
            }
        }
        Arrays.sort(order, (a, b) -> totals[a] != totals[b] ? Long.compare(totals[b], totals[a])
                : Integer.compare(a, b));
        int[] out = new int[order.length];
        for (int j = 0; j < out.length; j++) {
            out[j] = placement.nodeIndex(order[j]);
        }
        return out;
    }
}
