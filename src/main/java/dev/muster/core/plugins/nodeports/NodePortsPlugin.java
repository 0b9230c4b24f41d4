package dev.muster.core.plugins.nodeports;

import dev.muster.core.framework.ClusterView;
import dev.muster.core.framework.CycleState;
import dev.muster.core.framework.FilterPlugin;
import dev.muster.core.framework.NodeField;
import dev.muster.core.framework.NodeInfo;
import dev.muster.core.framework.PodField;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.framework.PreFilterPlugin;
import dev.muster.core.framework.Status;
import dev.muster.core.model.HostPort;

import java.util.List;
import java.util.Set;

/**
 * A pod's host ports must be free on the node: no pod there (bound or assumed) may hold the same protocol and
 * port on an overlapping host IP. Preemption can free a port, so the rejection is Unschedulable.
 */
public final class NodePortsPlugin implements PreFilterPlugin, FilterPlugin {
    public static final String NAME = "NodePorts";
    public static final String REASON = "node(s) didn't have free ports for the requested pod ports";

    /** PreFilter and Filter read the host ports. */
    private static final Set<PodField> READS = Set.of(PodField.HOST_PORTS);

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Set<PodField> podFields() {
        return READS;
    }

    /** Filter reads the host ports the node's pods hold. */
    @Override
    public Set<NodeField> nodeFields() {
        return Set.of(NodeField.USED_PORTS);
    }

    @Override
    public Status preFilter(CycleState state, PodInfo pod, ClusterView cluster) {
        return pod.pod().hostPorts().isEmpty() ? Status.SKIP : Status.SUCCESS;
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
        List<HostPort> wanted = pod.pod().hostPorts();
        if (wanted.isEmpty()) {
            return Status.SUCCESS;
        }
        List<HostPort> used = node.usedPorts();
        for (int i = 0, n = wanted.size(); i < n; i++) {
            HostPort w = wanted.get(i);
            if (w.port() <= 0) {
                continue;
            }
            for (int j = 0, m = used.size(); j < m; j++) {
                if (w.conflicts(used.get(j))) {
                    return Status.unschedulable(NAME, REASON);
                }
            }
        }
        return Status.SUCCESS;
    }
}
