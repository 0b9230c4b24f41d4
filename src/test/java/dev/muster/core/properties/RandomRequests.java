package dev.muster.core.properties;

import dev.muster.core.decision.DecisionOptions;
import dev.muster.core.decision.DecisionRequest;

/**
 * The property tests' seeded random requests, for tests outside this package that need realistic decisions to work
 * on (the response encoder's): the same request per seed as the test that owns the generator.
 */
public final class RandomRequests {
    private RandomRequests() {
    }

    /** {@link ClusterGen}'s gangs and basic groups, options varied with the seed as {@link EngineInvariantsTest}. */
    public static DecisionRequest groups(long seed) {
        return EngineInvariantsTest.request(ClusterGen.cluster(seed), seed);
    }

    /**
     * {@link PlainPodPropertiesTest}'s plain pods among {@link ClusterGen}'s groups, with a random selection; asks
     * for explanations on odd seeds (the owning test never does).
     */
    public static DecisionRequest plainPods(long seed) {
        DecisionRequest r = PlainPodPropertiesTest.request(PlainPodPropertiesTest.withPlainPods(seed), seed);
        return new DecisionRequest(r.cluster(), r.podGroups(),
                new DecisionOptions(r.options().preemption(), seed % 2 == 1), r.dra(), r.pods());
    }

    /** {@link DraBatchingEquivalenceTest}'s GPU gangs with claims (explained). */
    public static DecisionRequest claims(long seed) {
        return DraBatchingEquivalenceTest.request(seed);
    }
}
