package dev.muster.core.cycle;

import dev.muster.core.framework.Code;
import dev.muster.core.framework.CycleState;
import dev.muster.core.framework.FrameworkRuntime;
import dev.muster.core.framework.NodeInfo;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.framework.Status;
import dev.muster.core.model.Affinity;
import dev.muster.core.model.PodAffinityTerm;
import dev.muster.core.model.WeightedPodAffinityTerm;
import dev.muster.core.snapshot.SnapshotOverlay;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ForkJoinPool;
import java.util.stream.IntStream;

/**
 * The single-pod algorithm of kube-scheduler (PreFilter, Filter, PreScore, Score, normalize, select host) over one
 * placement, with two deliberate differences: every node is evaluated (no percentageOfNodesToScore sampling), and
 * ties between best-scored nodes break on the node name instead of at random, so decisions are reproducible.
 * <p>
 * Opportunistic batching: the evaluation of a pod is kept — each node's verdict, raw and normalized scores and
 * total — per {@link PodSignature} (the last {@value #CACHED_SIGNATURES} signatures, so members of a group's roles
 * that alternate keep theirs), and the next pod with an equal, refreshable signature re-evaluates only the nodes
 * that changed since. The snapshot's change log names them, so a refresh costs O(changes), not O(nodes):
 * <ul>
 *   <li>when neither the pod nor any pod that came or went carries pod (anti-)affinity terms, the PreFilter and
 *       PreScore state still holds and only the changed nodes are evaluated again;</li>
 *   <li>otherwise the changes reach beyond their node: PreFilter and PreScore run again (cheap: InterPodAffinity
 *       reads per-snapshot indexes), and every node sharing a topology domain with a changed node, for any
 *       topology key of the pod's terms or of the changed pods' terms, is evaluated again. Should a plugin's Skip
 *       verdict change, or a PreFilter fail, the pod gets a full evaluation instead.</li>
 * </ul>
 * Scores are re-normalized over all feasible nodes only when a node became (in)feasible or a raw score of a
 * plugin that normalizes across nodes changed; otherwise only the changed nodes' totals are updated, and the best
 * node, kept in a tournament tree, is found in O(log n). The result is the same as a full evaluation. Signatures
 * with topology spread constraints, or with resource claims that are not node-local, are evaluated in full every
 * time.
 * <p>
 * Filtering and scoring a full node list run in parallel chunks when a pool is given and the list is large; each
 * node's results go to its own slots, so the outcome does not depend on thread timing. Not thread-safe otherwise:
 * one instance per placement and run.
 */
final class PodScheduler {
    /** Evaluations kept, least recently used dropped first: bounds memory at this many × O(nodes). */
    static final int CACHED_SIGNATURES = 16;

