package dev.muster.wiring;

import dev.muster.adapter.clusterview.NamedClusterViews;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * Per watched cluster, labelled {@code cluster=<name>}: {@code muster_cluster_view_synced} (1 once its view has
 * loaded what it watches, else 0), {@code muster_cluster_view_nodes} and {@code muster_cluster_view_generation}
 * (changes applied so far). Read at scrape time.
 */
@ApplicationScoped
public class NamedClusterViewsMetrics {
    void register(@Observes StartupEvent ev, NamedClusterViews views, MeterRegistry registry) {
        for (String name : views.names()) {
            Gauge.builder("muster.cluster.view.synced", views, v -> v.notSynced(name).isEmpty() ? 1 : 0)
                    .description("1 once the watched cluster's view has loaded what it watches")
                    .tag("cluster", name).register(registry);
            Gauge.builder("muster.cluster.view.nodes", views, v -> v.source(name).current().state().nodes().size())
                    .description("Nodes in the watched cluster's current view")
                    .tag("cluster", name).register(registry);
            Gauge.builder("muster.cluster.view.generation", views, v -> v.source(name).latestGeneration())
                    .description("Changes the watched cluster's view has applied so far")
                    .tag("cluster", name).register(registry);
        }
    }
}
