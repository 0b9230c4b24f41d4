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

import java.util.List;

/**
 * The single-pod algorithm of kube-scheduler (PreFilter, Filter, PreScore, Score, normalize, select host) over one
 * placement, with two deliberate differences: every node is evaluated (no percentageOfNodesToScore sampling), and
 * ties between best-scored nodes break on the node name instead of at random, so decisions are reproducible.
 * <p>
 * Opportunistic batching: the result for a pod is kept, and the next pod with an equal, batchable
 * {@link PodSignature} re-evaluates only the nodes whose contents changed since (tracked with the snapshot's
 * node versions), then re-normalizes scores over all feasible nodes. Not thread-safe: one per cycle.
 */
final class PodScheduler {
    private final Profile profile;
    private final ClusterSnapshot snapshot;
    private final List<PreFilterPlugin> preFilters;
    private final List<FilterPlugin> filters;
    private final List<PreScorePlugin> preScores;
    private final List<dev.muster.core.framework.Profile.WeightedScore> scores;

    // Cache of the last evaluation.
    private PodSignature cachedSignature;
    private Placement cachedPlacement;
    private CycleState cachedState;
    private boolean[] filterSkipped;
    private boolean[] scoreSkipped;
    private int[] versions;          // per placement node
    private Status[] verdicts;       // per placement node: null = feasible
    private long[][] raw;            // per score plugin, per placement node
    private boolean cachedPreFilterFailed;
    private Status cachedPreFilterStatus;

    PodScheduler(Profile profile, ClusterSnapshot snapshot) {
        this.profile = profile;
        this.snapshot = snapshot;
        this.preFilters = profile.preFilter();
        this.filters = profile.filter();
        this.preScores = profile.preScore();
        this.scores = profile.score();
    }

    Profile profile() {
        return profile;
    }

    /** Forgets the cached evaluation (the caller changed something the node versions do not show). */
    void invalidate() {
        cachedSignature = null;
        cachedPlacement = null;
    }

    PodAttempt schedule(PodInfo pod, Placement placement) {
        PodSignature sig = new PodSignature(pod);
        int n = placement.nodeCount();
        int evaluations;
        if (sig.batchable() && sig.equals(cachedSignature) && placement == cachedPlacement) {
            if (cachedPreFilterFailed) {
                return new PodAttempt(-1, Diagnosis.preFilter(n, cachedPreFilterStatus), 0);
            }
            evaluations = 0;
            for (int i = 0; i < n; i++) {
                int idx = placement.nodeIndex(i);
                if (versions[i] != snapshot.nodeVersion(idx)) {
                    evaluate(cachedState, pod, placement, i);
                    evaluations++;
                }
            }
        } else {
            evaluations = fullEvaluation(pod, placement, sig);
            if (cachedPreFilterFailed) {
                return new PodAttempt(-1, Diagnosis.preFilter(n, cachedPreFilterStatus), evaluations);
            }
        }
        return select(pod, placement, evaluations);
    }

    private int fullEvaluation(PodInfo pod, Placement placement, PodSignature sig) {
        int n = placement.nodeCount();
        CycleState state = new CycleState();
        cachedSignature = sig;
        cachedPlacement = placement;
        cachedState = state;
        cachedPreFilterFailed = false;
        filterSkipped = new boolean[filters.size()];
        for (PreFilterPlugin p : preFilters) {
            Status s = p.preFilter(state, pod, placement);
            if (s.code() == Code.Skip) {
                markSkipped(p.name());
            } else if (!s.isSuccess()) {
                cachedPreFilterFailed = true;
                cachedPreFilterStatus = s.code() == Code.Error ? s
                        : new Status(s.code(), s.reasons(), p.name());
                return 1;
            }
        }
        versions = new int[n];
        verdicts = new Status[n];
        raw = new long[scores.size()][n];
        scoreSkipped = new boolean[scores.size()];
        // Filter every node, then PreScore once with the feasible ones, then score them.
        int feasible = 0;
        for (int i = 0; i < n; i++) {
            if (filterNode(state, pod, placement, i)) {
                feasible++;
            }
        }
        int[] feasibleNodes = new int[feasible];
        for (int i = 0, k = 0; i < n; i++) {
            if (verdicts[i] == null) {
                feasibleNodes[k++] = placement.nodeIndex(i);
            }
        }
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
        for (int i = 0; i < n; i++) {
            if (verdicts[i] == null) {
                scoreNode(state, pod, placement, i);
            }
        }
        return n;
    }

    private void markSkipped(String plugin) {
        for (int k = 0; k < filters.size(); k++) {
            if (filters.get(k).name().equals(plugin)) {
                filterSkipped[k] = true;
            }
        }
    }

    private void evaluate(CycleState state, PodInfo pod, Placement placement, int i) {
        if (filterNode(state, pod, placement, i)) {
            scoreNode(state, pod, placement, i);
        }
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

    private PodAttempt select(PodInfo pod, Placement placement, int evaluations) {
        int n = placement.nodeCount();
        int feasible = 0;
        for (int i = 0; i < n; i++) {
            if (verdicts[i] == null) {
                feasible++;
            }
        }
        if (feasible == 0) {
            Diagnosis d = new Diagnosis(n);
            for (int i = 0; i < n; i++) {
                d.add(verdicts[i]);
            }
            return new PodAttempt(-1, d, evaluations);
        }
        int[] at = new int[feasible];
        for (int i = 0, k = 0; i < n; i++) {
            if (verdicts[i] == null) {
                at[k++] = i;
            }
        }
        long[] total = new long[feasible];
        long[] buf = new long[feasible];
        for (int k = 0; k < scores.size(); k++) {
            if (scoreSkipped[k]) {
                continue;
            }
            long[] r = raw[k];
            for (int j = 0; j < feasible; j++) {
                buf[j] = r[at[j]];
            }
            ScorePlugin plugin = scores.get(k).plugin();
            plugin.normalize(cachedState, pod, buf);
            int w = scores.get(k).weight();
            for (int j = 0; j < feasible; j++) {
                total[j] += w * buf[j];
            }
        }
        int best = 0;
        for (int j = 1; j < feasible; j++) {
            if (total[j] > total[best]) {
                best = j;
            }
        }
        return new PodAttempt(placement.nodeIndex(at[best]), null, evaluations);
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
        int n = placement.nodeCount();
        int feasible = 0;
        for (int i = 0; i < n; i++) {
            if (verdicts[i] == null) {
                feasible++;
            }
        }
        int[] at = new int[feasible];
        for (int i = 0, k = 0; i < n; i++) {
            if (verdicts[i] == null) {
                at[k++] = i;
            }
        }
        long[] total = new long[feasible];
        long[] buf = new long[feasible];
        for (int k = 0; k < scores.size(); k++) {
            if (scoreSkipped[k]) {
                continue;
            }
            for (int j = 0; j < feasible; j++) {
                buf[j] = raw[k][at[j]];
            }
            scores.get(k).plugin().normalize(cachedState, pod, buf);
            for (int j = 0; j < feasible; j++) {
                total[j] += scores.get(k).weight() * buf[j];
            }
        }
        Integer[] order = new Integer[feasible];
        for (int j = 0; j < feasible; j++) {
            order[j] = j;
        }
        java.util.Arrays.sort(order, (a, b) -> total[a] != total[b] ? Long.compare(total[b], total[a])
                : Integer.compare(at[a], at[b]));
        int[] out = new int[feasible];
        for (int j = 0; j < feasible; j++) {
            out[j] = placement.nodeIndex(at[order[j]]);
        }
        return out;
    }
}
