package dev.muster.wiring;

import dev.muster.adapter.clusterview.WatchedClusterVersion;
import dev.muster.adapter.clusterview.ClusterViewSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

import java.util.List;

/**
 * Ready once the extender's cluster view has loaded what it watches: with {@code muster.cluster-view.source=kubernetes}
 * the pod stays out of the Service until every informer finished its initial list, so the scheduler's first calls
 * are not answered from a view that is missing nodes, pods or PodGroups. Sources {@code none} and {@code file} load
 * synchronously and are ready at once. Liveness does not depend on it: a slow or unreachable API server must not
 * get the pod restarted.
 */
@Readiness
@ApplicationScoped
public class ClusterViewReadinessCheck implements HealthCheck {
    static final String NAME = "cluster-view";

    private final ClusterViewSource source;

    @Inject
    ClusterViewReadinessCheck(ClusterViewSource source) {
        this.source = source;
    }

    @Override
    public HealthCheckResponse call() {
        return check(source);
    }

    /** The rule, apart from CDI: down while the source reports anything not synced, with what it waits for. */
    static HealthCheckResponse check(ClusterViewSource source) {
        List<String> pending = source.notSynced();
        HealthCheckResponseBuilder b = HealthCheckResponse.named(NAME);
        if (!pending.isEmpty()) {
            return b.down().withData("waitingFor", String.join(", ", pending)).build();
        }
        WatchedClusterVersion v = source.current();
        return b.up().withData("source", v.source()).withData("generation", v.generation())
                .withData("nodes", v.state().nodes().size()).build();
    }
}
