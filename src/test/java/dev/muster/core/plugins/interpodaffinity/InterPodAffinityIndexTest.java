package dev.muster.core.plugins.interpodaffinity;

import dev.muster.core.framework.PodInfo;
import dev.muster.core.framework.Status;
import dev.muster.core.model.LabelSelector;
import dev.muster.core.model.Node;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodAffinityTerm;
import dev.muster.core.snapshot.SnapshotOverlay;
import dev.muster.core.testing.Nodes;
import dev.muster.core.testing.Pods;
import dev.muster.core.testing.TestCluster;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The plugin's per-snapshot indexes are kept current by assume, forget and rollback: after any such sequence,
 * every Filter verdict and normalized score equals the one computed on a fresh snapshot where the same pods are
 * simply bound to the same nodes (so the indexes are built from scratch). Seeded random clusters with every kind of
 * term, selectors with and without matchLabels, namespaces, and term objects shared between pods.
 */
class InterPodAffinityIndexTest {
    private static final String ZONE = "topology.kubernetes.io/zone";
    private static final String HOST = "kubernetes.io/hostname";
    private static final String[] APPS = {"web", "db", "cache"};
    private static final String[] NAMESPACES = {"default", "other"};
    private static final int NODES = 6;
    private static final List<PodAffinityTerm> SHARED_TERMS = sharedTerms();

    private static List<PodAffinityTerm> sharedTerms() {
        Random rnd = new Random(42);
        List<PodAffinityTerm> out = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            out.add(randomTerm(rnd));
        }
        return List.copyOf(out);
    }

    static Stream<Long> seeds() {
        return IntStream.range(0, 150).mapToObj(i -> 7_000L + i);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void incrementalIndexesMatchAFreshBuild(long seed) {
        Random rnd = new Random(seed);
        List<Node> nodes = new ArrayList<>();
        for (int i = 0; i < NODES; i++) {
            Nodes n = Nodes.node("n" + i).label(HOST, "n" + i);
            if (i != NODES - 1) {
                n.label(ZONE, "z" + (i % 2)); // the last node has no zone
            }
            nodes.add(n.build());
        }
        // each pod is regenerated from its own seed, so the fresh cluster gets the same pods on other nodes
        Map<String, Long> podSeeds = new LinkedHashMap<>();
        List<Pod> all = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            podSeeds.put("b" + i, rnd.nextLong());
            all.add(randomPod(podSeeds.get("b" + i), "b" + i).on("n" + rnd.nextInt(NODES)).build());
        }
        for (int i = 0; i < 6; i++) {
            podSeeds.put("p" + i, rnd.nextLong());
            all.add(randomPod(podSeeds.get("p" + i), "p" + i).build());
        }
        TestCluster live = TestCluster.of(nodes, all);
        InterPodAffinityPlugin plugin = new InterPodAffinityPlugin();
        SnapshotOverlay snap = live.snapshot();
        // build the indexes before any change, as a first evaluation in a cycle does
        live.filter(plugin, "p0");
        live.score(plugin, "p0");

        // where each pod is at the end: bound pods start on their node; changes move them
        Map<String, String> where = new LinkedHashMap<>();
        for (Pod p : all) {
            where.put(p.ref().name(), p.nodeName());
        }
        int mark = -1;
        Map<String, String> atMark = null;
        for (int step = 0; step < 10; step++) {
            String name = rnd.nextBoolean() ? "p" + rnd.nextInt(6) : "b" + rnd.nextInt(8);
            PodInfo info = live.pod(name);
            String node = where.get(name);
            if (node == null) {
                String to = "n" + rnd.nextInt(NODES);
                snap.assume(info, snap.nodeIndex(to));
                where.put(name, to);
            } else {
                snap.forget(info, snap.nodeIndex(node));
                where.put(name, null);
            }
            if (step == 3) {
                mark = snap.mark();
                atMark = new LinkedHashMap<>(where);
            }
        }
        if (rnd.nextBoolean()) {
            snap.rollbackTo(mark);
            where = atMark;
        }

        List<Pod> expectedPods = new ArrayList<>();
        for (Map.Entry<String, Long> e : podSeeds.entrySet()) {
            Pods p = randomPod(e.getValue(), e.getKey());
            String node = where.get(e.getKey());
            expectedPods.add(node == null ? p.build() : p.on(node).build());
        }
        TestCluster fresh = TestCluster.of(nodes, expectedPods);
        // probe with pods that are off every node in both clusters: pending ones not placed at the end
        for (String probe : where.keySet()) {
            if (where.get(probe) != null) {
                continue;
            }
            Map<String, String> got = verdicts(live.filter(plugin, probe));
            Map<String, String> want = verdicts(fresh.filter(plugin, probe));
            assertThat(got).as("filter of %s, seed %d", probe, seed).isEqualTo(want);
            assertThat(live.score(plugin, probe)).as("scores of %s, seed %d", probe, seed)
                    .isEqualTo(fresh.score(plugin, probe));
        }
    }

    private static Map<String, String> verdicts(Map<String, Status> statuses) {
        Map<String, String> out = new LinkedHashMap<>();
        statuses.forEach((n, s) -> out.put(n, s.isSuccess() ? "ok" : s.code() + ":" + s.message()));
        return out;
    }

    private static Pods randomPod(long seed, String name) {
        Random rnd = new Random(seed);
        Pods p = Pods.pod(name).namespace(NAMESPACES[rnd.nextInt(4) == 0 ? 1 : 0]);
        p.label("app", APPS[rnd.nextInt(APPS.length)]);
        if (rnd.nextBoolean()) {
            p.label("tier", rnd.nextBoolean() ? "front" : "back");
        }
        int terms = rnd.nextInt(3);
        for (int i = 0; i < terms; i++) {
            // half the terms are objects shared between pods (as pods compiled from one spec share theirs), in
            // other namespaces and as other kinds of term too: the index finds entries by object first
            PodAffinityTerm t = rnd.nextBoolean() ? SHARED_TERMS.get(rnd.nextInt(SHARED_TERMS.size())) : randomTerm(rnd);
            switch (rnd.nextInt(4)) {
                case 0 -> p.podAffinity(t);
                case 1 -> p.podAntiAffinity(t);
                case 2 -> p.preferredPodAffinity(1 + rnd.nextInt(100), t);
                default -> p.preferredPodAntiAffinity(1 + rnd.nextInt(100), t);
            }
        }
        return p;
    }

    private static PodAffinityTerm randomTerm(Random rnd) {
        String key = rnd.nextBoolean() ? ZONE : HOST;
        LabelSelector selector = switch (rnd.nextInt(4)) {
            case 0 -> Pods.labels("app", APPS[rnd.nextInt(APPS.length)]);
            case 1 -> Pods.labels("app", APPS[rnd.nextInt(APPS.length)], "tier", "front");
            case 2 -> new LabelSelector(Map.of(), List.of(new LabelSelector.Requirement("app",
                    LabelSelector.Operator.In, List.of(APPS[rnd.nextInt(APPS.length)], "db"))));
            default -> LabelSelector.EVERYTHING;
        };
        if (rnd.nextInt(4) == 0) {
            return Pods.affinityTerm(selector, key, List.of("default", "other"), null);
        }
        return Pods.affinityTerm(selector, key);
    }
}
