package dev.muster.core.properties;

import dev.muster.core.decision.Assignment;
import dev.muster.core.decision.Decision;
import dev.muster.core.decision.DecisionEngine;
import dev.muster.core.decision.DecisionOptions;
import dev.muster.core.decision.DecisionRequest;
import dev.muster.core.decision.DecisionResult;
import dev.muster.core.decision.EngineConfig;
import dev.muster.core.decision.Outcome;
import dev.muster.core.model.ClusterState;
import dev.muster.core.model.Node;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodGroup;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The invariants of docs/api.md on random small clusters ({@link ClusterGen}), one reproducible case per seed, checked
 * by {@link Invariants}, which re-implements every rule without engine code.
 */
class EngineInvariantsTest {
    /** 300 by default; {@code -Dmuster.props.seeds=5000} for a longer hunt. */
    static final int SEEDS = Integer.getInteger("muster.props.seeds", 300);

    private static final DecisionEngine ENGINE = new DecisionEngine(EngineConfig.DEFAULT);

    static LongStream seeds() {
        return LongStream.rangeClosed(1, SEEDS);
    }

    /** First decision per seed, shared by the three tests so each cluster is decided once for them. */
    private static final Map<Long, DecisionResult> FIRST = new ConcurrentHashMap<>();

    static DecisionResult first(long seed) {
        return FIRST.computeIfAbsent(seed, s -> ENGINE.decide(request(ClusterGen.cluster(s), s)));
    }

    static DecisionRequest request(ClusterState state, long seed) {
        // Vary the options with the seed: explain must not change a decision, and preemption must keep the invariants.
        return new DecisionRequest(state, null, new DecisionOptions(seed % 4 != 0, seed % 3 == 0));
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    @DisplayName("every response keeps the invariants: capacity, filters, gang, topology, gates, membership, order")
    void invariantsHold(long seed) {
        ClusterState state = ClusterGen.cluster(seed);
        DecisionResult result = first(seed);

        assertThat(Invariants.check(state, result))
                .as("seed %d (ClusterGen.cluster(%dL) reproduces the request)\nresult: %s", seed, seed, result)
                .isEmpty();
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    @DisplayName("the same request, again or with its node list shuffled, gives an equal result")
    void deterministic(long seed) {
        ClusterState state = ClusterGen.cluster(seed);
        DecisionResult first = first(seed);
        DecisionResult again = ENGINE.decide(request(state, seed));

        List<Node> shuffled = new ArrayList<>(state.nodes());
        ClusterGen.shuffle(new SplittableRandom(seed * 7919 + 1), shuffled);
        ClusterState reordered = new ClusterState(shuffled, state.pods(), state.podGroups(), state.priorityClasses(),
                state.podDisruptionBudgets());
        DecisionResult fromShuffled = ENGINE.decide(request(reordered, seed));

        assertThat(again).as("seed %d, same request", seed).isEqualTo(first);
        assertThat(fromShuffled).as("seed %d, nodes shuffled", seed).isEqualTo(first);
    }

    /**
     * The properties above only mean something if the generator reaches the interesting cases; this counts them over
     * the same seeds, so a generator change that stops producing (say) topology-constrained successes fails here.
     */
    @Test
    @DisplayName("the generated clusters cover every outcome and every constraint the invariants check")
    void generatorCoverage() {
        TreeMap<String, Integer> seen = new TreeMap<>();
        for (long seed = 1; seed <= SEEDS; seed++) {
            ClusterState state = ClusterGen.cluster(seed);
            DecisionResult result = first(seed);
            for (Decision d : result.decisions()) {
                seen.merge("outcome " + d.outcome(), 1, Integer::sum);
                PodGroup g = state.podGroups().stream().filter(x -> x.ref().equals(d.podGroup())).findFirst()
                        .orElse(null);
                if (g == null) {
                    continue; // PodGroupNotFound
                }
                if (d.outcome() == Outcome.Scheduled && !g.topologyKeys().isEmpty() && !d.placements().isEmpty()) {
                    seen.merge("topology group placed", 1, Integer::sum);
                }
                if (d.outcome() == Outcome.Scheduled && g.policy().isGang() && d.placements().size() >= 2) {
                    seen.merge("gang of 2+ placed", 1, Integer::sum);
                }
                if (d.outcome() == Outcome.Scheduled && !d.unschedulablePods().isEmpty()) {
                    seen.merge("scheduled with members left over", 1, Integer::sum);
                }
                for (Assignment a : d.placements()) {
                    Pod p = state.pods().stream().filter(x -> x.ref().equals(a.pod())).findFirst().orElseThrow();
                    Node n = state.nodes().stream().filter(x -> x.name().equals(a.node())).findFirst().orElseThrow();
                    if (!p.topologySpreadConstraints().isEmpty()) {
                        seen.merge("spread member placed", 1, Integer::sum);
                    }
                    if (!p.affinity().requiredPodAntiAffinity().isEmpty()) {
                        seen.merge("anti-affinity member placed", 1, Integer::sum);
                    }
                    if (!p.hostPorts().isEmpty()) {
                        seen.merge("host-port member placed", 1, Integer::sum);
                    }
                    if (!n.taints().isEmpty()) {
                        seen.merge("placed on a tainted node", 1, Integer::sum);
                    }
                    if (n.unschedulable()) {
                        seen.merge("placed on a cordoned node", 1, Integer::sum);
                    }
                }
            }
            if (!result.pods().isEmpty()) {
                seen.merge("gated pods reported", 1, Integer::sum);
            }
        }
        System.out.println("generator coverage over " + SEEDS + " seeds: " + seen);
        assertThat(seen).containsKeys("outcome Scheduled", "outcome Unschedulable", "outcome WaitingForMembers",
                "outcome PodGroupNotFound",
                "topology group placed", "gang of 2+ placed", "scheduled with members left over",
                "spread member placed", "anti-affinity member placed", "host-port member placed",
                "placed on a tainted node", "placed on a cordoned node", "gated pods reported");
        assertThat(seen.get("outcome Scheduled")).isGreaterThan(SEEDS / 4);
        assertThat(seen.get("outcome Unschedulable")).isGreaterThan(SEEDS / 20);
    }
}
