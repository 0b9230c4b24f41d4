package dev.muster.wiring;

import dev.muster.adapter.clusterview.WatchedClusterVersion;
import dev.muster.adapter.clusterview.ClusterViewSource;
import dev.muster.core.model.ClusterState;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The readiness rule: not ready while the cluster view source has kinds left to sync; ready once it has none. */
class ClusterViewReadinessCheckTest {

    /** A source whose initial lists complete when the test says so. */
    static final class Syncing implements ClusterViewSource {
        final List<String> pending = new ArrayList<>(List.of("nodes", "pods"));

        @Override
        public WatchedClusterVersion current() {
            return WatchedClusterVersion.of(pending.isEmpty() ? 3 : 0, new ClusterState(null, null, null, null, null),
                    "kubernetes");
        }

        @Override
        public List<String> notSynced() {
            return List.copyOf(pending);
        }
    }

    @Test
    void notReadyUntilEveryKindHasSyncedThenReady() {
        Syncing source = new Syncing();
        HealthCheckResponse r = ClusterViewReadinessCheck.check(source);
        assertThat(r.getStatus()).isEqualTo(HealthCheckResponse.Status.DOWN);
        assertThat(r.getName()).isEqualTo("cluster-view");
        assertThat(r.getData().orElseThrow()).containsEntry("waitingFor", "nodes, pods");

        source.pending.remove("nodes");
        r = ClusterViewReadinessCheck.check(source);
        assertThat(r.getStatus()).isEqualTo(HealthCheckResponse.Status.DOWN);
        assertThat(r.getData().orElseThrow()).containsEntry("waitingFor", "pods");

        source.pending.clear();
        r = ClusterViewReadinessCheck.check(source);
        assertThat(r.getStatus()).isEqualTo(HealthCheckResponse.Status.UP);
        assertThat(r.getData().orElseThrow()).containsEntry("source", "kubernetes").containsEntry("generation", 3L);
    }

    @Test
    void sourcesThatLoadSynchronouslyAreReadyAtOnce() {
        HealthCheckResponse r = ClusterViewReadinessCheck.check(new ClusterViewSource.None());
        assertThat(r.getStatus()).isEqualTo(HealthCheckResponse.Status.UP);
        assertThat(r.getData().orElseThrow()).containsEntry("source", "none");
    }
}
