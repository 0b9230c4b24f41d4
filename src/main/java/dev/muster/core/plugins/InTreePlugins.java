package dev.muster.core.plugins;

import dev.muster.core.framework.Profile;
import dev.muster.core.plugins.gangscheduling.GangSchedulingPlugin;
import dev.muster.core.plugins.nodeaffinity.NodeAffinityPlugin;
import dev.muster.core.plugins.nodename.NodeNamePlugin;
import dev.muster.core.plugins.nodeports.NodePortsPlugin;
import dev.muster.core.plugins.noderesourcesbalancedallocation.NodeResourcesBalancedAllocationPlugin;
import dev.muster.core.plugins.noderesourcesfit.NodeResourcesFitPlugin;
import dev.muster.core.plugins.nodeunschedulable.NodeUnschedulablePlugin;
import dev.muster.core.plugins.podgrouppodscount.PodGroupPodsCountPlugin;
import dev.muster.core.plugins.tainttoleration.TaintTolerationPlugin;
import dev.muster.core.plugins.topologyplacement.TopologyPlacementGeneratorPlugin;

/**
 * The one registry of in-tree plugins and the default profile, in kube-scheduler's default order and weights
 * (TaintToleration 3, NodeAffinity 2, PodTopologySpread 2, InterPodAffinity 2, NodeResourcesFit 1,
 * NodeResourcesBalancedAllocation 1; PodGroupPodsCount 1 for placements).
 */
public final class InTreePlugins {
    private InTreePlugins() {
    }

    public static Profile defaultProfile() {
        return Profile.builder()
                .add(new NodeUnschedulablePlugin())
                .add(new NodeNamePlugin())
                .add(new TaintTolerationPlugin(), 3)
                .add(new NodeAffinityPlugin(), 2)
                .add(new NodePortsPlugin())
                .add(new NodeResourcesFitPlugin(), 1)
                .add(new NodeResourcesBalancedAllocationPlugin(), 1)
                .add(new GangSchedulingPlugin())
                .add(new TopologyPlacementGeneratorPlugin())
                .add(new PodGroupPodsCountPlugin(), 1)
                .build();
    }
}
