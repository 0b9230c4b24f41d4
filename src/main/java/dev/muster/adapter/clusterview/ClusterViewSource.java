package dev.muster.adapter.clusterview;

import java.util.Optional;

/**
 * A source of {@link ClusterView}s. {@link #current()} is cheap when nothing changed (it returns the same view) and
 * never throws: a source that cannot read a new state keeps answering with the last good one.
 */
public interface ClusterViewSource extends AutoCloseable {

    ClusterView current();

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
        private final ClusterView empty = ClusterView.empty("none");

        @Override
        public ClusterView current() {
            return empty;
        }
    }
}
