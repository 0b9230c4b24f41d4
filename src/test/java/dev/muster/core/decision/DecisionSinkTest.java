package dev.muster.core.decision;

import dev.muster.core.properties.RandomRequests;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The engine hands each decision to the caller's {@code made} as it makes it: exactly the result's decisions, each
 * once, in the result's order, the very objects (what an answer written while deciding relies on).
 */
class DecisionSinkTest {
    private static final DecisionEngine ENGINE = new DecisionEngine(EngineConfig.DEFAULT);

    @Test
    @DisplayName("groups, plain pods and claims on random clusters: made = the result's decisions, in order")
    void madeIsTheResult() {
        int decisions = check(RandomRequests::groups) + check(RandomRequests::plainPods) + check(RandomRequests::claims);
        assertThat(decisions).as("decisions compared").isGreaterThan(1000);
    }

    private static int check(LongFunction<DecisionRequest> requests) {
        int n = 0;
        for (long seed = 1; seed <= 150; seed++) {
            DecisionRequest request = requests.apply(seed);
            List<Decision> made = new ArrayList<>();
            DecisionResult result = ENGINE.decide(DecisionEngine.compile(request), request.podGroups(), request.pods(),
                    request.options(), () -> false, made::add);
            assertThat(made).as("seed %d", seed).hasSameSizeAs(result.decisions());
            for (int i = 0; i < made.size(); i++) {
                assertThat(made.get(i)).as("seed %d, decision %d", seed, i).isSameAs(result.decisions().get(i));
            }
            n += made.size();
        }
        return n;
    }
}
