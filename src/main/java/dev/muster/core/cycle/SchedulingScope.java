package dev.muster.core.cycle;

import dev.muster.core.framework.FrameworkRuntime;
import dev.muster.core.framework.Profile;
import dev.muster.core.snapshot.SnapshotOverlay;

import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ForkJoinPool;

/**
 * What the cycles of one decision run share: the snapshot, the profile, the thread pool, one {@link Placement} per
 * node set and one {@link PodScheduler} per placement. Sharing the scheduler lets a pod reuse the evaluation of an
 * identical pod of an earlier group (scheduler_perf's thousand 3-pod gangs are one signature; with batching on, see
 * {@link SpeedupEvaluationReuse}): only the nodes that changed since are evaluated again. Node sets are keyed by
 * identity; the snapshot memoises topology domains, so a domain is the same array for every group.
 */
public final class SchedulingScope {
    private final SnapshotOverlay snapshot;
    private final FrameworkRuntime runtime;
    private final ForkJoinPool pool;
    private final int parallelThreshold;
    private final Placement all;
    private final Map<int[], Placement> placements = new IdentityHashMap<>();
    private final Map<Placement, PodScheduler> schedulers = new IdentityHashMap<>();
    private final Map<List<String>, SpeedupPlacementSymmetry.NodeClasses> nodeClasses = new HashMap<>();
    private final java.util.function.BooleanSupplier stop;
    private final boolean batching;
    private final boolean explaining;

    /**
     * @param pool              threads for filter/score over large placements, or null for sequential
     * @param parallelThreshold node count from which the pool is used
     */
    public SchedulingScope(SnapshotOverlay snapshot, Profile profile, ForkJoinPool pool, int parallelThreshold) {
        this(snapshot, profile, pool, parallelThreshold, () -> false);
    }

    /** @param stop polled between members and between candidate placements; true stops the run */
    public SchedulingScope(SnapshotOverlay snapshot, Profile profile, ForkJoinPool pool, int parallelThreshold,
                           java.util.function.BooleanSupplier stop) {
        this(snapshot, profile, pool, parallelThreshold, stop, true);
    }

    /** @param batching whether schedulers keep evaluations per signature (false: every pod in full) */
    public SchedulingScope(SnapshotOverlay snapshot, Profile profile, ForkJoinPool pool, int parallelThreshold,
                           java.util.function.BooleanSupplier stop, boolean batching) {
        this(snapshot, profile, pool, parallelThreshold, stop, batching, false);
    }

    /**
     * @param explaining whether decisions carry an explanation, which reports every candidate placement: then every
     *                   candidate is tried, even after one no later candidate can outrank
     */
    public SchedulingScope(SnapshotOverlay snapshot, Profile profile, ForkJoinPool pool, int parallelThreshold,
                           java.util.function.BooleanSupplier stop, boolean batching, boolean explaining) {
        this.stop = stop;
        this.batching = batching;
        this.explaining = explaining;
        this.snapshot = snapshot;
        this.runtime = profile.runtime();
        this.pool = pool;
        this.parallelThreshold = parallelThreshold;
        this.all = Placement.allNodes(snapshot);
    }

    /**
     * Whether work may be shared between equal pods and equivalent placements: whether the {@code Speedup*}
     * decorators run over the plain evaluator and trial runner (false: every pod and candidate is evaluated in full,
     * the reference the property tests compare against).
     */
    boolean batching() {
        return batching;
    }

    /**
     * Whether candidate placements may stop being tried once one cannot be outranked (false when batching is off,
     * the reference, or when decisions explain themselves and so report every candidate).
     */
    boolean stopsAtUnbeatable() {
        return batching && !explaining;
    }

    /** Throws {@link CycleAbortedException} when the caller asked to stop. */
    public void checkStop() {
        if (stop.getAsBoolean()) {
            throw new CycleAbortedException();
        }
    }

    public SnapshotOverlay snapshot() {
        return snapshot;
    }

    /** The profile's plugins, run per extension point. */
    public FrameworkRuntime runtime() {
        return runtime;
    }

    /** Every node of the snapshot. */
    public Placement allNodes() {
        return all;
    }

    /** The snapshot indices of every node, ascending (the array {@link #allNodes()} uses). */
    int[] allNodeIndices() {
        return all.nodeIndices();
    }

    /** The placement for a node set (ascending snapshot indices), the same object for the same array. */
    Placement placement(String name, int[] nodes) {
        if (nodes == all.nodeIndices()) {
            return all;
        }
        return placements.computeIfAbsent(nodes, n -> new Placement(name, snapshot, n));
    }

    /**
     * Node classes for members selecting nodes by these label keys, kept for the decision
     * ({@link SpeedupPlacementSymmetry}).
     */
    SpeedupPlacementSymmetry.NodeClasses nodeClasses(List<String> selectedKeys) {
        return nodeClasses.computeIfAbsent(selectedKeys,
                k -> new SpeedupPlacementSymmetry.NodeClasses(snapshot, runtime, all, selectedKeys));
    }

    PodScheduler scheduler(Placement placement) {
        return schedulers.computeIfAbsent(placement, p -> new PodScheduler(runtime, snapshot, pool, parallelThreshold,
                batching));
    }
}
