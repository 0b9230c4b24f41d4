package dev.muster.core.properties;

import dev.muster.core.decision.DecisionEngine;
import dev.muster.core.decision.DecisionResult;
import dev.muster.core.decision.EngineConfig;
import dev.muster.core.model.ClusterState;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Opportunistic batching (an evaluation kept per pod signature and refreshed from the nodes that changed,
 * including the topology domains inter-pod terms reach) must not change any decision: on every generated cluster
 * (pod affinity and anti-affinity, spread constraints, topology groups, preemption, several groups per request),
 * the engine with batching gives a result equal to the engine that evaluates every pod in full.
 */
class BatchingEquivalenceTest {
    private static final DecisionEngine BATCHED = new DecisionEngine(EngineConfig.DEFAULT);
    private static final DecisionEngine FULL = new DecisionEngine(new EngineConfig(
            EngineConfig.DEFAULT.searchBudget(), 1, EngineConfig.DEFAULT.parallelThreshold(), false));

    static LongStream seeds() {
        return LongStream.rangeClosed(1, EngineInvariantsTest.SEEDS);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    @DisplayName("batched and full evaluation decide the same")
    void batchingChangesNoDecision(long seed) {
        ClusterState state = ClusterGen.cluster(seed);
        DecisionResult batched = BATCHED.decide(EngineInvariantsTest.request(state, seed));
        DecisionResult full = FULL.decide(EngineInvariantsTest.request(state, seed));
        assertThat(batched).as("seed %d (ClusterGen.cluster(%dL) reproduces the request)", seed, seed)
                .isEqualTo(full);
    }
}
