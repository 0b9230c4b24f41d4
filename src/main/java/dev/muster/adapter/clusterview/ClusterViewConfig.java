package dev.muster.adapter.clusterview;

import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * {@code muster.cluster-view.*} (env {@code MUSTER_CLUSTER_VIEW_SOURCE}, {@code MUSTER_CLUSTER_VIEW_FILE}): where
 * the extender learns the cluster beyond its request.
 */
@ConfigMapping(prefix = "muster.cluster-view")
public interface ClusterViewConfig {

    /** {@code none} (default), {@code file} or {@code kubernetes}. */
    @WithDefault("none")
    String source();

    /**
     * For {@code source=file}: a snapshot file (the {@code snapshot} object, or a kubectl list; JSON or YAML), or a
     * directory whose {@code .json}/{@code .yaml}/{@code .yml} files are merged into one snapshot.
     */
    Optional<String> file();

    /** How often, at most, an access checks the file (or the directory's files) for changes (0 = on every access). */
    @WithDefault("1s")
    Duration fileCheckInterval();

    /** Largest snapshot file read (each file of a directory); default {@code muster.limits.max-body-size}. */
    Optional<MemorySize> fileMaxSize();

    /**
     * Most files of a directory read and decoded at once; default 2, or 1 with one processor. Each holds its bytes
     * and decoded objects until merged, so the memory of a load grows with it.
     */
    OptionalInt fileReadThreads();

    /** Most nodes in the view (all files together); default {@code muster.limits.max-nodes}. */
    OptionalInt maxNodes();

    /** Most pods in the view; default {@code muster.limits.max-pods}. */
    OptionalInt maxPods();

    /** Most PodGroups (and CompositePodGroups) in the view; default {@code muster.limits.max-pod-groups}. */
    OptionalInt maxPodGroups();

    /** Most objects of every other kind in the view; default {@code muster.limits.max-objects}. */
    OptionalInt maxObjects();

    /** Most Volcano HyperNodes in the view; default {@code muster.limits.max-hyper-nodes}. */
    OptionalInt maxHyperNodes();
}
