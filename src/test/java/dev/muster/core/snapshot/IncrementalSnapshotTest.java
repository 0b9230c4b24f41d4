package dev.muster.core.snapshot;

import dev.muster.core.dra.DraObjects;
import dev.muster.core.framework.NodeInfo;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.model.ClusterState;
import dev.muster.core.model.Node;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodGroup;
import dev.muster.core.model.PodRef;
import dev.muster.core.model.PriorityClass;
import dev.muster.core.testing.Groups;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static dev.muster.core.testing.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ClusterSnapshot#next}: over random sequences of changes (objects added, replaced, removed; unchanged ones
 * kept as the same instances, as a watching source keeps them), every derived snapshot reads exactly like a full
 * compile of the same state: node tables, pod entries and index, members, gated pods, affinity counts, topology
 * domains.
 */
class IncrementalSnapshotTest {
    private static final String RACK = "topology.kubernetes.io/rack";

    @Test
    void everyDerivedSnapshotReadsLikeAFullCompileOfTheSameState() {
        for (int seed = 1; seed <= 80; seed++) {
            Random rnd = new Random(seed);
            Map<String, Node> nodes = new TreeMap<>();
            Map<String, Pod> pods = new TreeMap<>();
            Map<String, PodGroup> groups = new TreeMap<>();
            List<PriorityClass> classes = List.of(new PriorityClass("high", 1000, false, null));
            for (int i = 0; i < 6; i++) {
                nodes.put("n" + i, node(i, rnd));
            }
            ClusterSnapshot derived = null;
            for (int step = 0; step < 40; step++) {
                int changes = 1 + rnd.nextInt(4);
                for (int c = 0; c < changes; c++) {
                    change(rnd, nodes, pods, groups);
                }
                if (rnd.nextInt(15) == 0) {
                    classes = List.of(new PriorityClass("high", 1000 + step, false, null));
                }
                ClusterState state = new ClusterState(new ArrayList<>(nodes.values()), new ArrayList<>(pods.values()),
                        new ArrayList<>(groups.values()), classes, List.of());
                derived = ClusterSnapshot.next(derived, state, DraObjects.NONE);
                assertSame("seed " + seed + " step " + step, derived, new ClusterSnapshot(state), pods);
            }
        }
    }

    private static Node node(int i, Random rnd) {
        return dev.muster.core.testing.Nodes.node("n" + i).label(RACK, "r" + (i % 3 == 0 ? rnd.nextInt(2) : 2)).label("kubernetes.io/hostname", "n" + i)
                .allocatable("cpu", String.valueOf(4 + rnd.nextInt(4))).allocatable("memory", "16Gi")
                .allocatable("pods", "110").build();
    }

    private static void change(Random rnd, Map<String, Node> nodes, Map<String, Pod> pods,
                               Map<String, PodGroup> groups) {
        int kind = rnd.nextInt(20);
        if (kind == 0) {
            int i = rnd.nextInt(8); // n6, n7: nodes come and go
            if (nodes.containsKey("n" + i) && rnd.nextBoolean()) {
                nodes.remove("n" + i);
            } else {
                nodes.put("n" + i, node(i, rnd));
            }
        } else if (kind == 1) {
            String name = "g" + rnd.nextInt(3);
            var g = Groups.gang(name, 1 + rnd.nextInt(2)).namespace("ns").topology(RACK);
            if (rnd.nextBoolean()) {
                g.priority(rnd.nextInt(5));
            }
            groups.put(name, g.build());
        } else {
            String name = "p" + rnd.nextInt(30);
            if (rnd.nextInt(4) == 0) {
                pods.remove(name);
                return;
            }
            var b = pod(name).namespace("ns").requests("cpu", (1 + rnd.nextInt(3)) + "00m").label("app", "a" + rnd.nextInt(2));
            if (rnd.nextInt(6) == 0) {
                b.requests("example.com/gpu", "1");
            }
            if (rnd.nextInt(5) == 0) {
                b.podAntiAffinity(dev.muster.core.testing.Pods.affinityTerm(
                        dev.muster.core.testing.Pods.labels("app", "a0"), RACK));
            }
            if (rnd.nextInt(2) == 0) {
                b.on("n" + rnd.nextInt(8));
            }
            if (rnd.nextInt(8) == 0) {
                b.phase("Succeeded");
            }
            Pod p = b.build();
            if (rnd.nextInt(2) == 0) {
                p = Groups.member(p, "g" + rnd.nextInt(3));
            }
            if (rnd.nextInt(6) == 0) {
                p = Groups.gated(p, "wait");
            }
            if (rnd.nextInt(5) == 0) {
                p = Groups.withPriority(p, rnd.nextInt(3));
            }
            pods.put(name, p);
        }
    }

