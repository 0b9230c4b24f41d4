package dev.muster.adapter.clusterview;

import dev.muster.core.decision.DecisionEngine;
import dev.muster.core.decision.DecisionOptions;
import dev.muster.core.decision.DecisionRequest;
import dev.muster.core.decision.DecisionResult;
import dev.muster.core.decision.EngineConfig;
import dev.muster.core.model.ClusterState;
import dev.muster.core.model.Node;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodGroup;
import dev.muster.core.model.PodRef;
import dev.muster.core.testing.Groups;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static dev.muster.core.testing.Nodes.node;
import static dev.muster.core.testing.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The store a watching source keeps: whatever sequence of adds, updates and deletes arrives, its view equals the
 * view built from scratch out of the objects that remain, and so does the decision made on it.
 */
class ViewStoreTest {
    private static final DecisionOptions NO_PREEMPTION = new DecisionOptions(false, false);
    private final DecisionEngine engine = new DecisionEngine(EngineConfig.DEFAULT);

    /** The reference: every kind in a map rebuilt from scratch, sorted by key when a state is wanted. */
    private static final class Reference {
        final Map<String, Node> nodes = new TreeMap<>();
        final Map<String, Pod> pods = new TreeMap<>();
        final Map<String, PodGroup> groups = new TreeMap<>();

        ClusterState state() {
            return new ClusterState(new ArrayList<>(nodes.values()), new ArrayList<>(pods.values()),
                    new ArrayList<>(groups.values()), List.of(), List.of());
        }
    }

    @Test
    void anySequenceOfChangesGivesTheViewAndDecisionOfAFullRebuild() {
        for (int seed = 1; seed <= 60; seed++) {
            Random rnd = new Random(seed);
            ViewStore store = new ViewStore("test");
            Reference ref = new Reference();
            long changes = 0;
            int steps = 50 + rnd.nextInt(250);
            for (int step = 0; step < steps; step++) {
                changes += apply(rnd, store, ref);
                if (rnd.nextInt(10) == 0 || step == steps - 1) {
                    WatchedClusterVersion v = store.current();
                    assertThat(v.generation()).as("seed %d step %d: one generation per change", seed, step)
                            .isEqualTo(changes);
                    assertThat(v.state()).as("seed %d step %d", seed, step).isEqualTo(ref.state());
                    assertThat(store.current()).as("no change, same view").isSameAs(v);
                    // compiled from the previous view's snapshot when that one was compiled: the same decision
                    assertThat(engine.decide(v.compiled(), null, NO_PREEMPTION, () -> false))
                            .as("seed %d step %d", seed, step)
                            .isEqualTo(engine.decide(new DecisionRequest(ref.state(), null, NO_PREEMPTION, null)));
                }
            }
            WatchedClusterVersion v = store.current();
            DecisionResult incremental = engine.decide(v.compiled(), null, NO_PREEMPTION, () -> false);
            DecisionResult full = engine.decide(new DecisionRequest(ref.state(), null, NO_PREEMPTION, null));
            assertThat(incremental).as("seed %d: decision on the store's view", seed).isEqualTo(full);
            for (Pod p : ref.pods.values()) {
                assertThat(v.pod(p.ref())).isEqualTo(p);
            }
            for (Node n : ref.nodes.values()) {
                assertThat(v.node(n.name())).isEqualTo(n);
            }
        }
    }

    @Test
    void theSameObjectsInAnyArrivalOrderGiveTheSameView() {
        Random rnd = new Random(7);
        Reference ref = new Reference();
        ViewStore first = new ViewStore("a");
        for (int i = 0; i < 400; i++) {
            apply(rnd, first, ref);
        }
        List<Runnable> puts = new ArrayList<>();
        ViewStore second = new ViewStore("b");
        ref.nodes.forEach((k, n) -> puts.add(() -> second.putNode(k, n)));
        ref.pods.forEach((k, p) -> puts.add(() -> second.putPod(k, p)));
        ref.groups.forEach((k, g) -> puts.add(() -> second.putPodGroup(k, g)));
        Collections.shuffle(puts, new Random(11));
        puts.forEach(Runnable::run);
        assertThat(second.current().state()).isEqualTo(first.current().state());
        assertThat(engine.decide(second.current().compiled(), null, NO_PREEMPTION, () -> false))
                .isEqualTo(engine.decide(first.current().compiled(), null, NO_PREEMPTION, () -> false));
    }

