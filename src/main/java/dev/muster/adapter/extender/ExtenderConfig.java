package dev.muster.adapter.extender;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;

/** {@code muster.extender.*}: the extender's own settings (its cluster view is {@code muster.cluster-view.*}). */
@ConfigMapping(prefix = "muster.extender")
public interface ExtenderConfig {

    /** How long bind holds a gang member waiting for minCount members to reach bind (upstream Permit: 5m). */
    @WithDefault("5m")
    Duration bindTimeout();

    /** Decisions kept, one per view generation and request overlay; old generations age out. */
    @WithDefault("16")
    int decisionCacheSize();

    /**
     * How long a call may answer from the previous prepared view after the source saw a change (the newer view is
     * compiled and decided meanwhile off the request path); 0 = every call reads the newest view, compiling and
     * deciding it on the first call of a generation. See {@link PreparedViews}.
     */
    @WithDefault("2s")
    Duration viewMaxStaleness();
}
