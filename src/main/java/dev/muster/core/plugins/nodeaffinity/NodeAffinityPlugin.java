package dev.muster.core.plugins.nodeaffinity;

import dev.muster.core.framework.ClusterView;
import dev.muster.core.framework.CycleState;
import dev.muster.core.framework.FilterPlugin;
import dev.muster.core.framework.NodeField;
import dev.muster.core.framework.NodeInfo;
import dev.muster.core.framework.PodField;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.framework.PreFilterPlugin;
import dev.muster.core.framework.PreScorePlugin;
import dev.muster.core.framework.ScorePlugin;
import dev.muster.core.framework.SignPlugin;
import dev.muster.core.framework.StateKey;
import dev.muster.core.framework.Status;
import dev.muster.core.model.NodeSelectorTerm;
import dev.muster.core.model.PreferredSchedulingTerm;
import dev.muster.core.plugins.support.NormalizeScores;
import dev.muster.core.plugins.support.RequiredNodeAffinity;

import java.util.List;
import java.util.Set;

/**
 * Filter: the node must satisfy the pod's {@code nodeSelector} and required node affinity (unresolvable
 * otherwise). Score: the sum of the weights of the preferred node affinity terms the node matches, scaled so the
 * best node gets 100.
 */
public final class NodeAffinityPlugin implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin,
        SignPlugin {
    public static final String NAME = "NodeAffinity";
    public static final String REASON = "node(s) didn't match Pod's node affinity/selector";

    private static final StateKey<RequiredNodeAffinity> REQUIRED = StateKey.of("PreFilter" + NAME);

    /** The node selector and the required and preferred node affinity. */
    private static final Set<PodField> READS = Set.of(PodField.NODE_SELECTOR, PodField.AFFINITY);

    private static final Set<NodeField> NODE_READS = Set.of(NodeField.LABELS, NodeField.NAME);

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Set<PodField> podFields() {
        return READS;
    }

    /** Filter and Score read the node's labels, and its name for a term with {@code matchFields}. */
    @Override
    public Set<NodeField> nodeFields() {
        return NODE_READS;
    }

    /**
     * Both tell nodes apart only as placement symmetry already does: the labels are read under the keys the pod
     * selects nodes by, which symmetry compares for each group's members, and the name only for a pod with
     * {@code matchFields}, which this plugin does not call symmetric.
     */
    @Override
    public Set<NodeField> nodeKeyFields() {
        return NODE_READS;
    }

    /** Its verdicts read the node's own labels and name only. */
    @Override
    public boolean nodeLocal(PodInfo pod, ClusterView cluster) {
        return true;
    }

    /**
     * A term with {@code matchFields} selects nodes by name ({@code metadata.name}), which no look of a node covers:
     * two nodes that look alike are then not interchangeable for the pod.
     */
    @Override
    public boolean symmetric(PodInfo pod, ClusterView cluster) {
        for (NodeSelectorTerm t : pod.pod().affinity().nodeTerms()) {
            if (!t.matchFields().isEmpty()) {
                return false;
            }
        }
        return true;
    }

    @Override
    public Status preFilter(CycleState state, PodInfo pod, ClusterView cluster) {
        RequiredNodeAffinity required = RequiredNodeAffinity.of(pod.pod());
        if (required.isEmpty()) {
            return Status.SKIP;
        }
        state.put(REQUIRED, required);
        return Status.SUCCESS;
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
        RequiredNodeAffinity required = state.get(REQUIRED);
        if (required == null) {
            required = RequiredNodeAffinity.of(pod.pod());
        }
        return required.matches(node.node()) ? Status.SUCCESS : Status.unresolvable(NAME, REASON);
    }

    @Override
    public Status preScore(CycleState state, PodInfo pod, ClusterView cluster, int[] feasibleNodes) {
        return pod.pod().affinity().preferredNodeTerms().isEmpty() ? Status.SKIP : Status.SUCCESS;
    }

    @Override
    public long score(CycleState state, PodInfo pod, NodeInfo node) {
        List<PreferredSchedulingTerm> preferred = pod.pod().affinity().preferredNodeTerms();
        long sum = 0;
        for (int i = 0, n = preferred.size(); i < n; i++) {
            PreferredSchedulingTerm t = preferred.get(i);
            if (t.weight() != 0 && RequiredNodeAffinity.termMatches(t.preference(), node.node())) {
                sum += t.weight();
            }
        }
        return sum;
    }

    @Override
    public boolean normalizesAcrossNodes() {
        return true;
    }

    @Override
    public void normalize(CycleState state, PodInfo pod, long[] scores) {
        NormalizeScores.defaultNormalize(scores, false);
    }
}
