package dev.muster.wiring;

import dev.muster.core.decision.DecisionEngine;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** Ready once the decision engine is built from configuration (a bad engine config keeps the pod out of service). */
@Readiness
@ApplicationScoped
public class EngineReadinessCheck implements HealthCheck {
    private final Instance<DecisionEngine> engine;

    EngineReadinessCheck(Instance<DecisionEngine> engine) {
        this.engine = engine;
    }

    @Override
    public HealthCheckResponse call() {
        try {
            DecisionEngine e = engine.get();
            e.toString(); // resolves the client proxy: builds the engine if it was not yet
            return HealthCheckResponse.up("decision-engine");
        } catch (RuntimeException ex) {
            return HealthCheckResponse.named("decision-engine").down().withData("error", String.valueOf(ex.getMessage())).build();
        }
    }
}
