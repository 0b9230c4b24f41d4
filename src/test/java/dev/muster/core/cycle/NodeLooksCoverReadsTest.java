package dev.muster.core.cycle;

import dev.muster.core.framework.FrameworkRuntime;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.framework.Status;
import dev.muster.core.model.ClusterState;
import dev.muster.core.model.Node;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodRef;
import dev.muster.core.plugins.InTreePlugins;
import dev.muster.core.properties.ClusterGen;
import dev.muster.core.snapshot.NodeLooks;
import dev.muster.core.snapshot.SnapshotOverlay;
import dev.muster.core.testing.PodCopies;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Placement symmetry treats nodes that look alike as interchangeable for a pod the plugins call node-local and
 * symmetric: equal looks ({@code NodeLooks} over the fields the profile declares: resources, pod counts, ports,
 * taints, schedulability), equal
 * labels the members select by and equal declared node keys ({@code SignPlugin.nodeKey}). Here every node of random
 * clusters gets a twin (another name, the same labels, the same bound pods cloned onto it),
 * and for every such pod each node and its twin must get the same verdict and the same score total. A plugin that
 * reads a node's name, or something of a node no look or key covers, fails it.
 */
class NodeLooksCoverReadsTest {
    @Test
    void nodesThatLookAlikeGetEqualVerdictsAndScores() throws Exception {
        int compared = 0;
        for (long seed = 1; seed <= 150; seed++) {
            ClusterState c = ClusterGen.cluster(seed);
            List<Node> nodes = new ArrayList<>(c.nodes());
            Map<String, String> twinOf = new HashMap<>();
            for (Node n : c.nodes()) {
                String twin = n.name() + "-twin";
                nodes.add(new Node(twin, n.uid() == null ? null : n.uid() + "-twin", n.labels(), n.taints(),
                        n.unschedulable(), n.allocatable()));
                twinOf.put(n.name(), twin);
            }
            List<Pod> pods = new ArrayList<>();
            List<Pod> probes = new ArrayList<>();
            for (Pod p : c.pods()) {
                if (p.isBound()) {
                    pods.add(p);
                    pods.add(PodCopies.with(p, Map.of("ref", new PodRef(p.ref().namespace(), p.ref().name() + "-twin"),
                            "nodeName", twinOf.get(p.nodeName()))));
                } else if (!p.isGated() && probes.size() < 4) {
                    PodRef probe = new PodRef(p.ref().namespace(), "probe-" + probes.size());
                    probes.add(PodCopies.with(p, Map.of("ref", probe, "podGroupName", PodCopies.NONE)));
                }
            }
            pods.addAll(probes);
            ClusterState state = new ClusterState(nodes, pods, c.podGroups(), c.priorityClasses(),
                    c.podDisruptionBudgets(), c.compositePodGroups());
            SnapshotOverlay overlay = new SnapshotOverlay(state);
            FrameworkRuntime runtime = new FrameworkRuntime(InTreePlugins.defaultProfile());
            Placement all = Placement.allNodes(overlay);
            NodeLooks looks = overlay.snapshot().nodeLooks(runtime.lookedNodeFields());
            for (Pod probe : probes) {
                PodInfo info = overlay.pod(probe.ref());
                if (!runtime.runSign(info, all) || !runtime.runSymmetric(info, all)) {
                    continue;
                }
                PodScheduler scheduler = new PodScheduler(runtime, overlay, null, Integer.MAX_VALUE, false);
                scheduler.schedule(info, all);
                Status[] verdicts = scheduler.lastVerdicts();
                long[] totals = scheduler.lastTotals();
                for (Node n : c.nodes()) {
                    int a = overlay.nodeIndex(n.name());
                    int b = overlay.nodeIndex(twinOf.get(n.name()));
                    assertThat(looks.look(a)).as("seed %d: %s and its twin look alike", seed, n.name())
                            .isEqualTo(looks.look(b));
                    String what = "seed " + seed + ", " + probe.ref() + " on " + n.name() + " and its twin";
                    assertThat(verdicts[b]).as(what + ": verdict").isEqualTo(verdicts[a]);
                    if (verdicts[a] == null) {
                        assertThat(totals[b]).as(what + ": score total").isEqualTo(totals[a]);
                    }
                    compared++;
                }
            }
        }
        assertThat(compared).as("node and twin pairs compared").isGreaterThan(200);
    }


}
