package dev.muster.core.choice;

import dev.muster.core.decision.DecisionEngine;
import dev.muster.core.decision.DecisionOptions;
import dev.muster.core.decision.DecisionResult;
import dev.muster.core.dra.DraObjects;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.model.ClusterState;
import dev.muster.core.model.GroupRef;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodGroup;
import dev.muster.core.model.PodRef;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.IntFunction;

/**
 * One workload decided on several clusters: the workload's objects added to each cluster's state as if created
 * there, only the workload's groups and plain pods decided (the cluster's own pending pods are not), each cluster's
 * decisions read as a {@link ClusterChoice}, and the clusters decided in parallel.
 */
public final class ClusterChoices {
    private ClusterChoices() {
    }

    /**
     * What is decided on every cluster: the workload's groups (its own, and those its pods name), its plain pending
     * pods, and the pods that must be placed for the workload to fit (pending, not gated, not terminating).
     */
    public record Selection(List<GroupRef> groups, List<PodRef> pods, Set<PodRef> expected) {
        public static Selection of(ClusterState workload) {
            Set<GroupRef> groups = new TreeSet<>();
            for (PodGroup g : workload.podGroups()) {
                groups.add(g.ref());
            }
            List<PodRef> plain = new ArrayList<>();
            Set<PodRef> expected = new HashSet<>();
            for (Pod p : workload.pods()) {
                if (p.isBound() || p.isTerminal() || p.terminating()) {
                    continue;
                }
                GroupRef g = p.groupRef();
                if (g == null) {
                    plain.add(p.ref());
                } else {
                    groups.add(g);
                }
                if (!p.isGated()) {
                    expected.add(p.ref());
                }
            }
            plain.sort(null);
            return new Selection(List.copyOf(groups), List.copyOf(plain), Set.copyOf(expected));
        }
    }

    /** The cluster's state with the workload's objects added after its own (nodes and PriorityClasses its own). */
    public static ClusterState merge(ClusterState cluster, ClusterState workload) {
        return new ClusterState(cluster.nodes(), concat(cluster.pods(), workload.pods()),
                concat(cluster.podGroups(), workload.podGroups()), cluster.priorityClasses(),
                concat(cluster.podDisruptionBudgets(), workload.podDisruptionBudgets()),
                concat(cluster.compositePodGroups(), workload.compositePodGroups()));
    }

    /** The cluster's DRA objects with the workload's claims and claim templates added. */
    public static DraObjects merge(DraObjects cluster, DraObjects workload) {
        if (workload.isEmpty()) {
            return cluster;
        }
        return new DraObjects(cluster.deviceClasses(), cluster.resourceSlices(),
                concat(cluster.resourceClaims(), workload.resourceClaims()),
                concat(cluster.resourceClaimTemplates(), workload.resourceClaimTemplates()));
    }

    /** Decides the selection on one cluster's compiled state (the workload already merged) and reads the answer. */
    public static ClusterChoice decide(DecisionEngine engine, String cluster,
                                       dev.muster.core.snapshot.ClusterSnapshot snapshot, Selection selection,
                                       DecisionOptions options, BooleanSupplier stop) {
        DecisionResult result = engine.decide(snapshot, selection.groups(), selection.pods(), options, stop);
        return ChoiceRanking.assess(cluster, result, selection.expected(), ref -> {
            PodInfo p = snapshot.pod(ref);
            return p == null ? 0 : p.effectivePriority();
        });
    }

    /**
     * {@code work(i)} for i in 0..n-1, on the calling thread and up to {@code threads - 1} more from
     * {@code executor}; the results in index order. At most {@code threads} items are in hand at once, so the memory
     * of a call is that of {@code threads} clusters. The first failure is rethrown once every item in hand is done.
     */
    public static <T> List<T> inParallel(int n, IntFunction<T> work, Executor executor, int threads) {
        Object[] out = new Object[n];
        AtomicInteger next = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(n);
        Runnable worker = () -> {
            for (int i = next.getAndIncrement(); i < n; i = next.getAndIncrement()) {
                try {
                    if (failure.get() == null) {
                        out[i] = work.apply(i);
                    }
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                } finally {
                    done.countDown();
                }
            }
        };
        for (int h = Math.min(threads, n) - 1; h > 0; h--) {
            try {
                executor.execute(worker);
            } catch (java.util.concurrent.RejectedExecutionException e) {
                break; // the calling thread does the rest
            }
        }
        worker.run();
        try {
            done.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failure.compareAndSet(null, e);
        }
        Throwable t = failure.get();
        if (t instanceof RuntimeException r) {
            throw r;
        }
        if (t instanceof Error err) {
            throw err;
        }
        if (t != null) {
            throw new IllegalStateException(t);
        }
        @SuppressWarnings("unchecked")
        List<T> list = (List<T>) Arrays.asList(out);
        return list;
    }

    private static <T> List<T> concat(List<T> a, List<T> b) {
        if (b.isEmpty()) {
            return a;
        }
        if (a.isEmpty()) {
            return b;
        }
        List<T> out = new ArrayList<>(a.size() + b.size());
        out.addAll(a);
        out.addAll(b);
        return out;
    }
}
