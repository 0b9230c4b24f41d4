package dev.muster.adapter.clusterview;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithParentName;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * {@code muster.clusters.<name>.*}: the clusters the service watches itself, by name, so that a cluster choice may
 * name them instead of sending their snapshots. Each is a view source of its own, as the extender's
 * ({@code muster.cluster-view.*}), with the request limits ({@code muster.limits.*}) as its file limits.
 */
@ConfigMapping(prefix = "muster.clusters")
public interface ClustersConfig {

    /** The watched clusters by name (a DNS label); none by default. */
    @WithParentName
    Map<String, Cluster> all();

    interface Cluster {
        /** {@code kubernetes} (a kubeconfig context, or the in-cluster account) or {@code file}. */
        String source();

        /** For {@code source=kubernetes}: the kubeconfig context; absent: the current context or in-cluster. */
        Optional<String> context();

        /** For {@code source=file}: a snapshot file, or a directory of them. */
        Optional<String> file();

        /** For {@code source=file}: how often, at most, a read checks the files for changes. */
        @WithDefault("1s")
        Duration fileCheckInterval();
    }
}
