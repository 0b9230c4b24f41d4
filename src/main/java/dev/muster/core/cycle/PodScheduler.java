package dev.muster.core.cycle;

import dev.muster.core.framework.FrameworkRuntime;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.framework.Status;
import dev.muster.core.snapshot.SnapshotOverlay;

import java.util.Arrays;
import java.util.concurrent.ForkJoinPool;

/**
 * The single-pod algorithm of kube-scheduler (PreFilter, Filter, PreScore, Score, normalize, select host) over one
 * placement, with two deliberate differences: every node is evaluated (no percentageOfNodesToScore sampling), and
 * ties between best-scored nodes break on the node name instead of at random, so decisions are reproducible.
 * <p>
 * The evaluations come from {@link PlainEvaluations} (every pod in full), or with batching on from
 * {@link SpeedupEvaluationReuse} over it (an evaluation kept per pod signature and brought up to date from the nodes
 * that changed); both give the same evaluation ({@link PodEvaluation}). Not thread-safe: one instance per placement
 * and run.
 */
final class PodScheduler {
    private final PodEvaluations evaluations;
    private PodEvaluation last;

    /**
     * @param batching false evaluates every pod in full (the reference the property tests compare against)
     */
    PodScheduler(FrameworkRuntime runtime, SnapshotOverlay snapshot, ForkJoinPool pool, int parallelThreshold,
                 boolean batching) {
        PlainEvaluations plain = new PlainEvaluations(runtime, snapshot, pool, parallelThreshold);
        this.evaluations = batching ? new SpeedupEvaluationReuse(plain) : plain;
    }

    /** Forgets every kept evaluation. */
    void invalidate() {
        evaluations.clear();
        last = null;
    }

    /**
     * The last evaluation's verdicts (null: feasible) and weighted score totals per placement node, copies; null
     * before any. What the tests that hold the pod signature to the plugins' reads compare.
     */
    Status[] lastVerdicts() {
        return last == null ? null : last.verdicts.clone();
    }

    long[] lastTotals() {
        return last == null || last.totals == null ? null : last.totals.clone();
    }

    /**
     * The pod's best node over the placement, or why it fits nowhere. Throws {@link SchedulerErrorException} when a
     * filter erred on a node.
     */
    PodAttempt schedule(PodInfo pod, Placement placement) {
        PodEvaluation e = evaluations.evaluate(pod, placement);
        if (e.erred()) {
            last = null;
            e.throwIfErred();
        }
        last = e;
        return e.attempt();
    }

    /**
     * The snapshot indices of the placement nodes where the pod passes every filter on the snapshot as it is now,
     * ascending; brought up to date the way {@link #schedule} is (only changed nodes evaluated again).
     */
    int[] feasibleNodes(PodInfo pod, Placement placement) {
        if (!schedule(pod, placement).fits()) {
            return new int[0];
        }
        PodEvaluation e = last;
        int[] out = new int[e.feasibleCount];
        for (int i = 0, k = 0; i < e.verdicts.length; i++) {
            if (e.verdicts[i] == null) {
                out[k++] = placement.nodeIndex(i);
            }
        }
        return out;
    }

    /**
     * Feasible placement nodes for a pod ordered best first (score descending, then name): the candidates the
     * bounded search branches over. Costs a full evaluation.
     */
    int[] rankedCandidates(PodInfo pod, Placement placement) {
        evaluations.forget(pod, placement);
        PodAttempt first = schedule(pod, placement);
        if (!first.fits()) {
            return new int[0];
        }
        PodEvaluation e = last;
        int n = e.verdicts.length;
        Integer[] order = new Integer[e.feasibleCount];
        for (int i = 0, k = 0; i < n; i++) {
            if (e.verdicts[i] == null) {
                order[k++] = i;
            }
        }
        long[] totals = e.totals;
        Arrays.sort(order, (a, b) -> totals[a] != totals[b] ? Long.compare(totals[b], totals[a])
                : Integer.compare(a, b));
        int[] out = new int[order.length];
        for (int j = 0; j < out.length; j++) {
            out[j] = placement.nodeIndex(order[j]);
        }
        return out;
    }
}
