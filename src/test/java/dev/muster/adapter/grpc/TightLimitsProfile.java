package dev.muster.adapter.grpc;

import dev.muster.core.decision.DecisionEngine;
import dev.muster.core.decision.EngineConfig;
import dev.muster.core.framework.ClusterView;
import dev.muster.core.framework.CycleState;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.framework.PreFilterPlugin;
import dev.muster.core.framework.Profile;
import dev.muster.core.framework.Status;
import io.quarkus.test.junit.QuarkusTestProfile;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;
import jakarta.enterprise.inject.Produces;

import java.util.Map;
import java.util.Set;

/**
 * A 64 KiB gRPC message limit, a REST body limit far below it (8 KiB), and an engine that spends
 * {@link #SLOW_MILLIS} in PreFilter per member, so that a deadline passes while the server is deciding.
 */
public class TightLimitsProfile implements QuarkusTestProfile {
    static final int GRPC_LIMIT = 64 * 1024;
    static final long SLOW_MILLIS = 1500;

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("quarkus.grpc.server.max-inbound-message-size", Integer.toString(GRPC_LIMIT),
                "muster.limits.max-body-size", "8K",
                "quarkus.http.limits.max-body-size", "16K");
    }

    @Override
    public Set<Class<?>> getEnabledAlternatives() {
        return Set.of(SlowEngine.class);
    }

    @Alternative
    @ApplicationScoped
    public static class SlowEngine {
        @Produces
        @ApplicationScoped
        @Alternative
        DecisionEngine slowEngine() {
            // only the slow plugin: what it decides does not matter here, how long it takes does
            Profile.Builder b = Profile.builder().add(new SlowPreFilter());
            return new DecisionEngine(b.build(), EngineConfig.DEFAULT);
        }
    }

    static final class SlowPreFilter implements PreFilterPlugin {
        @Override
        public String name() {
            return "SlowPreFilter";
        }

        @Override
        public Status preFilter(CycleState state, PodInfo pod, ClusterView cluster) {
            try {
                Thread.sleep(SLOW_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return Status.SUCCESS;
        }
    }
}