    private final SnapshotOverlay snapshot;
    private final FrameworkRuntime runtime;
    private final ForkJoinPool pool;
    private final int parallelThreshold;
    private final Map<PodSignature, Evaluation> cache = new LinkedHashMap<>(32, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<PodSignature, Evaluation> eldest) {
            return size() > CACHED_SIGNATURES;
        }
    };
    private Evaluation last;
    private final boolean batching;

    /** @param batching false evaluates every pod in full (the reference the property tests compare against) */
    PodScheduler(FrameworkRuntime runtime, SnapshotOverlay snapshot, ForkJoinPool pool, int parallelThreshold,
                 boolean batching) {
        this.batching = batching;
        this.snapshot = snapshot;
        this.runtime = runtime;
        this.pool = pool;
        this.parallelThreshold = parallelThreshold;
    }

    /** Forgets every cached evaluation. */
    void invalidate() {
        cache.clear();
        last = null;
    }

    private PodSignature signature(PodInfo pod, Placement placement) {
        return PodSignature.of(runtime, pod, placement, batching);
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

    PodAttempt schedule(PodInfo pod, Placement placement) {
        PodSignature sig = signature(pod, placement);
        boolean refreshable = batching && sig.refreshable();
        Evaluation e = refreshable ? cache.get(sig) : null;
        if (e != null && e.placement == placement) {
            int evaluations = e.refresh(pod);
            if (evaluations >= 0) {
                endIfErred(sig, e);
                last = e;
                return e.attempt(evaluations);
            }
        }
        e = new Evaluation(placement);
        int evaluations = e.full(pod);
        endIfErred(sig, e);
        if (refreshable) {
            cache.put(sig, e);
        }
        last = e;
        return e.attempt(evaluations);
    }

    /** Throws {@link SchedulerErrorException} when a filter erred on a node; such an evaluation is not kept. */
    private void endIfErred(PodSignature sig, Evaluation e) {
        if (e.errors.get() != Integer.MAX_VALUE) {
            cache.remove(sig);
            last = null;
            e.throwIfErred();
        }
    }

    /**
     * The snapshot indices of the placement nodes where the pod passes every filter on the snapshot as it is now,
     * ascending; brought up to date the way {@link #schedule} is (only changed nodes evaluated again).
     */
    int[] feasibleNodes(PodInfo pod, Placement placement) {
        if (!schedule(pod, placement).fits()) {
            return new int[0];
        }
        Evaluation e = last;
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
        cache.remove(signature(pod, placement));
        PodAttempt first = schedule(pod, placement);
        if (!first.fits()) {
            return new int[0];
        }
        Evaluation e = last;
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

    /** One signature's evaluation over one placement: every node's verdict, raw and normalized scores and total. */
    private final class Evaluation {
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

        Evaluation(Placement placement) {
            this.placement = placement;
        }

        PodAttempt attempt(int evaluations) {
            if (preFilterFailed) {
                return new PodAttempt(-1, Diagnosis.preFilter(placement.nodeCount(), preFilterStatus), evaluations, state);
            }
            return select(evaluations);
        }

        int full(PodInfo incoming) {
            int n = placement.nodeCount();
            state = new CycleState();
            pod = incoming;
            seenChanges = snapshot.changeCount();
            filterSkipped = new boolean[runtime.filterCount()];
            Status failed = runtime.runPreFilter(state, incoming, placement, filterSkipped);
            if (failed != null) {
                preFilterFailed = true;
                preFilterStatus = failed;
                return 1;
            }
            versions = new int[n];
            verdicts = new Status[n];
            raw = new long[runtime.scoreCount()][n];
            norm = new long[runtime.scoreCount()][n];
            totals = new long[n];
            scoreSkipped = new boolean[runtime.scoreCount()];
            CycleState s = state;
            forEachNode(n, i -> filterNode(s, incoming, i));
            runtime.runPreScore(state, incoming, placement, feasibleSnapshotIndices(), scoreSkipped);
            forEachNode(n, i -> {
                if (verdicts[i] == null) {
                    scoreNode(s, incoming, i);
                }
            });
            renormalize(null);
            return n;
        }

        /**
         * Brings the evaluation up to date for another pod of the same signature; returns the node evaluations
         * it cost, or -1 when only a full evaluation will do.
         */
        int refresh(PodInfo incoming) {
            int end = snapshot.changeCount();
            if (preFilterFailed) {
                return -1; // a failed PreFilter is not cached
            }
            // more changes than nodes (other placements' cycles, rollbacks): compare versions instead of the log
            boolean many = end - seenChanges > placement.nodeCount();
            boolean reaches = incoming.pod().affinity().hasPodAffinity()
                    || snapshot.affinityChangesBetween(seenChanges, end) > 0;
            int[] dirty;
            CycleState s = state;
            if (reaches) {
                if (many) {
                    return -1;
                }
                s = new CycleState();
                boolean[] skipped = new boolean[runtime.filterCount()];
                if (runtime.runPreFilter(s, incoming, placement, skipped) != null
                        || !Arrays.equals(skipped, filterSkipped)) {
                    return -1;
                }
                dirty = dirtyWithDomains(incoming, end);
            } else {
                dirty = many ? staleNodes() : dirtyNodes(end);
            }
            seenChanges = end;
            boolean feasibilityChanged = false;
            for (int i : dirty) {
                boolean wasFeasible = verdicts[i] == null;
                if (wasFeasible != filterNode(s, incoming, i)) {
                    feasibilityChanged = true;
                }
            }
            if (reaches) {
                boolean[] skipped = new boolean[runtime.scoreCount()];
                runtime.runPreScore(s, incoming, placement, feasibleSnapshotIndices(), skipped);
                if (!Arrays.equals(skipped, scoreSkipped)) {
                    return -1;
                }
                state = s;
            }
            pod = incoming;
            boolean[] renorm = null;
            for (int i : dirty) {
                if (verdicts[i] != null) {
                    continue;
                }
                NodeInfo node = snapshot.node(placement.nodeIndex(i));
                for (int k = 0; k < runtime.scoreCount(); k++) {
                    if (scoreSkipped[k]) {
                        continue;
                    }
                    long before = raw[k][i];
                    long after = runtime.runScore(k, s, incoming, node, scoreSkipped);
                    raw[k][i] = after;
                    if (!runtime.normalizesAcrossNodes(k)) {
                        norm[k][i] = after;
                    } else if (before != after || feasibilityChanged) {
                        if (renorm == null) {
                            renorm = new boolean[runtime.scoreCount()];
                        }
                        renorm[k] = true;
                    }
                }
            }
            if (feasibilityChanged) {
                renormalize(null);
            } else if (renorm != null) {
                renormalize(renorm);
            } else {
                for (int i : dirty) {
                    if (verdicts[i] == null) {
                        totals[i] = total(i);
                    }
                    updateTree(i);
                }
            }
            return dirty.length;
        }

        /** Placement nodes whose version moved since they were evaluated: O(nodes). */
        private int[] staleNodes() {
            int n = placement.nodeCount();
            int[] out = new int[n];
            int count = 0;
            for (int i = 0; i < n; i++) {
                if (versions[i] != snapshot.nodeVersion(placement.nodeIndex(i))) {
                    out[count++] = i;
                }
            }
            return Arrays.copyOf(out, count);
        }

        /** Placement nodes changed since the last evaluation (each once), from the change log. */
        private int[] dirtyNodes(int end) {
            int[] out = new int[Math.min(end - seenChanges, placement.nodeCount())];
            int count = 0;
            for (int c = seenChanges; c < end; c++) {
                int idx = snapshot.changedNode(c);
                int i = placement.localIndex(idx);
                if (i >= 0 && versions[i] != snapshot.nodeVersion(idx)) {
                    versions[i] = snapshot.nodeVersion(idx); // marks it taken; filterNode sets it again
                    out[count++] = i;
                }
            }
            return Arrays.copyOf(out, count);
        }

        /**
         * Placement nodes changed since, plus every node in the same domain as a changed node for any topology
         * key of the pod's terms or of the changed pods' terms: the nodes whose inter-pod verdicts or scores the
         * changes can reach.
         */
        private int[] dirtyWithDomains(PodInfo incoming, int end) {
            Set<String> keys = new LinkedHashSet<>();
            addKeys(incoming.pod().affinity(), keys);
            for (int c = seenChanges; c < end; c++) {
                addKeys(snapshot.changedPod(c).pod().affinity(), keys);
            }
            boolean[] taken = new boolean[placement.nodeCount()];
            int[] out = new int[16];
            int count = 0;
            for (int c = seenChanges; c < end; c++) {
                int idx = snapshot.changedNode(c);
                int i = placement.localIndex(idx);
                if (i >= 0 && !taken[i]) {
                    taken[i] = true;
                    out = grow(out, count);
                    out[count++] = i;
                }
                Map<String, String> labels = snapshot.node(idx).node().labels();
                for (String key : keys) {
                    String value = labels.get(key);
                    int[] domain = value == null ? null : snapshot.topologyDomains(key).get(value);
                    if (domain == null) {
                        continue;
                    }
                    for (int member : domain) {
                        int j = placement.localIndex(member);
                        if (j >= 0 && !taken[j]) {
                            taken[j] = true;
                            out = grow(out, count);
                            out[count++] = j;
                        }
                    }
                }
            }
            return Arrays.copyOf(out, count);
        }

        private static int[] grow(int[] a, int count) {
            return count < a.length ? a : Arrays.copyOf(a, a.length * 2);
        }

        private static void addKeys(Affinity a, Set<String> into) {
            if (!a.hasPodAffinity()) {
                return;
            }
            for (PodAffinityTerm t : a.requiredPodAffinity()) {
                into.add(t.topologyKey());
            }
            for (PodAffinityTerm t : a.requiredPodAntiAffinity()) {
                into.add(t.topologyKey());
            }
            for (WeightedPodAffinityTerm t : a.preferredPodAffinity()) {
                into.add(t.term().topologyKey());
            }
            for (WeightedPodAffinityTerm t : a.preferredPodAntiAffinity()) {
                into.add(t.term().topologyKey());
            }
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

        private long total(int i) {
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

        private int[] feasibleSnapshotIndices() {
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
        private boolean filterNode(CycleState s, PodInfo incoming, int i) {
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
            int n = verdicts.length;
            if (feasibleCount == 0) {
                Diagnosis d = new Diagnosis(n);
                for (int i = 0; i < n; i++) {
                    d.add(verdicts[i]);
                }
                return new PodAttempt(-1, d, evaluations, state);
            }
            return new PodAttempt(placement.nodeIndex(tree[1]), null, evaluations, state);
        }
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
}
