package dev.muster.core.snapshot;

import dev.muster.core.dra.DraObjects;
import dev.muster.core.model.ClusterState;
import dev.muster.core.model.Node;
import dev.muster.core.model.PodGroup;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

import static dev.muster.core.testing.Groups.gang;
import static dev.muster.core.testing.Nodes.node;
import static org.assertj.core.api.Assertions.assertThat;

class TopologyDomainsTest {
    private static final String RACK = "topology.kubernetes.io/rack";
    private static final String ZONE = "topology.kubernetes.io/zone";

    private static ClusterSnapshot snapshot(List<Node> nodes, List<PodGroup> groups) {
        return new ClusterSnapshot(new ClusterState(new ArrayList<>(nodes), List.of(), new ArrayList<>(groups),
                List.of(), List.of()), DraObjects.NONE);
    }

    /** The grouping spelled out: every node with the label under its value, in node order. */
    private static Map<String, List<Integer>> expected(ClusterSnapshot s, String key) {
        Map<String, List<Integer>> out = new TreeMap<>();
        for (int i = 0; i < s.nodeCount(); i++) {
            String v = s.nodeObject(i).labels().get(key);
            if (v != null) {
                out.computeIfAbsent(v, k -> new ArrayList<>()).add(i);
            }
        }
        return out;
    }

    private static Map<String, List<Integer>> actual(Map<String, int[]> domains) {
        Map<String, List<Integer>> out = new TreeMap<>();
        domains.forEach((v, idx) -> out.put(v, java.util.Arrays.stream(idx).boxed().toList()));
        return out;
    }

    @Test
    void domainsHoldEveryLabelledNodeInValueOrderAndNodeOrder() {
        SplittableRandom random = new SplittableRandom(11);
        for (int round = 0; round < 50; round++) {
            List<Node> nodes = new ArrayList<>();
            int count = random.nextInt(0, 60);
            int racks = random.nextInt(1, 40); // more values than the first guess of 16 sometimes
            for (int i = 0; i < count; i++) {
                var b = node(String.format("n%03d", i)).allocatable("cpu", "4");
                if (random.nextInt(5) > 0) {
                    b.label(RACK, "rack-" + random.nextInt(racks));
                }
                nodes.add(b.build());
            }
            ClusterSnapshot s = snapshot(nodes, List.of());
            assertThat(actual(s.topologyDomains(RACK))).as("round %d", round).isEqualTo(expected(s, RACK));
            assertThat(s.topologyDomains(ZONE)).isEmpty();
        }
    }

    @Test
    void warmingGroupsTheKeysPodGroupsNameAheadAndLaterCallsGetThatGrouping() {
        List<Node> nodes = List.of(node("a").label(RACK, "r2").label(ZONE, "z").build(),
                node("b").label(RACK, "r1").build(), node("c").label(ZONE, "z").build());
        ClusterSnapshot s = snapshot(nodes, List.of(gang("train", 2).topology(RACK).build()));
        assertThat(s.groupedKeys()).isEmpty();
        assertThat(s.warmTopology()).isSameAs(s);
        assertThat(s.groupedKeys()).containsExactly(RACK); // only what a PodGroup names
        Map<String, int[]> rack = s.topologyDomains(RACK);
        assertThat(actual(rack)).isEqualTo(Map.of("r1", List.of(1), "r2", List.of(0)));
        assertThat(s.topologyDomains(RACK)).isSameAs(rack); // grouped once
        assertThat(actual(s.topologyDomains(ZONE))).isEqualTo(Map.of("z", List.of(0, 2)));
    }
}
