package dev.muster.core.properties;

import dev.muster.core.decision.Decision;
import dev.muster.core.decision.DecisionEngine;
import dev.muster.core.decision.DecisionOptions;
import dev.muster.core.decision.DecisionRequest;
import dev.muster.core.decision.DecisionResult;
import dev.muster.core.decision.EngineConfig;
import dev.muster.core.decision.Outcome;
import dev.muster.core.framework.ClusterView;
import dev.muster.core.framework.CycleState;
import dev.muster.core.framework.NodeInfo;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.framework.Profile;
import dev.muster.core.framework.ReservePlugin;
import dev.muster.core.framework.Status;
import dev.muster.core.model.ClusterState;
import dev.muster.core.model.Node;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PlacementStrategy;
import dev.muster.core.model.PodGroup;
import dev.muster.core.plugins.InTreePlugins;
import dev.muster.core.testing.Groups;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;

import static dev.muster.core.testing.Groups.member;
import static dev.muster.core.testing.Nodes.node;
import static dev.muster.core.testing.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Candidate placements are tried highest score bound first, and the rest are not tried once the best feasible one
 * scores above what any of them could. That must change no decision: without an explanation (which reports every
 * candidate, so there every one is tried) the engine decides exactly as the reference that tries every candidate,
 * and exactly as it does itself with an explanation, the explanation left out. Clusters: racks and zones of random
 * size and load, gangs with minimums below their size, basic groups, bound members, members of different sizes,
 * groups asking for BestFit or balanced placement, several groups competing; and the GPU clusters of the DRA and
 * symmetry properties.
 */
class PlacementBoundEquivalenceTest {
    private static final String RACK = "topology.kubernetes.io/rack";
    private static final String ZONE = "topology.kubernetes.io/zone";
    private static final DecisionEngine ENGINE = new DecisionEngine(EngineConfig.DEFAULT);
    private static final DecisionEngine REFERENCE = new DecisionEngine(new EngineConfig(
            EngineConfig.DEFAULT.searchBudget(), 1, EngineConfig.DEFAULT.parallelThreshold(), false));

