package dev.muster.core.plugins.nodename;

import dev.muster.core.framework.CycleState;
import dev.muster.core.framework.FilterPlugin;
import dev.muster.core.framework.NodeInfo;
import dev.muster.core.framework.PodField;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.framework.Status;

import java.util.Set;

/**
 * A pod that names its node ({@code spec.nodeName}) fits only there. Pending pods Muster places carry no node
 * name, so in practice every node passes; the plugin exists so profiles read like upstream's.
 */
public final class NodeNamePlugin implements FilterPlugin {
    public static final String NAME = "NodeName";
    public static final String REASON = "node(s) didn't match the requested node name";

    /** Filter reads the node the pod names (none for a pod Muster places). */
    private static final Set<PodField> READS = Set.of(PodField.NODE_NAME);

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Set<PodField> podFields() {
        return READS;
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
        String wanted = pod.pod().nodeName();
        if (wanted == null || wanted.equals(node.name())) {
            return Status.SUCCESS;
        }
        return Status.unresolvable(NAME, REASON);
    }
}
