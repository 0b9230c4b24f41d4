package dev.muster.core.decision;

import dev.muster.core.model.ClusterState;
import dev.muster.core.model.Node;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodGroup;
import dev.muster.core.testing.Groups;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.stream.LongStream;

import static dev.muster.core.decision.DecisionEngineTest.cpuNode;
import static dev.muster.core.decision.DecisionEngineTest.worker;
import static dev.muster.core.testing.Groups.withPriority;
import static dev.muster.core.testing.Nodes.node;
import static dev.muster.core.testing.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;

/** Victims are given back most important first, whatever the names and order of the nodes they run on. */
class PreemptionVictimOrderTest {
    private final DecisionEngine engine = new DecisionEngine(EngineConfig.DEFAULT);

    private static Pod running(String name, String node, String cpu, int priority) {
        return withPriority(pod(name).requests("cpu", cpu).label("app", name).on(node).build(), priority);
    }

    private Decision decide(List<Node> nodes, List<Pod> pods, List<PodGroup> groups) {
        DecisionResult r = engine.decide(new DecisionRequest(new ClusterState(nodes, pods, groups, List.of(),
                List.of()), null, new DecisionOptions(true, false)));
        return r.decisions().stream().filter(d -> d.podGroup().name().equals("g")).findFirst().orElseThrow();
    }

    private static List<String> victimNames(Decision d) {
        List<String> out = new ArrayList<>();
        d.victims().forEach(v -> out.add(v.pod().name()));
        return out;
    }

    @ParameterizedTest(name = "priority-5 pod on {0}")
    @MethodSource("firstMiddleLast")
    @DisplayName("a 2-pod gang needing whole nodes evicts the two priority-1 pods, wherever the priority-5 pod runs")
    void reprievesTheMoreImportantPodWhateverTheNode(String highNode) {
        List<Node> nodes = List.of(cpuNode("n1", "4"), cpuNode("n2", "4"), cpuNode("n3", "4"));
        List<String> others = new ArrayList<>(List.of("n1", "n2", "n3"));
        others.remove(highNode);
        List<Pod> pods = new ArrayList<>(List.of(running("high", highNode, "4", 5),
                running("low-a", others.get(0), "4", 1), running("low-b", others.get(1), "4", 1)));
        pods.add(worker("g-0", "g", "4"));
        pods.add(worker("g-1", "g", "4"));

        Decision d = decide(nodes, pods, List.of(Groups.gang("g", 2).priority(100).build()));

        assertThat(d.outcome()).isEqualTo(Outcome.Preempting);
        assertThat(victimNames(d)).containsExactly("low-a", "low-b");
        assertThat(d.nominations()).extracting(Assignment::node).containsExactlyInAnyOrderElementsOf(others);
    }

    static List<String> firstMiddleLast() {
        return List.of("n1", "n2", "n3");
    }

    @Test
    @DisplayName("the give-back keeps every victim that is not needed: no victim could be given back alone")
    void victimSetIsMinimal() {
        // Four 2-cpu pods on two 4-cpu nodes, a gang of two 2-cpu pods: two victims suffice, the rest stay.
        List<Node> nodes = List.of(cpuNode("n1", "4"), cpuNode("n2", "4"), cpuNode("n3", "4"));
        List<Pod> pods = new ArrayList<>(List.of(running("a", "n1", "2", 3), running("b", "n1", "2", 1),
                running("c", "n2", "2", 2), running("d", "n2", "2", 1), running("e", "n3", "4", 4)));
        pods.add(worker("g-0", "g", "2"));
        pods.add(worker("g-1", "g", "2"));

        Decision d = decide(nodes, pods, List.of(Groups.gang("g", 2).priority(100).build()));

        assertThat(d.outcome()).isEqualTo(Outcome.Preempting);
        assertThat(victimNames(d)).containsExactly("b", "d");
    }

    static LongStream seeds() {
        return LongStream.rangeClosed(1, Integer.getInteger("muster.props.seeds", 300));
    }

    /**
     * A small random cluster: 2–6 nodes of 4 or 8 cpu, mostly full of running pods at
     * priorities 0–6, one gang of identical members at priority
     * 10 (greedy placement is complete for identical members, so whether it fits never depends on node names).
     * With {@code renamed}, node i is called by a random permutation of other names (so the name order changes) and
     * the request lists nodes and pods in reverse.
     */
    private static ClusterState instance(long seed, boolean renamed) {
        SplittableRandom r = new SplittableRandom(seed);
        int n = 2 + r.nextInt(5);
        List<String> names = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            names.add(renamed ? String.format("host-%02d", i) : "node-" + i);
        }
        if (renamed) {
            SplittableRandom shuffle = new SplittableRandom(~seed);
            for (int i = names.size() - 1; i > 0; i--) {
                int j = shuffle.nextInt(i + 1);
                String t = names.get(i);
                names.set(i, names.get(j));
                names.set(j, t);
            }
        }
        List<Node> nodes = new ArrayList<>();
        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String name = names.get(i);
            long cpu = r.nextInt(3) == 0 ? 8 : 4;
            nodes.add(node(name).allocatable("cpu", cpu + "").allocatable("memory", "64Gi").build());
            long left = cpu;
            int count = 1 + r.nextInt(3);
            for (int k = 0; k < count && left > 0; k++) {
                long req = Math.min(left, 1L << r.nextInt(3));
                left -= req;
                pods.add(running("p-" + i + "-" + k, name, req + "", r.nextInt(7)));
            }
        }
        int m = 1 + r.nextInt(4);
        long req = 1L << (1 + r.nextInt(2));
        for (int i = 0; i < m; i++) {
            pods.add(worker("g-" + i, "g", req + ""));
        }
        PodGroup g = Groups.gang("g", 1 + r.nextInt(m)).priority(10).build();
        if (renamed) {
            Collections.reverse(nodes);
            Collections.reverse(pods);
        }
        return new ClusterState(nodes, pods, List.of(g), List.of(), List.of());
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    @DisplayName("renaming and reordering nodes changes neither the outcome nor the victim set")
    void victimsIndependentOfNodeNames(long seed) {
        ClusterState s = instance(seed, false);
        ClusterState t = instance(seed, true);
        Decision a = decide(s.nodes(), s.pods(), s.podGroups());
        Decision b = decide(t.nodes(), t.pods(), t.podGroups());

        assertThat(b.outcome()).as("seed %d\n%s", seed, s).isEqualTo(a.outcome());
        assertThat(new TreeSet<>(victimNames(b))).as("seed %d\n%s", seed, s)
                .isEqualTo(new TreeSet<>(victimNames(a)));
    }
}