    private static void assertSame(String at, ClusterSnapshot d, ClusterSnapshot f, Map<String, Pod> pods) {
        assertThat(d.nodeCount()).as(at).isEqualTo(f.nodeCount());
        assertThat(d.resources().names()).as(at).isEqualTo(f.resources().names());
        boolean[] dOn = d.compiledOnNode();
        boolean[] fOn = f.compiledOnNode();
        for (int i = 0; i < f.nodeCount(); i++) {
            NodeInfo a = d.compiledNode(i);
            NodeInfo b = f.compiledNode(i);
            assertThat(a.node()).as(at).isEqualTo(b.node());
            assertThat(a.index()).as(at).isEqualTo(i);
            assertThat(refs(a.pods())).as(at + " pods on " + b.name()).isEqualTo(refs(b.pods()));
            for (int r = 0; r < f.resources().size(); r++) {
                assertThat(a.requested(r)).as(at).isEqualTo(b.requested(r));
                assertThat(a.allocatable(r)).as(at).isEqualTo(b.allocatable(r));
            }
            assertThat(a.nonZeroCpu()).as(at).isEqualTo(b.nonZeroCpu());
            assertThat(a.nonZeroMemory()).as(at).isEqualTo(b.nonZeroMemory());
            assertThat(a.usedPorts()).as(at).isEqualTo(b.usedPorts());
            assertThat(a.hasPodsWithAffinity()).as(at).isEqualTo(b.hasPodsWithAffinity());
            assertThat(a.hasPodsWithRequiredAntiAffinity()).as(at).isEqualTo(b.hasPodsWithRequiredAntiAffinity());
        }
        assertThat(refs(d.pods())).as(at).isEqualTo(refs(f.pods()));
        for (int i = 0; i < f.pods().size(); i++) {
            PodInfo a = d.pods().get(i);
            PodInfo b = f.pods().get(i);
            assertThat(a.pod()).as(at).isSameAs(b.pod());
            assertThat(a.requestVector()).as(at).isEqualTo(b.requestVector());
            assertThat(a.priority()).as(at).isEqualTo(b.priority());
            assertThat(a.effectivePriority()).as(at).isEqualTo(b.effectivePriority());
            assertThat(a.nonZeroCpu()).as(at).isEqualTo(b.nonZeroCpu());
            assertThat(dOn[a.ordinal()]).as(at + " on node " + a).isEqualTo(fOn[b.ordinal()]);
        }
        for (int i = 0; i < 32; i++) {
            PodRef ref = new PodRef("ns", "p" + i);
            PodInfo a = d.pod(ref);
            PodInfo b = f.pod(ref);
            assertThat(a == null ? null : a.pod()).as(at + " " + ref).isSameAs(b == null ? null : b.pod());
        }
        assertThat(refs(d.gatedPendingPods())).as(at).isEqualTo(refs(f.gatedPendingPods()));
        assertThat(d.membersByGroup().keySet()).as(at).isEqualTo(f.membersByGroup().keySet());
        f.membersByGroup().forEach((g, m) -> assertThat(refs(d.members(g))).as(at).isEqualTo(refs(m)));
        assertThat(d.podGroups()).as(at).isEqualTo(f.podGroups());
        for (var g : f.podGroups().keySet()) {
            assertThat(d.groupPriority(g)).as(at).isEqualTo(f.groupPriority(g));
        }
        assertThat(d.compiledPodsWithAffinity()).as(at).isEqualTo(f.compiledPodsWithAffinity());
        assertThat(d.compiledPodsWithRequiredAntiAffinity()).as(at)
                .isEqualTo(f.compiledPodsWithRequiredAntiAffinity());
        assertThat(d.topologyDomains(RACK).keySet()).as(at).isEqualTo(f.topologyDomains(RACK).keySet());
        f.topologyDomains(RACK).forEach((v, idx) -> assertThat(d.topologyDomains(RACK).get(v)).as(at).isEqualTo(idx));
    }

    private static List<PodRef> refs(List<PodInfo> infos) {
        List<PodRef> out = new ArrayList<>();
        for (PodInfo p : infos) {
            out.add(p.ref());
        }
        return out;
    }
}
