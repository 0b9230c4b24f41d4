package dev.muster.core.plugins;

import dev.muster.core.framework.FrameworkRuntime;
import dev.muster.core.framework.NodeField;
import dev.muster.core.framework.Plugin;
import dev.muster.core.framework.PodField;
import dev.muster.core.framework.Profile;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

class InTreePluginsTest {

    @Test
    void theRegistryIsSortedByNameAndEachFactoryBuildsThePluginItNames() {
        Map<String, Supplier<Plugin>> registry = InTreePlugins.registry();
        assertThat(registry.keySet()).containsExactly("BestFit", "DefaultPreemption", "DynamicResources", "GangScheduling", "InterPodAffinity", "NodeAffinity",
                "NodeName", "NodePorts", "NodeResourcesBalancedAllocation", "NodeResourcesFit", "NodeUnschedulable",
                "PodGroupPodsCount", "PodTopologySpread", "TaintToleration", "TopologyPlacementGenerator",
                "TopologySlices");
        registry.forEach((name, factory) -> assertThat(factory.get().name()).isEqualTo(name));
    }

    @Test
    void theDefaultProfileFiltersInUpstreamOrder() {
        Profile p = InTreePlugins.defaultProfile();
        assertThat(names(p.filter())).containsExactly("NodeUnschedulable", "NodeName", "TaintToleration",
                "NodeAffinity", "NodePorts", "NodeResourcesFit", "PodTopologySpread", "InterPodAffinity",
                "DynamicResources", "TopologySlices");
        // GangScheduling's PreFilter is the minResources check of coscheduling/Volcano PodGroups (Success otherwise)
        assertThat(names(p.preFilter())).containsExactly("NodeAffinity", "NodePorts", "NodeResourcesFit",
                "PodTopologySpread", "InterPodAffinity", "DynamicResources", "GangScheduling", "TopologySlices");
        assertThat(names(p.reserve())).containsExactly("DynamicResources");
        assertThat(names(p.preScore())).containsExactly("TaintToleration", "NodeAffinity", "PodTopologySpread",
                "InterPodAffinity", "NodeResourcesBalancedAllocation");
    }

    @Test
    void theDefaultProfileScoresWithUpstreamWeights() {
        List<String> weighted = new ArrayList<>();
        for (Profile.WeightedScore s : InTreePlugins.defaultProfile().score()) {
            weighted.add(s.plugin().name() + "=" + s.weight());
        }
        assertThat(weighted).containsExactly("TaintToleration=3", "NodeAffinity=2", "NodeResourcesFit=1",
                "PodTopologySpread=2", "InterPodAffinity=2", "NodeResourcesBalancedAllocation=1");
    }

    @Test
    void theDefaultProfileRunsGangPermitAndScoresPlacementsWithUpstreamWeights() {
        Profile p = InTreePlugins.defaultProfile();
        assertThat(names(p.preEnqueue())).containsExactly("GangScheduling");
        assertThat(names(p.permit())).containsExactly("GangScheduling");
        assertThat(names(p.placementGenerate())).containsExactly("TopologyPlacementGenerator");
        assertThat(names(p.postFilter())).containsExactly("DefaultPreemption");
        List<String> weighted = new ArrayList<>();
        for (Profile.WeightedPlacementScore s : p.placementScore()) {
            weighted.add(s.plugin().name() + "=" + s.weight());
        }
        assertThat(weighted).containsExactly("NodeResourcesFit=1", "BestFit=1", "TopologySlices=1",
                "PodGroupPodsCount=1");
    }

    /**
     * A plugin at these points that declares nothing is taken to read every field of a pod, which turns evaluation
     * reuse off for the whole profile: every in-tree one says what it reads.
     */
    @Test
    void everyPluginThatReadsAPodSaysWhichFields() {
        Profile p = InTreePlugins.defaultProfile();
        List<Plugin> readers = new ArrayList<>();
        readers.addAll(p.preFilter());
        readers.addAll(p.filter());
        readers.addAll(p.preScore());
        p.score().forEach(s -> readers.add(s.plugin()));
        assertThat(readers).isNotEmpty().allSatisfy(r -> assertThat(r.podFields()).as(r.name())
                .isNotEqualTo(PodField.ALL));
    }

    /**
     * Likewise for nodes: a plugin at these points that declares nothing is taken to read every field of a node, its
     * name among them, which makes every node look unlike every other and turns placement symmetry off.
     */
    @Test
    void everyPluginThatReadsNodesSaysWhichFields() {
        Profile p = InTreePlugins.defaultProfile();
        List<Plugin> readers = new ArrayList<>();
        readers.addAll(p.preFilter());
        readers.addAll(p.filter());
        readers.addAll(p.preScore());
        p.score().forEach(s -> readers.add(s.plugin()));
        assertThat(readers).isNotEmpty().allSatisfy(r -> assertThat(r.nodeFields()).as(r.name())
                .isNotEqualTo(NodeField.ALL));
    }

    /**
     * The default profile's node looks compare what they always did: resources allocatable and requested, pod slots
     * and count, used host ports, taints and schedulability; labels, names and the pods themselves are read only in
     * ways placement symmetry and signing plugins' node keys account for.
     */
    @Test
    void theDefaultProfileLooksAtResourcesPortsTaintsAndSchedulability() {
        assertThat(new FrameworkRuntime(InTreePlugins.defaultProfile()).lookedNodeFields())
                .containsExactlyInAnyOrder(NodeField.ALLOCATABLE, NodeField.REQUESTED, NodeField.POD_COUNT,
                        NodeField.USED_PORTS, NodeField.TAINTS, NodeField.UNSCHEDULABLE);
    }

    @Test
    void everyFactoryReturnsAFreshInstance() {
        InTreePlugins.registry().forEach((name, f) -> assertThat(f.get()).isNotSameAs(f.get()));
    }

    private static List<String> names(List<? extends Plugin> plugins) {
        List<String> out = new ArrayList<>();
        for (Plugin p : plugins) {
            out.add(p.name());
        }
        return out;
    }

}
