package dev.muster.core.cycle;

import dev.muster.core.framework.FrameworkRuntime;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.framework.Status;
import dev.muster.core.model.ClusterState;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodRef;
import dev.muster.core.plugins.InTreePlugins;
import dev.muster.core.properties.ClusterGen;
import dev.muster.core.snapshot.SnapshotOverlay;
import dev.muster.core.testing.PodCopies;
import org.junit.jupiter.api.Test;

import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The pod signature decides when one pod's evaluation stands for another's, so it must cover everything Filter and
 * Score read of a pod: the fields it lists, and what signing plugins declare ({@code SignPlugin.podKey}). Here every
 * field of random pending pods (ClusterGen's clusters) is changed in turn; whenever the two pods' signatures stay
 * equal, every node's verdict and weighted score total must be equal too. A plugin that starts reading a pod field
 * nobody declared fails this test for the first cluster where that field matters.
 */
class SignatureCoversReadsTest {
    /** Fields whose change takes a pod out of scheduling or binds it: not a question of signatures. */
    private static final Set<String> NOT_MUTATED = Set.of("nodeName", "phase", "terminating", "schedulingGates",
            "podGroupName");

    @Test
    void equalSignaturesGetEqualVerdictsAndScoresOnEveryNode() throws Exception {
        int compared = 0;
        int differing = 0;
        Map<String, Integer> comparedByField = new HashMap<>();
        for (long seed = 1; seed <= 30; seed++) {
            ClusterState cluster = ClusterGen.cluster(seed);
            List<Pod> bases = new ArrayList<>();
            for (Pod p : cluster.pods()) {
                if (!p.isBound() && !p.isGated() && bases.size() < 3) {
                    bases.add(p);
                }
            }
            for (Pod base : bases) {
                Pod a = PodCopies.with(base, Map.of("ref", new PodRef(base.ref().namespace(), "probe-a"), "podGroupName",
                        PodCopies.NONE, "uid", "uid-probe-a"));
                for (Map.Entry<String, Object> m : mutations(a).entrySet()) {
                    Pod b = PodCopies.with(a, Map.of(m.getKey(), m.getValue()));
                    if (!m.getKey().equals("ref")) {
                        b = PodCopies.with(b, Map.of("ref", new PodRef(a.ref().namespace(), "probe-b")));
                    }
                    Boolean same = sameEvaluation(cluster, a, b, "seed " + seed + ", " + base.ref() + ", field "
                            + m.getKey());
                    if (same == null) {
                        differing++;
                    } else {
                        compared++;
                        comparedByField.merge(m.getKey(), 1, Integer::sum);
                    }
                }
            }
        }
        assertThat(compared).as("pairs with equal signatures compared").isGreaterThan(100);
        assertThat(differing).as("pairs whose signatures differ (the signature does see some fields)").isPositive();
        assertThat(comparedByField).as("fields compared").containsKeys("labels", "priority", "creationEpochSec", "ref");
    }

    /** Null when the signatures differ; else asserts both evaluations equal and returns true. */
    private static Boolean sameEvaluation(ClusterState cluster, Pod a, Pod b, String what) {
        List<Pod> pods = new ArrayList<>();
        for (Pod p : cluster.pods()) {
            if (p.isBound()) {
                pods.add(p);
            }
        }
        pods.add(a);
        pods.add(b);
        ClusterState state = new ClusterState(cluster.nodes(), pods, cluster.podGroups(), cluster.priorityClasses(),
                cluster.podDisruptionBudgets(), cluster.compositePodGroups());
        SnapshotOverlay overlay = new SnapshotOverlay(state);
        FrameworkRuntime runtime = new FrameworkRuntime(InTreePlugins.defaultProfile());
        Placement all = Placement.allNodes(overlay);
        PodInfo ia = overlay.pod(a.ref());
        PodInfo ib = overlay.pod(b.ref());
        if (!signature(runtime, ia, all).equals(signature(runtime, ib, all))) {
            return null;
        }
        PodScheduler scheduler = new PodScheduler(runtime, overlay, null, Integer.MAX_VALUE, false);
        scheduler.schedule(ia, all);
        Status[] va = scheduler.lastVerdicts();
        long[] ta = scheduler.lastTotals();
        scheduler.schedule(ib, all);
        assertThat(scheduler.lastVerdicts()).as(what + ": verdicts per node").isEqualTo(va);
        assertThat(scheduler.lastTotals()).as(what + ": score totals per node").isEqualTo(ta);
        return true;
    }

    private static PodSignature signature(FrameworkRuntime runtime, PodInfo pod, Placement placement) {
        return PodSignature.of(runtime, pod, placement, true);
    }


    /** One changed value per field of a simple type (strings, numbers, string maps). */
    private static Map<String, Object> mutations(Pod p) throws Exception {
        Map<String, Object> out = new java.util.LinkedHashMap<>();
        for (RecordComponent c : Pod.class.getRecordComponents()) {
            String n = c.getName();
            if (NOT_MUTATED.contains(n)) {
                continue;
            }
            Object v = c.getAccessor().invoke(p);
            Class<?> t = c.getType();
            if (t == String.class) {
                out.put(n, v == null ? "mutated" : v + "-mutated");
            } else if (t == Integer.class) {
                out.put(n, v == null ? 1000 : (Integer) v + 1000);
            } else if (t == long.class) {
                out.put(n, (Long) v + 1000);
            } else if (t == PodRef.class) {
                out.put(n, new PodRef(((PodRef) v).namespace(), "probe-renamed"));
            } else if (t == Map.class) {
                @SuppressWarnings("unchecked")
                Map<String, String> m = v == null ? new HashMap<>() : new HashMap<>((Map<String, String>) v);
                if (n.equals("labels") && m.containsKey("app")) {
                    m.put("app", m.get("app").equals("web") ? "db" : "web");
                } else {
                    m.put("example.com/mutated", "yes");
                }
                out.put(n, m);
            }
        }
        return out;
    }


}