    static LongStream seeds() {
        return LongStream.rangeClosed(1, 300);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    @DisplayName("racks of random load and groups of every policy: the same decisions as trying every candidate")
    void racks(long seed) {
        assertSameDecisions(request(seed), seed);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    @DisplayName("GPU clusters with generated, held and shared claims: the same decisions as trying every candidate")
    void gpuClusters(long seed) {
        assertSameDecisions(DraBatchingEquivalenceTest.request(seed), seed);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    @DisplayName("racks that are near copies: the same decisions as trying every candidate")
    void nearCopies(long seed) {
        assertSameDecisions(PlacementSymmetryEquivalenceTest.request(seed, seed % 2 == 0), seed);
    }

    @Test
    @DisplayName("the generated clusters schedule some groups and leave others unschedulable or preempting")
    void generatorCoversOutcomes() {
        int scheduled = 0;
        int other = 0;
        for (long seed = 1; seed <= 300; seed++) {
            for (Decision d : ENGINE.decide(unexplained(request(seed))).decisions()) {
                if (d.outcome() == Outcome.Scheduled) {
                    scheduled++;
                } else {
                    other++;
                }
            }
        }
        assertThat(scheduled).isGreaterThan(300);
        assertThat(other).isGreaterThan(40);
    }

    @Test
    @DisplayName("a gang that fits every rack runs its members in one rack only, unless the decision is explained")
    void untriedRacksAreSkipped() {
        List<Node> nodes = new ArrayList<>();
        for (int r = 0; r < 6; r++) {
            for (int n = 0; n < 2; n++) {
                nodes.add(node("r" + r + "-n" + n).label(RACK, "rack-" + r).allocatable("cpu", String.valueOf(8 + r))
                        .allocatable("memory", "32Gi").build());
            }
        }
        List<Pod> pods = new ArrayList<>();
        for (int m = 0; m < 4; m++) {
            pods.add(member(pod("g-" + m).requests("cpu", "2").requests("memory", "1Gi").build(), "g"));
        }
        ClusterState state = new ClusterState(nodes, pods, List.of(Groups.gang("g", 4).topology(RACK).build()),
                List.of(), List.of());
        AtomicInteger reserved = new AtomicInteger();
        Profile counting = countingReserves(reserved);
        DecisionEngine engine = new DecisionEngine(counting, EngineConfig.DEFAULT);

        Decision quiet = engine.decide(new DecisionRequest(state, null, new DecisionOptions(true, false)))
                .decisions().get(0);
        int quietReserves = reserved.getAndSet(0);
        Decision explained = engine.decide(new DecisionRequest(state, null, new DecisionOptions(true, true)))
                .decisions().get(0);
        int explainedReserves = reserved.get();

        assertThat(quiet.outcome()).isEqualTo(Outcome.Scheduled);
        assertThat(withoutExplanation(explained)).isEqualTo(quiet);
        // the emptiest rack (the largest nodes) wins, and it is the only one whose members ran
        assertThat(quiet.placements()).allSatisfy(a -> assertThat(a.node()).startsWith("r5-"));
        assertThat(quietReserves).isEqualTo(4);
        assertThat(explainedReserves).isEqualTo(6 * 4);
        assertThat(explained.explanation().placements()).hasSize(6);
    }

    private static Profile countingReserves(AtomicInteger reserved) {
        Profile.Builder b = Profile.builder();
        for (InTreePlugins.Entry e : InTreePlugins.entries()) {
            b.add(e.factory().get(), e.defaultWeight());
        }
        b.add(new ReservePlugin() {
            @Override
            public String name() {
                return "CountReserves";
            }

            @Override
            public Status reserve(CycleState state, PodInfo pod, NodeInfo node, ClusterView cluster) {
                reserved.incrementAndGet();
                return Status.SUCCESS;
            }

            @Override
            public void unreserve(CycleState state, PodInfo pod, NodeInfo node, ClusterView cluster) {
            }
        }, 0);
        return b.build();
    }

    private static void assertSameDecisions(DecisionRequest explainedRequest, long seed) {
        DecisionRequest request = unexplained(explainedRequest);
        DecisionResult decided = ENGINE.decide(request);
        assertThat(decided).as("seed %d against the reference", seed).isEqualTo(REFERENCE.decide(request));
        DecisionResult explained = ENGINE.decide(new DecisionRequest(request.cluster(), request.podGroups(),
                new DecisionOptions(request.options().preemption(), true), request.dra()));
        List<Decision> stripped = new ArrayList<>();
        for (Decision d : explained.decisions()) {
            stripped.add(withoutExplanation(d));
        }
        assertThat(decided.decisions()).as("seed %d against the explained decision", seed).isEqualTo(stripped);
        assertThat(decided.pods()).as("seed %d pod statuses", seed).isEqualTo(explained.pods());
    }

    private static DecisionRequest unexplained(DecisionRequest r) {
        return new DecisionRequest(r.cluster(), r.podGroups(), new DecisionOptions(r.options().preemption(), false),
                r.dra());
    }

    private static Decision withoutExplanation(Decision d) {
        return new Decision(d.podGroup(), d.outcome(), d.placements(), d.unschedulablePods(), d.victims(),
                d.nominations(), d.claims(), d.conditions(), d.message(), null, d.compositePodGroup(), d.pod(),
                d.score());
    }

    /**
     * Racks (sometimes inside zones, the group then asking for both levels) of 1-5 nodes of random size, some load
     * bound on them, and 1-3 groups: gangs whose minimum may be below their size, basic groups, bound members,
     * members of different sizes, now and then BestFit or balanced placement.
     */
    static DecisionRequest request(long seed) {
        Random rnd = new Random(seed);
        int racks = 2 + rnd.nextInt(6);
        boolean zones = rnd.nextInt(3) == 0;
        List<Node> nodes = new ArrayList<>();
        List<Pod> pods = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int r = 0; r < racks; r++) {
            int perRack = 1 + rnd.nextInt(5);
            for (int i = 0; i < perRack; i++) {
                String name = "r" + r + "-n" + i;
                var b = node(name).label(RACK, "rack-" + r).label("kubernetes.io/hostname", name)
                        .allocatable("cpu", String.valueOf(2 + rnd.nextInt(6)))
                        .allocatable("memory", (4 + rnd.nextInt(13)) + "Gi");
                if (zones) {
                    b.label(ZONE, "zone-" + (r % 2));
                }
                nodes.add(b.build());
                names.add(name);
                if (rnd.nextInt(3) == 0) {
                    pods.add(pod("load-" + name).requests("cpu", String.valueOf(1 + rnd.nextInt(2)))
                            .requests("memory", (1 + rnd.nextInt(4)) + "Gi").on(name).build());
                }
            }
        }
        int groupCount = 1 + rnd.nextInt(3);
        List<PodGroup> groups = new ArrayList<>();
        for (int g = 0; g < groupCount; g++) {
            String group = "g" + g;
            int size = 1 + rnd.nextInt(10);
            boolean gang = rnd.nextInt(4) != 0;
            Groups gb = gang ? Groups.gang(group, 1 + rnd.nextInt(size)) : Groups.basic(group);
            if (zones && rnd.nextBoolean()) {
                gb.topology(ZONE);
            }
            gb.topology(RACK);
            switch (rnd.nextInt(8)) {
                case 0 -> gb.annotation(PlacementStrategy.ANNOTATION, PlacementStrategy.BEST_FIT);
                case 1 -> gb.annotation(PlacementStrategy.ANNOTATION, PlacementStrategy.BALANCED);
                default -> {
                }
            }
            gb.priority(rnd.nextInt(3) * 10).created(1_700_000_000L + g);
            groups.add(gb.build());
            boolean mixed = rnd.nextBoolean();
            for (int m = 0; m < size; m++) {
                var pb = pod(group + "-" + m).requests("cpu", mixed ? String.valueOf(1 + rnd.nextInt(4)) : "2")
                        .requests("memory", (mixed ? 1 + rnd.nextInt(3) : 1) + "Gi");
                if (m == 0 && rnd.nextInt(4) == 0) {
                    pb.on(names.get(rnd.nextInt(names.size())));
                }
                pods.add(member(pb.build(), group));
            }
        }
        return new DecisionRequest(new ClusterState(nodes, pods, groups, List.of(), List.of()), null,
                new DecisionOptions(rnd.nextBoolean(), true));
    }
}
