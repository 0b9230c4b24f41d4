package dev.muster.adapter.clusterview;

import java.util.List;
import java.util.Optional;

/**
 * A source of {@link WatchedClusterVersion}s. {@link #current()} is cheap when nothing changed (it returns the same
 * view) and never throws: a source that cannot read a new state keeps answering with the last good one.
 */
public interface ClusterViewSource extends AutoCloseable {

    WatchedClusterVersion current();

    /**
     * The generation {@link #current()} would answer with, or the last one it answered when finding out costs more
     * than a glance (the file source: reading the file is left to {@code current()}). Cheap, never assembles a view:
     * lets a caller tell whether its view is behind without paying for the newer one.
     */
    default long latestGeneration() {
        return current().generation();
    }

    /**
     * What this source has not loaded yet (for the Kubernetes source: the kinds whose initial list has not
     * completed). Empty once the view reflects the cluster, and from the start for sources that load synchronously.
     * Readiness waits for it to be empty: before that, the view would miss nodes or pods and the extender would
     * answer from a partial cluster.
     */
    default List<String> notSynced() {
        return List.of();
    }

    /** True once {@link #notSynced()} is empty. */
    default boolean synced() {
        return notSynced().isEmpty();
    }

    /** The API binder when this source talks to a Kubernetes API server; empty otherwise. */
    default Optional<PodBinder> binder() {
        return Optional.empty();
    }

    @Override
    default void close() {
    }

    /** Binds a pod to a node through the API's Binding subresource. */
    @FunctionalInterface
    interface PodBinder {
        void bind(String namespace, String name, String uid, String node) throws Exception;
    }

    /** {@code muster.cluster-view.source=none}: an empty view that never changes. */
    final class None implements ClusterViewSource {
        private final WatchedClusterVersion empty = WatchedClusterVersion.empty("none");

        @Override
        public WatchedClusterVersion current() {
            return empty;
        }
    }
}
