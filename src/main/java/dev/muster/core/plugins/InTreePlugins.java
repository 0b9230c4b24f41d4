package dev.muster.core.plugins;

import dev.muster.core.framework.Profile;
import dev.muster.core.plugins.gangscheduling.GangSchedulingPlugin;
import dev.muster.core.plugins.podgrouppodscount.PodGroupPodsCountPlugin;
import dev.muster.core.plugins.topologyplacement.TopologyPlacementGeneratorPlugin;

/** The one registry of in-tree plugins and the default profile. */
public final class InTreePlugins {
    private InTreePlugins() {
    }

    public static Profile defaultProfile() {
        return Profile.builder()
                .add(new GangSchedulingPlugin())
                .add(new TopologyPlacementGeneratorPlugin())
                .add(new PodGroupPodsCountPlugin(), 1)
                .build();
    }
}
