package dev.muster.core.properties;

import dev.muster.core.decision.Assignment;
import dev.muster.core.decision.Decision;
import dev.muster.core.decision.DecisionEngine;
import dev.muster.core.decision.DecisionOptions;
import dev.muster.core.decision.DecisionRequest;
import dev.muster.core.decision.DecisionResult;
import dev.muster.core.decision.EngineConfig;
import dev.muster.core.decision.PodMessage;
import dev.muster.core.decision.PodStatus;
import dev.muster.core.model.ClusterState;
import dev.muster.core.model.GroupRef;
import dev.muster.core.model.Node;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodGroup;
import dev.muster.core.model.PodRef;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.LongStream;

import static dev.muster.core.testing.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Plain pods (pending, in no group) on random clusters: {@link ClusterGen}'s groups and bound pods plus random plain
 * pods — some gated, some being deleted, some that never preempt, at random priorities and ages — decided with a
 * random selection. Every response keeps the invariants ({@link Invariants}, plain pods included), lists every
 * pending pod in a decision or in {@code pods[]}, and is the same when decided again.
 */
class PlainPodPropertiesTest {
    static final int SEEDS = Integer.getInteger("muster.props.seeds", 300);
    private static final DecisionEngine ENGINE = new DecisionEngine(EngineConfig.DEFAULT);

    static LongStream seeds() {
        return LongStream.rangeClosed(1, SEEDS);
    }

    static ClusterState withPlainPods(long seed) {
        ClusterState base = ClusterGen.cluster(seed);
        SplittableRandom r = new SplittableRandom(seed * 31 + 7);
        List<Pod> pods = new ArrayList<>(base.pods());
        int n = 1 + r.nextInt(8);
        for (int i = 0; i < n; i++) {
            var b = pod("plain-" + i).label("app", r.nextBoolean() ? "web" : "api")
                    .requests("cpu", (1 + r.nextInt(4)) * 250 + "m").requests("memory", (1 + r.nextInt(4)) + "Gi");
            if (r.nextInt(6) == 0) {
                b.terminating();
            }
            if (r.nextInt(5) == 0) {
                b.preemptionPolicy("Never");
            }
            Pod p = b.build();
            List<String> gates = r.nextInt(7) == 0 ? List.of("example.com/hold") : List.of();
            Integer priority = r.nextInt(3) == 0 ? null : r.nextInt(3) * 500;
            pods.add(new Pod(p.ref(), p.uid(), p.labels(), ClusterGen.T0 + r.nextInt(5), null, null, null,
                    p.requests(), priority, null, p.preemptionPolicy(), null, null, null, null, null, gates, null,
                    null, null, p.terminating()));
        }
        List<Node> nodes = base.nodes();
        return new ClusterState(nodes, pods, base.podGroups(), base.priorityClasses(),
                base.podDisruptionBudgets());
    }

    /** Both selections null (everything), or a random part of the plain pods and of the groups. */
    static DecisionRequest request(ClusterState state, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        DecisionOptions options = new DecisionOptions(seed % 4 != 0, false);
        if (seed % 3 != 0) {
            return new DecisionRequest(state, null, options, null, null);
        }
        List<PodRef> pods = new ArrayList<>();
        for (Pod p : state.pods()) {
            if (p.podGroupName() == null && p.nodeName() == null && r.nextBoolean()) {
                pods.add(p.ref());
            }
        }
        List<GroupRef> groups = new ArrayList<>();
        for (PodGroup g : state.podGroups()) {
            if (r.nextBoolean()) {
                groups.add(g.ref());
            }
        }
        return new DecisionRequest(state, r.nextBoolean() ? groups : null, options, null, pods);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    @DisplayName("plain pods keep every invariant, every pending pod is accounted for, and decisions repeat")
    void plainPodsAreDecidedCompletelyAndDeterministically(long seed) {
        ClusterState state = withPlainPods(seed);
        DecisionRequest request = request(state, seed);
        DecisionResult result = ENGINE.decide(request);

        Set<GroupRef> namedGroups = request.podGroups() == null && request.pods() == null ? null
                : new HashSet<>(request.podGroups() == null ? List.of() : request.podGroups());
        assertThat(Invariants.check(state, result, namedGroups)).as("seed %d", seed).isEmpty();

        Set<PodRef> inDecisions = new HashSet<>();
        for (Decision d : result.decisions()) {
            if (d.pod() != null) {
                inDecisions.add(d.pod());
            }
            d.placements().stream().map(Assignment::pod).forEach(inDecisions::add);
            d.nominations().stream().map(Assignment::pod).forEach(inDecisions::add);
            d.unschedulablePods().stream().map(PodMessage::pod).forEach(inDecisions::add);
        }
        Set<PodRef> listed = new HashSet<>();
        for (PodStatus s : result.pods()) {
            assertThat(listed.add(s.pod())).as("seed %d: %s listed twice in pods[]", seed, s.pod()).isTrue();
            assertThat(s.status()).isIn(PodStatus.SCHEDULING_GATED, PodStatus.NOT_SELECTED, PodStatus.TERMINATING);
        }
        for (Pod p : state.pods()) {
            boolean pending = p.nodeName() == null && !Invariants.terminal(p);
            if (pending) {
                assertThat(inDecisions.contains(p.ref()) || listed.contains(p.ref()))
                        .as("seed %d: pending pod %s is in no decision and not in pods[]", seed, p.ref()).isTrue();
            }
            if (p.podGroupName() == null && pending && !p.terminating() && p.schedulingGates().isEmpty()) {
                boolean named = request.pods() == null ? request.podGroups() == null
                        : request.pods().contains(p.ref());
                assertThat(result.decisions().stream().anyMatch(d -> p.ref().equals(d.pod())))
                        .as("seed %d: plain pod %s decided iff selected", seed, p.ref()).isEqualTo(named);
            }
        }
        assertThat(ENGINE.decide(request)).as("seed %d: same request, same decisions", seed).isEqualTo(result);
    }
}
