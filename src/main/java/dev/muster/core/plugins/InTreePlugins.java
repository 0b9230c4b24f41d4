package dev.muster.core.plugins;

import dev.muster.core.framework.Profile;
import dev.muster.core.plugins.gangscheduling.GangSchedulingPlugin;

/** The one registry of in-tree plugins and the default profile. */
public final class InTreePlugins {
    private InTreePlugins() {
    }

    public static Profile defaultProfile() {
        return Profile.builder()
                .add(new GangSchedulingPlugin())
                .build();
    }
}