    @Test
    void aViewCompiledAfterOnesNeverCompiledReusesTheLastCompiledSnapshot() {
        ViewStore store = new ViewStore("test");
        store.putNode("n1", node("n1").allocatable("cpu", "4").allocatable("pods", "110").build());
        Pod stays = pod("stays").namespace("ns").requests("cpu", "1").on("n1").build();
        store.putPod("ns/stays", stays);
        var first = store.current().compiled();
        store.putPod("ns/a", pod("a").namespace("ns").requests("cpu", "1").build());
        WatchedClusterVersion skipped = store.current(); // assembled, never compiled
        store.putPod("ns/b", pod("b").namespace("ns").requests("cpu", "1").build());
        WatchedClusterVersion latest = store.current();
        assertThat(skipped.isCompiled()).isFalse();
        var derived = latest.compiled();
        assertThat(derived.pod(stays.ref())).as("the unchanged pod's entry comes from the first snapshot")
                .isSameAs(first.pod(stays.ref()));
        assertThat(derived.pods()).hasSize(3);
        assertThat(engine.decide(derived, null, NO_PREEMPTION, () -> false))
                .isEqualTo(engine.decide(new DecisionRequest(latest.state(), null, NO_PREEMPTION, null)));
    }

    @Test
    void removingWhatIsNotThereIsNoChange() {
        ViewStore store = new ViewStore("test");
        store.putNode("n1", node("n1").allocatable("cpu", "4").build());
        WatchedClusterVersion v = store.current();
        store.removeNode("n2");
        store.removePod("ns/p");
        assertThat(store.current()).isSameAs(v);
        store.touch();
        assertThat(store.current().generation()).isEqualTo(v.generation() + 1);
        assertThat(store.current().state()).isEqualTo(v.state());
    }

    /** One random change to both; returns 1 when it changed something, else 0. */
    private static int apply(Random rnd, ViewStore store, Reference ref) {
        int kind = rnd.nextInt(10);
        if (kind < 3) {
            String name = "n" + rnd.nextInt(12);
            if (rnd.nextInt(4) == 0) {
                boolean had = ref.nodes.remove(name) != null;
                store.removeNode(name);
                return had ? 1 : 0;
            }
            Node n = node(name).label("topology.kubernetes.io/rack", "r" + rnd.nextInt(3))
                    .label("kubernetes.io/hostname", name).allocatable("cpu", String.valueOf(2 + rnd.nextInt(6)))
                    .allocatable("memory", "16Gi").allocatable("pods", "110").build();
            ref.nodes.put(name, n);
            store.putNode(name, n);
            return 1;
        }
        if (kind < 9) {
            String ns = "ns" + rnd.nextInt(2);
            String name = "p" + rnd.nextInt(40);
            String key = ns + "/" + name;
            if (rnd.nextInt(4) == 0) {
                boolean had = ref.pods.remove(key) != null;
                store.removePod(key);
                return had ? 1 : 0;
            }
            var b = pod(name).namespace(ns).requests("cpu", (1 + rnd.nextInt(3)) + "00m").label("app", "a"
                    + rnd.nextInt(3));
            if (rnd.nextInt(3) == 0) {
                b.on("n" + rnd.nextInt(12));
            }
            Pod p = b.build();
            if (rnd.nextInt(2) == 0) {
                p = Groups.member(p, "g" + rnd.nextInt(3));
            }
            ref.pods.put(key, p);
            store.putPod(key, p);
            return 1;
        }
        String name = "g" + rnd.nextInt(3);
        String key = "ns" + rnd.nextInt(2) + "/" + name;
        PodGroup g = Groups.gang(name, 1 + rnd.nextInt(3)).namespace(key.substring(0, 3))
                .topology("topology.kubernetes.io/rack").build();
        ref.groups.put(key, g);
        store.putPodGroup(key, g);
        return 1;
    }

    @Test
    void podRefsAreIndexedByTheCompiledView() {
        ViewStore store = new ViewStore("test");
        Pod p = pod("p").namespace("ns").requests("cpu", "1").build();
        store.putPod("ns/p", p);
        assertThat(store.current().pod(new PodRef("ns", "p"))).isEqualTo(p);
        assertThat(store.current().pod(new PodRef("ns", "q"))).isNull();
        assertThat(store.current().podByUid(p.uid())).isEqualTo(p);
    }
}
