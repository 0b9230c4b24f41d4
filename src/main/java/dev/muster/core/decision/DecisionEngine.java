package dev.muster.core.decision;

/**
 * The decision engine: a pure function from a {@link DecisionRequest} to a {@link DecisionResult}. Thread-safe;
 * keeps nothing between calls.
 */
public final class DecisionEngine {
    private final EngineConfig config;

    public DecisionEngine(EngineConfig config) {
        this.config = config;
    }

    public DecisionResult decide(DecisionRequest request) {
        // implemented in the next commit (PodGroup cycle)
        return new DecisionResult(java.util.List.of(), java.util.List.of());
    }
}
