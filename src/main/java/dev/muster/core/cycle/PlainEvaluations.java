package dev.muster.core.cycle;

import dev.muster.core.framework.FrameworkRuntime;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.snapshot.SnapshotOverlay;

import java.util.concurrent.ForkJoinPool;
import java.util.function.IntConsumer;
import java.util.stream.IntStream;

/**
 * The reference evaluator: every pod evaluated in full over every placement node, nothing kept. Filtering and scoring
 * a large placement run in parallel chunks when a pool is given; each node's results go to its own slots, so the
 * outcome does not depend on thread timing.
 */
final class PlainEvaluations implements PodEvaluations {
    final FrameworkRuntime runtime;
    final SnapshotOverlay snapshot;
    private final ForkJoinPool pool;
    private final int parallelThreshold;

    /**
     * @param pool              threads for filter/score over large placements, or null for sequential
     * @param parallelThreshold node count from which the pool is used
     */
    PlainEvaluations(FrameworkRuntime runtime, SnapshotOverlay snapshot, ForkJoinPool pool, int parallelThreshold) {
        this.runtime = runtime;
        this.snapshot = snapshot;
        this.pool = pool;
        this.parallelThreshold = parallelThreshold;
    }

    @Override
    public PodEvaluation evaluate(PodInfo pod, Placement placement) {
        PodEvaluation e = new PodEvaluation(this, placement);
        e.full(pod);
        return e;
    }

    @Override
    public void forget(PodInfo pod, Placement placement) {
        // nothing is kept
    }

    @Override
    public void clear() {
        // nothing is kept
    }

    /** Runs {@code body} for placement nodes 0 to n - 1, in parallel chunks when the placement is large. */
    void forEachNode(int n, IntConsumer body) {
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
}
