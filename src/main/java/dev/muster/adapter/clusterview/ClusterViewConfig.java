package dev.muster.adapter.clusterview;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;
import java.util.Optional;

/**
 * {@code muster.cluster-view.*} (env {@code MUSTER_CLUSTER_VIEW_SOURCE}, {@code MUSTER_CLUSTER_VIEW_FILE}): where
 * the extender learns the cluster beyond its request.
 */
@ConfigMapping(prefix = "muster.cluster-view")
public interface ClusterViewConfig {

    /** {@code none} (default), {@code file} or {@code kubernetes}. */
    @WithDefault("none")
    String source();

    /** The snapshot file for {@code source=file}: the {@code snapshot} object, JSON or YAML. */
    Optional<String> file();

    /** How often, at most, an access checks the file for changes (0 = on every access). */
    @WithDefault("1s")
    Duration fileCheckInterval();
}
