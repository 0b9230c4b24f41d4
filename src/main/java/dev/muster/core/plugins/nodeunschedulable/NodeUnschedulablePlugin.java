package dev.muster.core.plugins.nodeunschedulable;

import dev.muster.core.framework.CycleState;
import dev.muster.core.framework.FilterPlugin;
import dev.muster.core.framework.NodeField;
import dev.muster.core.framework.NodeInfo;
import dev.muster.core.framework.PodField;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.framework.Status;
import dev.muster.core.model.Taint;
import dev.muster.core.model.TaintEffect;
import dev.muster.core.plugins.support.TaintMatching;

import java.util.Set;

/**
 * Keeps pods off cordoned nodes ({@code spec.unschedulable}), unless the pod tolerates the
 * {@code node.kubernetes.io/unschedulable:NoSchedule} taint the node lifecycle controller puts there. Preemption
 * cannot uncordon a node, so the rejection is unresolvable.
 */
public final class NodeUnschedulablePlugin implements FilterPlugin {
    public static final String NAME = "NodeUnschedulable";
    public static final String REASON = "node(s) were unschedulable";
    public static final String TAINT_KEY = "node.kubernetes.io/unschedulable";

    private static final Taint UNSCHEDULABLE_TAINT = new Taint(TAINT_KEY, "", TaintEffect.NoSchedule);

    /** Filter reads whether the pod tolerates the unschedulable taint. */
    private static final Set<PodField> READS = Set.of(PodField.TOLERATIONS);

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Set<PodField> podFields() {
        return READS;
    }

    /** Filter reads whether the node is cordoned. */
    @Override
    public Set<NodeField> nodeFields() {
        return Set.of(NodeField.UNSCHEDULABLE);
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
        if (!node.node().unschedulable()) {
            return Status.SUCCESS;
        }
        if (TaintMatching.tolerated(pod.pod().tolerations(), UNSCHEDULABLE_TAINT)) {
            return Status.SUCCESS;
        }
        return Status.unresolvable(NAME, REASON);
    }
}
