package dev.muster.core.properties;

import dev.muster.core.decision.Assignment;
import dev.muster.core.decision.Decision;
import dev.muster.core.decision.DecisionEngine;
import dev.muster.core.decision.DecisionOptions;
import dev.muster.core.decision.DecisionRequest;
import dev.muster.core.decision.EngineConfig;
import dev.muster.core.decision.Outcome;
import dev.muster.core.model.ClusterState;
import dev.muster.core.model.Node;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodGroup;
import dev.muster.core.testing.Groups;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.LongStream;

import static dev.muster.core.testing.Groups.member;
import static dev.muster.core.testing.Nodes.node;
import static dev.muster.core.testing.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * On generated clusters (blocks of racks of nodes, random capacity, some of it taken by other pods), a gang of
 * identical members with random slices (one or two layers, optionally Balanced) is placed, when it is, with every
 * slice inside one domain of its level: the group's members in each domain of a slice level are a whole number of
 * slices (bound and placed members both), the whole group stays inside one domain of its required key, and at least
 * minCount members are placed.
 */
class SlicePropertiesTest {
    private static final String BLOCK = "example.com/block";
    private static final String RACK = "topology.kubernetes.io/rack";
    private static final String HOST = "kubernetes.io/hostname";
    private static final String ZONE = "topology.kubernetes.io/zone";
    private static final DecisionEngine ENGINE = new DecisionEngine(EngineConfig.DEFAULT);
    /** Seeds whose gang was placed: the property must not hold only because nothing is placed. */
    private static final java.util.concurrent.atomic.AtomicInteger PLACED = new java.util.concurrent.atomic.AtomicInteger();
    private static final java.util.concurrent.atomic.AtomicInteger SPLIT = new java.util.concurrent.atomic.AtomicInteger();

    @org.junit.jupiter.api.AfterAll
    static void enoughSeedsPlaceTheGangInSeveralDomains() {
        assertThat(PLACED.get()).isGreaterThanOrEqualTo(50);
        assertThat(SPLIT.get()).isGreaterThanOrEqualTo(20);
    }

    static LongStream seeds() {
        return LongStream.rangeClosed(1, 200);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    @DisplayName("every slice lands inside one domain of its level")
    void everySliceLandsInsideOneDomain(long seed) {
        Random r = new Random(seed);
        List<Node> nodes = new ArrayList<>();
        List<Pod> pods = new ArrayList<>();
        int blocks = 1 + r.nextInt(3);
        for (int b = 0; b < blocks; b++) {
            int racks = 1 + r.nextInt(3);
            for (int k = 0; k < racks; k++) {
                int hosts = 1 + r.nextInt(3);
                for (int h = 0; h < hosts; h++) {
                    String name = "n" + b + k + h;
                    int cpu = 1 + r.nextInt(8);
                    nodes.add(node(name).label(ZONE, "z").label(BLOCK, "b" + b).label(RACK, "r" + b + k)
                            .label(HOST, name).allocatable("cpu", Integer.toString(cpu))
                            .allocatable("memory", "64Gi").build());
                    if (r.nextInt(3) == 0) {
                        pods.add(pod("other-" + name).requests("cpu", Integer.toString(1 + r.nextInt(cpu)))
                                .on(name).build());
                    }
                }
            }
        }
        int[] sizes = {1, 2, 3, 4};
        int outer = sizes[r.nextInt(sizes.length)];
        String outerKey = r.nextBoolean() ? RACK : HOST;
        String slices = outerKey + "=" + outer;
        String innerKey = null;
        int inner = 0;
        if (outerKey.equals(RACK) && outer % 2 == 0 && r.nextBoolean()) {
            innerKey = HOST;
            inner = outer / 2;
            slices += "," + innerKey + "=" + inner;
        }
        int minCount = outer * (1 + r.nextInt(3));
        int members = minCount + r.nextInt(outer + 2);
        String key = r.nextBoolean() ? BLOCK : ZONE;
        Groups g = Groups.gang("g", minCount).topology(key).annotation("muster.dev/slices", slices);
        if (r.nextInt(3) == 0) {
            g.annotation("muster.dev/placement-strategy", "Balanced");
        }
        PodGroup group = g.build();
        for (int i = 0; i < members; i++) {
            pods.add(member(pod(String.format("g-%02d", i)).requests("cpu", "1").requests("memory", "1Gi").build(),
                    "g"));
        }
        Decision d = ENGINE.decide(new DecisionRequest(new ClusterState(nodes, pods, List.of(group), List.of(),
                List.of()), null, new DecisionOptions(true, true))).decisions().get(0);

        String why = "seed " + seed + ", slices " + slices + ", minCount " + minCount + ", members " + members;
        if (d.outcome() != Outcome.Scheduled) {
            assertThat(d.placements()).as(why).isEmpty();
            return;
        }
        assertThat(d.placements().size()).as(why).isGreaterThanOrEqualTo(minCount);
        Map<String, Node> byName = new HashMap<>();
        nodes.forEach(n -> byName.put(n.name(), n));
        Map<String, Integer> perOuter = new HashMap<>();
        Map<String, Integer> perInner = new HashMap<>();
        Map<String, Integer> perKey = new HashMap<>();
        for (Assignment a : d.placements()) {
            Node n = byName.get(a.node());
            perOuter.merge(n.labels().get(outerKey), 1, Integer::sum);
            perKey.merge(n.labels().get(key), 1, Integer::sum);
            if (innerKey != null) {
                perInner.merge(n.labels().get(outerKey) + "/" + n.labels().get(innerKey), 1, Integer::sum);
            }
        }
        assertThat(perKey).as(why).hasSize(1);
        PLACED.incrementAndGet();
        if (perOuter.size() > 1) {
            SPLIT.incrementAndGet();
        }
        int o = outer;
        assertThat(perOuter.values()).as(why + ", per " + outerKey + " " + perOuter)
                .allSatisfy(c -> assertThat(c % o).isZero());
        int in = inner;
        assertThat(perInner.values()).as(why + ", per " + innerKey + " " + perInner)
                .allSatisfy(c -> assertThat(c % in).isZero());
    }
}
