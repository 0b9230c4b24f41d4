package dev.muster.core.cycle;

import dev.muster.core.framework.CycleState;
import dev.muster.core.framework.FrameworkRuntime;
import dev.muster.core.framework.NodeInfo;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.model.Affinity;
import dev.muster.core.model.PodAffinityTerm;
import dev.muster.core.model.WeightedPodAffinityTerm;
import dev.muster.core.snapshot.SnapshotOverlay;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * Evaluation reuse (opportunistic batching) over the plain evaluator: the evaluation of a pod is kept, each node's
 * verdict, raw and normalized scores and total, per {@link PodSignature} (the last {@value #CACHED_SIGNATURES}
 * signatures, so members of a group's roles that alternate keep theirs), and the next pod with an equal, refreshable
 * signature re-evaluates only the nodes that changed since. The snapshot's change log names them, so a refresh costs
 * O(changes), not O(nodes):
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
 */
final class SpeedupEvaluationReuse implements PodEvaluations {
    /** Evaluations kept, least recently used dropped first: bounds memory at this many × O(nodes). */
    static final int CACHED_SIGNATURES = 16;

    private final PlainEvaluations plain;
    private final FrameworkRuntime runtime;
    private final SnapshotOverlay snapshot;
    private final Map<PodSignature, PodEvaluation> cache = new LinkedHashMap<>(32, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<PodSignature, PodEvaluation> eldest) {
            return size() > CACHED_SIGNATURES;
        }
    };

    SpeedupEvaluationReuse(PlainEvaluations plain) {
        this.plain = plain;
        this.runtime = plain.runtime;
        this.snapshot = plain.snapshot;
    }

    private PodSignature signature(PodInfo pod, Placement placement) {
        return PodSignature.of(runtime, pod, placement, true);
    }

    @Override
    public PodEvaluation evaluate(PodInfo pod, Placement placement) {
        PodSignature sig = signature(pod, placement);
        boolean refreshable = sig.refreshable();
        PodEvaluation e = refreshable ? cache.get(sig) : null;
        if (e != null && e.placement == placement) {
            int evaluations = refresh(e, pod);
            if (evaluations >= 0) {
                e.cost = evaluations;
                if (e.erred()) {
                    cache.remove(sig);
                }
                return e;
            }
        }
        e = plain.evaluate(pod, placement);
        if (e.erred()) {
            cache.remove(sig);
        } else if (refreshable) {
            cache.put(sig, e);
        }
        return e;
    }

    @Override
    public void forget(PodInfo pod, Placement placement) {
        cache.remove(signature(pod, placement));
    }

    @Override
    public void clear() {
        cache.clear();
    }

    /**
     * Brings the evaluation up to date for another pod of the same signature; returns the node evaluations
     * it cost, or -1 when only a full evaluation will do.
     */
    private int refresh(PodEvaluation e, PodInfo incoming) {
        int end = snapshot.changeCount();
        if (e.preFilterFailed) {
            return -1; // a failed PreFilter is not cached
        }
        // more changes than nodes (other placements' cycles, rollbacks): compare versions instead of the log
        boolean many = end - e.seenChanges > e.placement.nodeCount();
        boolean reaches = incoming.pod().affinity().hasPodAffinity()
                || snapshot.affinityChangesBetween(e.seenChanges, end) > 0;
        int[] dirty;
        CycleState s = e.state;
        if (reaches) {
            if (many) {
                return -1;
            }
            s = new CycleState();
            boolean[] skipped = new boolean[runtime.filterCount()];
            if (runtime.runPreFilter(s, incoming, e.placement, skipped) != null
                    || !Arrays.equals(skipped, e.filterSkipped)) {
                return -1;
            }
            dirty = dirtyWithDomains(e, incoming, end);
        } else {
            dirty = many ? staleNodes(e) : dirtyNodes(e, end);
        }
        e.seenChanges = end;
        boolean feasibilityChanged = false;
        for (int i : dirty) {
            boolean wasFeasible = e.verdicts[i] == null;
            if (wasFeasible != e.filterNode(s, incoming, i)) {
                feasibilityChanged = true;
            }
        }
        if (reaches) {
            boolean[] skipped = new boolean[runtime.scoreCount()];
            runtime.runPreScore(s, incoming, e.placement, e.feasibleSnapshotIndices(), skipped);
            if (!Arrays.equals(skipped, e.scoreSkipped)) {
                return -1;
            }
            e.state = s;
        }
        e.pod = incoming;
        boolean[] renorm = null;
        for (int i : dirty) {
            if (e.verdicts[i] != null) {
                continue;
            }
            NodeInfo node = snapshot.node(e.placement.nodeIndex(i));
            for (int k = 0; k < runtime.scoreCount(); k++) {
                if (e.scoreSkipped[k]) {
                    continue;
                }
                long before = e.raw[k][i];
                long after = runtime.runScore(k, s, incoming, node, e.scoreSkipped);
                e.raw[k][i] = after;
                if (!runtime.normalizesAcrossNodes(k)) {
                    e.norm[k][i] = after;
                } else if (before != after || feasibilityChanged) {
                    if (renorm == null) {
                        renorm = new boolean[runtime.scoreCount()];
                    }
                    renorm[k] = true;
                }
            }
        }
        if (feasibilityChanged) {
            e.renormalize(null);
        } else if (renorm != null) {
            e.renormalize(renorm);
        } else {
            for (int i : dirty) {
                if (e.verdicts[i] == null) {
                    e.totals[i] = e.total(i);
                }
                e.updateTree(i);
            }
        }
        return dirty.length;
    }

    /** Placement nodes whose version moved since they were evaluated: O(nodes). */
    private int[] staleNodes(PodEvaluation e) {
        int n = e.placement.nodeCount();
        int[] out = new int[n];
        int count = 0;
        for (int i = 0; i < n; i++) {
            if (e.versions[i] != snapshot.nodeVersion(e.placement.nodeIndex(i))) {
                out[count++] = i;
            }
        }
        return Arrays.copyOf(out, count);
    }

    /** Placement nodes changed since the last evaluation (each once), from the change log. */
    private int[] dirtyNodes(PodEvaluation e, int end) {
        int[] out = new int[Math.min(end - e.seenChanges, e.placement.nodeCount())];
        int count = 0;
        for (int c = e.seenChanges; c < end; c++) {
            int idx = snapshot.changedNode(c);
            int i = e.placement.localIndex(idx);
            if (i >= 0 && e.versions[i] != snapshot.nodeVersion(idx)) {
                e.versions[i] = snapshot.nodeVersion(idx); // marks it taken; filterNode sets it again
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
    private int[] dirtyWithDomains(PodEvaluation e, PodInfo incoming, int end) {
        Set<String> keys = new LinkedHashSet<>();
        addKeys(incoming.pod().affinity(), keys);
        for (int c = e.seenChanges; c < end; c++) {
            addKeys(snapshot.changedPod(c).pod().affinity(), keys);
        }
        boolean[] taken = new boolean[e.placement.nodeCount()];
        int[] out = new int[16];
        int count = 0;
        for (int c = e.seenChanges; c < end; c++) {
            int idx = snapshot.changedNode(c);
            int i = e.placement.localIndex(idx);
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
                    int j = e.placement.localIndex(member);
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
}
