package dev.muster.core.cycle;

import dev.muster.core.framework.Code;
import dev.muster.core.framework.CycleState;
import dev.muster.core.framework.FrameworkRuntime;
import dev.muster.core.framework.NodeInfo;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.framework.Status;
import dev.muster.core.snapshot.SnapshotOverlay;

/**
 * One pod's evaluation over one placement: every node's verdict, raw and normalized scores and total, and the best
 * feasible node, kept in a tournament tree (highest total, the first in name order among equals). Made in full by
 * {@link PlainEvaluations}; {@link SpeedupEvaluationReuse} keeps it per pod signature and brings it up to date for
 * the next pod of an equal signature, through the package-private state below.
 */
final class PodEvaluation {
    private final FrameworkRuntime runtime;
    private final SnapshotOverlay snapshot;
    private final PlainEvaluations evaluator;
    final Placement placement;
    CycleState state;
    PodInfo pod;
    boolean[] filterSkipped;
    boolean[] scoreSkipped;
    int[] versions;          // per placement node: the snapshot node version last evaluated
    Status[] verdicts;       // per placement node: null = feasible
    long[][] raw;            // per score plugin, per placement node
    long[][] norm;           // per score plugin, per placement node (feasible nodes only)
    long[] totals;           // per placement node (feasible nodes only)
    int feasibleCount;
    boolean preFilterFailed;
    /** The first placement node whose filters erred, or {@link Integer#MAX_VALUE}. */
    final java.util.concurrent.atomic.AtomicInteger errors = new java.util.concurrent.atomic.AtomicInteger(
            Integer.MAX_VALUE);
    Status preFilterStatus;
    int seenChanges;         // the snapshot's change count when this evaluation was last brought up to date
    int[] tree;              // tournament over placement nodes: tree[1] is the best feasible node or -1
    int leaves;

    /** Node evaluations the last full evaluation or refresh cost. */
    int cost;

    PodEvaluation(PlainEvaluations evaluator, Placement placement) {
        this.runtime = evaluator.runtime;
        this.snapshot = evaluator.snapshot;
        this.evaluator = evaluator;
        this.placement = placement;
    }

    /** The best feasible node, or why there is none, with what bringing the evaluation up to date cost. */
    PodAttempt attempt() {
        if (preFilterFailed) {
            return new PodAttempt(-1, Diagnosis.preFilter(placement.nodeCount(), preFilterStatus), cost, state);
        }
        return select(cost);
    }

    /** Whether a filter erred on some node: the pod's cycle ends ({@link #throwIfErred}). */
    boolean erred() {
        return errors.get() != Integer.MAX_VALUE;
    }

    /** Evaluates every placement node for the pod: PreFilter, Filter, PreScore, Score, normalize. */
    void full(PodInfo incoming) {
        int n = placement.nodeCount();
        state = new CycleState();
        pod = incoming;
        seenChanges = snapshot.changeCount();
        filterSkipped = new boolean[runtime.filterCount()];
        Status failed = runtime.runPreFilter(state, incoming, placement, filterSkipped);
        if (failed != null) {
            preFilterFailed = true;
            preFilterStatus = failed;
            cost = 1;
            return;
        }
        versions = new int[n];
        verdicts = new Status[n];
        raw = new long[runtime.scoreCount()][n];
        norm = new long[runtime.scoreCount()][n];
        totals = new long[n];
        scoreSkipped = new boolean[runtime.scoreCount()];
        CycleState s = state;
        evaluator.forEachNode(n, i -> filterNode(s, incoming, i));
        runtime.runPreScore(state, incoming, placement, feasibleSnapshotIndices(), scoreSkipped);
        evaluator.forEachNode(n, i -> {
            if (verdicts[i] == null) {
                scoreNode(s, incoming, i);
            }
        });
        renormalize(null);
        cost = n;
    }

    /** Recomputes normalized scores (all plugins, or those flagged) and every feasible node's total. */
    void renormalize(boolean[] only) {
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
        for (int k = 0; k < runtime.scoreCount(); k++) {
            if (scoreSkipped[k] || !runtime.normalizesAcrossNodes(k) || (only != null && !only[k])) {
                continue; // a plugin that does not normalize across nodes has norm = raw already
            }
            long[] r = raw[k];
            for (int j = 0; j < f; j++) {
                buf[j] = r[at[j]];
            }
            runtime.runNormalize(k, state, pod, buf);
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

    /** Placement node i's weighted score total. */
    long total(int i) {
        return runtime.weightedTotal(norm, i, scoreSkipped);
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
    void updateTree(int i) {
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

    /** The snapshot indices of the feasible placement nodes, ascending. */
    int[] feasibleSnapshotIndices() {
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
    boolean filterNode(CycleState s, PodInfo incoming, int i) {
        int idx = placement.nodeIndex(i);
        NodeInfo node = snapshot.node(idx);
        versions[i] = snapshot.nodeVersion(idx);
        Status st = runtime.runFilter(s, incoming, node, filterSkipped);
        verdicts[i] = st;
        if (st != null && st.code() == Code.Error) {
            errors.accumulateAndGet(i, Math::min);
        }
        return st == null;
    }

    /**
     * Ends the pod's cycle when a filter erred on some node: with the error of the first such node in placement
     * order (filters run in parallel; this keeps the answer the same whatever the threads did), in
     * kube-scheduler's words.
     */
    void throwIfErred() {
        int i = errors.get();
        if (i != Integer.MAX_VALUE) {
            Status st = verdicts[i];
            throw new SchedulerErrorException("running \"" + st.plugin() + "\" filter plugin: " + st.message());
        }
    }

    private void scoreNode(CycleState s, PodInfo incoming, int i) {
        NodeInfo node = snapshot.node(placement.nodeIndex(i));
        for (int k = 0; k < runtime.scoreCount(); k++) {
            long r = runtime.runScore(k, s, incoming, node, scoreSkipped);
            raw[k][i] = r;
            if (!runtime.normalizesAcrossNodes(k)) {
                norm[k][i] = r;
            }
        }
    }

    /** The best feasible node: highest total, the first in name order among equals. */
    private PodAttempt select(int evaluations) {
        if (feasibleCount == 0) {
            return new PodAttempt(-1, Diagnosis.of(verdicts), evaluations, state);
        }
        return new PodAttempt(placement.nodeIndex(tree[1]), null, evaluations, state);
    }
}
