package dev.muster.core.plugins.nodename;

import dev.muster.core.framework.ClusterView;
import dev.muster.core.framework.CycleState;
import dev.muster.core.framework.FilterPlugin;
import dev.muster.core.framework.NodeField;
import dev.muster.core.framework.NodeInfo;
import dev.muster.core.framework.PodField;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.framework.SignPlugin;
import dev.muster.core.framework.Status;

import java.util.Set;

/**
 * A pod that names its node ({@code spec.nodeName}) fits only there. Pending pods Muster places carry no node
 * name, so in practice every node passes; the plugin exists so profiles read like upstream's. It signs pods only to
 * say that, for such a pod, it tells no two nodes apart.
 */
public final class NodeNamePlugin implements FilterPlugin, SignPlugin {
    public static final String NAME = "NodeName";
    public static final String REASON = "node(s) didn't match the requested node name";

    /** Filter reads the node the pod names (none for a pod Muster places). */
    private static final Set<PodField> READS = Set.of(PodField.NODE_NAME);

    private static final Set<NodeField> NODE_READS = Set.of(NodeField.NAME);

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Set<PodField> podFields() {
        return READS;
    }

    /** Filter reads the node's name. */
    @Override
    public Set<NodeField> nodeFields() {
        return NODE_READS;
    }

    /** Only for a pod that names a node, which this plugin does not call symmetric. */
    @Override
    public Set<NodeField> nodeKeyFields() {
        return NODE_READS;
    }

    /** Its verdict reads the node the verdict is about only. */
    @Override
    public boolean nodeLocal(PodInfo pod, ClusterView cluster) {
        return true;
    }

    /** A pod that names a node fits that one node only: alike nodes get other verdicts. */
    @Override
    public boolean symmetric(PodInfo pod, ClusterView cluster) {
        return pod.pod().nodeName() == null;
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
