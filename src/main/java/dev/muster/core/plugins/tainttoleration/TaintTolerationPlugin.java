package dev.muster.core.plugins.tainttoleration;

import dev.muster.core.framework.ClusterView;
import dev.muster.core.framework.CycleState;
import dev.muster.core.framework.FilterPlugin;
import dev.muster.core.framework.NodeField;
import dev.muster.core.framework.NodeInfo;
import dev.muster.core.framework.PodField;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.framework.PreScorePlugin;
import dev.muster.core.framework.ScorePlugin;
import dev.muster.core.framework.StateKey;
import dev.muster.core.framework.Status;
import dev.muster.core.model.Taint;
import dev.muster.core.model.TaintEffect;
import dev.muster.core.model.Toleration;
import dev.muster.core.plugins.support.NormalizeScores;
import dev.muster.core.plugins.support.TaintMatching;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Filter: a node whose NoSchedule or NoExecute taint the pod does not tolerate is out (unresolvable; the
 * reason names the first such taint). Score: fewer untolerated PreferNoSchedule taints rank higher (counted
 * against the tolerations with effect PreferNoSchedule or no effect, then normalized in reverse).
 */
public final class TaintTolerationPlugin implements FilterPlugin, PreScorePlugin, ScorePlugin {
    public static final String NAME = "TaintToleration";

    private static final StateKey<List<Toleration>> PREFER_TOLERATIONS = StateKey.of("PreScore" + NAME);

    /** Filter and PreScore read the tolerations. */
    private static final Set<PodField> READS = Set.of(PodField.TOLERATIONS);

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Set<PodField> podFields() {
        return READS;
    }

    /** Filter and Score read the node's taints. */
    @Override
    public Set<NodeField> nodeFields() {
        return Set.of(NodeField.TAINTS);
    }

    /** Upstream's reason for an untolerated taint: {@code node(s) had untolerated taint {key: value}}. */
    public static String reason(Taint taint) {
        return "node(s) had untolerated taint " + taint.render();
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
        Taint t = TaintMatching.firstUntoleratedDoNotSchedule(node.node().taints(), pod.pod().tolerations());
        return t == null ? Status.SUCCESS : Status.unresolvable(NAME, reason(t));
    }

    @Override
    public Status preScore(CycleState state, PodInfo pod, ClusterView cluster, int[] feasibleNodes) {
        List<Toleration> prefer = new ArrayList<>();
        for (Toleration t : pod.pod().tolerations()) {
            if (t.effect() == null || t.effect() == TaintEffect.PreferNoSchedule) {
                prefer.add(t);
            }
        }
        state.put(PREFER_TOLERATIONS, List.copyOf(prefer));
        return Status.SUCCESS;
    }

    /** Raw score: how many PreferNoSchedule taints of the node the pod does not tolerate. */
    @Override
    public long score(CycleState state, PodInfo pod, NodeInfo node) {
        List<Toleration> prefer = state.get(PREFER_TOLERATIONS);
        if (prefer == null) {
            prefer = List.of();
        }
        List<Taint> taints = node.node().taints();
        long count = 0;
        for (int i = 0, n = taints.size(); i < n; i++) {
            Taint t = taints.get(i);
            if (t.effect() == TaintEffect.PreferNoSchedule && !TaintMatching.tolerated(prefer, t)) {
                count++;
            }
        }
        return count;
    }

    @Override
    public boolean normalizesAcrossNodes() {
        return true;
    }

    @Override
    public void normalize(CycleState state, PodInfo pod, long[] scores) {
        NormalizeScores.defaultNormalize(scores, true);
    }
}
