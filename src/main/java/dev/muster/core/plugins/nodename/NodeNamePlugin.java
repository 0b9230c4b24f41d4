package dev.muster.core.plugins.nodename;

import dev.muster.core.framework.CycleState;
import dev.muster.core.framework.FilterPlugin;
import dev.muster.core.framework.NodeInfo;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.framework.Status;

/**
 * A pod that names its node ({@code spec.nodeName}) fits only there. Pending pods Muster places carry no node
 * name, so in practice every node passes; the plugin exists so profiles read like upstream's.
 */
public final class NodeNamePlugin implements FilterPlugin {
    public static final String NAME = "NodeName";
    public static final String REASON = "node(s) didn't match the requested node name";

    @Override
    public String name() {
        return NAME;
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
