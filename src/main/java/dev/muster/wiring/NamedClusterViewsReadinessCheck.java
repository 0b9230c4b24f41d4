package dev.muster.wiring;

import dev.muster.adapter.clusterview.WatchedClusterVersion;
import dev.muster.adapter.clusterview.NamedClusterViews;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

import java.util.List;

/**
 * Which watched clusters ({@code muster.clusters.<name>.*}) are synced: one entry per name, {@code synced (N nodes,
 * generation G)} or what its view still waits for. Always up: a cluster whose API server is slow must not take the
 * service out of its Service, since every other cluster, decision and inline choice still answers; a choice naming a
 * cluster not synced yet is refused with a {@code 503} that names it.
 */
@Readiness
@ApplicationScoped
public class NamedClusterViewsReadinessCheck implements HealthCheck {
    static final String NAME = "watched-clusters";

    private final NamedClusterViews views;

    @Inject
    NamedClusterViewsReadinessCheck(NamedClusterViews views) {
        this.views = views;
    }

    @Override
    public HealthCheckResponse call() {
        return check(views);
    }

    static HealthCheckResponse check(NamedClusterViews views) {
        HealthCheckResponseBuilder b = HealthCheckResponse.named(NAME).up();
        for (String name : views.names()) {
            List<String> pending = views.notSynced(name);
            if (pending.isEmpty()) {
                WatchedClusterVersion v = views.source(name).current();
                b.withData(name, "synced (" + v.state().nodes().size() + " nodes, generation " + v.generation() + ")");
            } else {
                b.withData(name, "waiting for " + String.join(", ", pending));
            }
        }
        return b.build();
    }
}
