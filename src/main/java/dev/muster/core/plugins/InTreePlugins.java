package dev.muster.core.plugins;

import dev.muster.core.framework.Plugin;
import dev.muster.core.framework.Profile;
import dev.muster.core.plugins.defaultpreemption.DefaultPreemptionPlugin;
import dev.muster.core.plugins.dynamicresources.DynamicResourcesPlugin;
import dev.muster.core.plugins.gangscheduling.GangSchedulingPlugin;
import dev.muster.core.plugins.interpodaffinity.InterPodAffinityPlugin;
import dev.muster.core.plugins.nodeaffinity.NodeAffinityPlugin;
import dev.muster.core.plugins.nodename.NodeNamePlugin;
import dev.muster.core.plugins.nodeports.NodePortsPlugin;
import dev.muster.core.plugins.noderesourcesbalancedallocation.NodeResourcesBalancedAllocationPlugin;
import dev.muster.core.plugins.noderesourcesfit.NodeResourcesFitPlugin;
import dev.muster.core.plugins.nodeunschedulable.NodeUnschedulablePlugin;
import dev.muster.core.plugins.podgrouppodscount.PodGroupPodsCountPlugin;
import dev.muster.core.plugins.podtopologyspread.PodTopologySpreadPlugin;
import dev.muster.core.plugins.tainttoleration.TaintTolerationPlugin;
import dev.muster.core.plugins.topologyplacement.BestFitPlugin;
import dev.muster.core.plugins.topologyplacement.TopologyPlacementGeneratorPlugin;
import dev.muster.core.plugins.topologyplacement.TopologySlicesPlugin;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * The one registry of in-tree plugins: every plugin by its upstream name, and the default profile. To add a
 * plugin, add one entry to {@link #ENTRIES} (name, factory, default weight) at the position it takes in the
 * upstream default profile.
 */
public final class InTreePlugins {
    /**
     * What a placed member of a group that did not fit is told: the gang plugin's Permit wait, which is where such a
     * member stops in kube-scheduler.
     */
    public static final String MEMBER_WAITING = GangSchedulingPlugin.WAITING_FOR_MIN_COUNT;

    /** What a placed member is told when its gang's count holds but a role's minimum does not. */
    public static String memberWaitingForRole(dev.muster.core.framework.RoleTally.Shortfall role) {
        return GangSchedulingPlugin.waitingForRole(role);
    }

    /** A registered plugin, its factory and its weight in the default profile (0 = no score there). */
    public record Entry(String name, Supplier<Plugin> factory, int defaultWeight) {
    }

    /** In upstream default-profile order (kube-scheduler v1.36 multi-point defaults). */
    private static final List<Entry> ENTRIES = List.of(
            new Entry(NodeUnschedulablePlugin.NAME, NodeUnschedulablePlugin::new, 0),
            new Entry(NodeNamePlugin.NAME, NodeNamePlugin::new, 0),
            new Entry(TaintTolerationPlugin.NAME, TaintTolerationPlugin::new, 3),
            new Entry(NodeAffinityPlugin.NAME, NodeAffinityPlugin::new, 2),
            new Entry(NodePortsPlugin.NAME, NodePortsPlugin::new, 0),
            new Entry(NodeResourcesFitPlugin.NAME, NodeResourcesFitPlugin::new, 1),
            new Entry(PodTopologySpreadPlugin.NAME, PodTopologySpreadPlugin::new, 2),
            new Entry(InterPodAffinityPlugin.NAME, InterPodAffinityPlugin::new, 2),
            new Entry(DynamicResourcesPlugin.NAME, DynamicResourcesPlugin::new, 0),
            new Entry(NodeResourcesBalancedAllocationPlugin.NAME, NodeResourcesBalancedAllocationPlugin::new, 1),
            // Workload-aware scheduling (v1.36 alpha gates GangScheduling, TopologyAwareWorkloadScheduling): on here.
            new Entry(GangSchedulingPlugin.NAME, GangSchedulingPlugin::new, 0),
            new Entry(TopologyPlacementGeneratorPlugin.NAME, TopologyPlacementGeneratorPlugin::new, 0),
            // Muster's placement strategy: scores nothing unless a group asks for it, then ranks that group alone.
            new Entry(BestFitPlugin.NAME, BestFitPlugin::new, 1),
            // Muster's slices and Balanced strategy: skipped (PreFilter Skip) for groups that ask for neither.
            new Entry(TopologySlicesPlugin.NAME, TopologySlicesPlugin::new, 1),
            new Entry(PodGroupPodsCountPlugin.NAME, PodGroupPodsCountPlugin::new, 1),
            new Entry(DefaultPreemptionPlugin.NAME, DefaultPreemptionPlugin::new, 0));

    private InTreePlugins() {
    }

    /** Every registered plugin, in default-profile order. */
    public static List<Entry> entries() {
        return ENTRIES;
    }

    /** Plugin factories by upstream name, sorted by name, so profiles can be built from configuration. */
    public static Map<String, Supplier<Plugin>> registry() {
        SortedMap<String, Supplier<Plugin>> m = new TreeMap<>();
        for (Entry e : ENTRIES) {
            if (m.put(e.name(), e.factory()) != null) {
                throw new IllegalStateException("plugin " + e.name() + " is registered twice");
            }
        }
        return Collections.unmodifiableSortedMap(m);
    }

    /** The default profile: upstream's default plugins in upstream order with upstream score weights. */
    public static Profile defaultProfile() {
        Profile.Builder b = Profile.builder();
        for (Entry e : ENTRIES) {
            b.add(e.factory().get(), e.defaultWeight());
        }
        return b.build();
    }
}
