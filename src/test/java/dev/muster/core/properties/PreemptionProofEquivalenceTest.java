package dev.muster.core.properties;

import dev.muster.core.decision.Decision;
import dev.muster.core.decision.DecisionEngine;
import dev.muster.core.decision.DecisionOptions;
import dev.muster.core.decision.DecisionRequest;
import dev.muster.core.decision.DecisionResult;
import dev.muster.core.decision.EngineConfig;
import dev.muster.core.model.ClusterState;
import dev.muster.core.model.Node;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodGroup;
import dev.muster.core.testing.Groups;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.LongStream;

import static dev.muster.core.testing.Groups.member;
import static dev.muster.core.testing.Groups.withPriority;
import static dev.muster.core.testing.Nodes.node;
import static dev.muster.core.testing.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The victim search proves most answers without re-running the group (a placement that still stands, a member that
 * provably has nowhere to go, members that move to another node with room). Each proof must give the answer a trial
 * gives: on clusters where a preempting gang's members keep being crowded out as pods are given back (many nodes
 * nearly full of pods at mixed priorities, identical members so that the group's algorithm finds a placement
 * whenever one exists), the engine that proves decides exactly as the engine that tries every unit.
 */
class PreemptionProofEquivalenceTest {
    private static final DecisionEngine PROVING = new DecisionEngine(EngineConfig.DEFAULT);
    private static final DecisionEngine TRYING = new DecisionEngine(new EngineConfig(
            EngineConfig.DEFAULT.searchBudget(), 1, EngineConfig.DEFAULT.parallelThreshold(), false));

    static LongStream seeds() {
        return LongStream.rangeClosed(1, 200);
    }

    /** 6–20 nodes of 8 or 16 cpu, each full of running pods of 0.5–3 cpu at priorities 0–9; a gang of 2–8 at priority 100. */
    static ClusterState cluster(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int n = 6 + r.nextInt(15);
        List<Node> nodes = new ArrayList<>();
        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String name = String.format("node-%02d", i);
            long cpu = r.nextBoolean() ? 8 : 16;
            nodes.add(node(name).allocatable("cpu", cpu + "").allocatable("memory", "64Gi").build());
            long left = cpu;
            for (int k = 0; left > 0; k++) {
                long milli = Math.min(left * 1000, 500L * (1 + r.nextInt(6)));
                left -= (milli + 999) / 1000;
                pods.add(withPriority(pod("p-" + i + "-" + k).requests("cpu", milli + "m").on(name).build(),
                        r.nextInt(10)));
            }
        }
        int members = 2 + r.nextInt(7);
        String cpu = (2 + r.nextInt(3)) + "";
        for (int i = 0; i < members; i++) {
            pods.add(member(pod("g-" + i).requests("cpu", cpu).requests("memory", "1Gi").build(), "g"));
        }
        PodGroup g = Groups.gang("g", 1 + r.nextInt(members)).priority(100).build();
        return new ClusterState(nodes, pods, List.of(g), List.of(), List.of());
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    @DisplayName("victims found with proofs are the victims found by trials alone")
    void proofsGiveTheTrialsAnswer(long seed) {
        ClusterState state = cluster(seed);
        DecisionRequest request = new DecisionRequest(state, null, new DecisionOptions(true, false));
        DecisionResult proving = PROVING.decide(request);
        DecisionResult trying = TRYING.decide(request);
        assertThat(proving).as("seed %d\n%s", seed, state).isEqualTo(trying);
    }

    @org.junit.jupiter.api.Test
    @DisplayName("the generated clusters make most gangs preempt several pods, so the proofs are exercised")
    void clustersExercisePreemption() {
        long preempting = seeds().filter(seed -> {
            Decision d = PROVING.decide(new DecisionRequest(cluster(seed), null, new DecisionOptions(true, false)))
                    .decisions().get(0);
            return d.outcome() == dev.muster.core.decision.Outcome.Preempting && d.victims().size() >= 2;
        }).count();
        assertThat(preempting).isGreaterThan(seeds().count() / 2);
    }
}
