package dev.muster.adapter.extender;

import dev.muster.adapter.clusterview.WatchedClusterVersion;
import dev.muster.adapter.extender.ExtenderWire.ExtenderBindingArgs;
import dev.muster.adapter.extender.ExtenderWire.ExtenderBindingResult;
import dev.muster.adapter.extender.ExtenderWire.ExtenderPreemptionArgs;
import dev.muster.adapter.extender.ExtenderWire.ExtenderPreemptionResult;
import dev.muster.adapter.extender.ExtenderWire.MetaPod;
import dev.muster.adapter.extender.ExtenderWire.MetaVictims;
import dev.muster.adapter.kube.KubeCodec;
import dev.muster.adapter.kube.KubeMapper;
import dev.muster.adapter.kube.RequestDocument;
import dev.muster.core.decision.DecisionEngine;
import dev.muster.core.decision.EngineConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import static dev.muster.adapter.extender.Fixtures.gang;
import static dev.muster.adapter.extender.Fixtures.node;
import static dev.muster.adapter.extender.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

/** preempt's victim screening and bind's gang hold, over a fixed cluster view (no HTTP, no API server). */
class PreemptAndBindTest {
    private final ExtenderCodec codec = new ExtenderCodec();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stop() {
        timer.shutdownNow();
    }

    static WatchedClusterVersion view(String snapshotJson) throws Exception {
        RequestDocument.Snapshot s = new KubeCodec(KubeCodec.Limits.DEFAULT)
                .readJson(snapshotJson.getBytes(StandardCharsets.UTF_8), RequestDocument.Snapshot.class);
        return WatchedClusterVersion.of(1, KubeMapper.toClusterState(s), "test");
    }

    /**
     * n1: low (priority 10, no group). n2: mid-0 (priority 10 but in group "vip" of priority 1000).
     * n3: whole-0 of a disruptionMode=PodGroup group whose other member whole-1 runs on n4.
     * n5: pair-0 and pair-1, the whole of disruptionMode=PodGroup group "pair", both priority 5.
     */
    static final String CLUSTER = Fixtures.snapshot(
            List.of(node("n1", "r", "4"), node("n2", "r", "4"), node("n3", "r", "4"), node("n4", "r", "4"),
                    node("n5", "r", "4")),
            List.of(pod("ns", "low", null, "1", "n1", 10),
                    pod("ns", "mid-0", "vip", "1", "n2", 10),
                    pod("ns", "whole-0", "whole", "1", "n3", 5),
                    pod("ns", "whole-1", "whole", "1", "n4", 5),
                    pod("ns", "pair-0", "pair", "1", "n5", 5),
                    pod("ns", "pair-1", "pair", "1", "n5", 5)),
            List.of(gang("ns", "vip", 1, null, 1000, null),
                    gang("ns", "whole", 2, null, null, "PodGroup"),
                    gang("ns", "pair", 2, null, null, "PodGroup")));

    private ExtenderPreemptionResult preempt(String preemptorJson, String victimsJson) throws Exception {
        WatchedClusterVersion v = view(CLUSTER);
        ExtenderService service = new ExtenderService(() -> v, new DecisionEngine(EngineConfig.DEFAULT), codec, 4);
        return service.preempt(codec.read(("{\"Pod\":" + preemptorJson + "," + victimsJson + "}")
                .getBytes(StandardCharsets.UTF_8), ExtenderPreemptionArgs.class));
    }

    private static String meta(String node, String... uids) {
        StringBuilder sb = new StringBuilder("\"" + node + "\":{\"Pods\":[");
        for (int i = 0; i < uids.length; i++) {
            sb.append(i > 0 ? "," : "").append("{\"UID\":\"").append(uids[i]).append("\"}");
        }
        return sb.append("],\"NumPDBViolations\":0}").toString();
    }

    @Test
    void keepsOnlyNodesWhoseEveryVictimMusterAllows() throws Exception {
        String victims = "\"NodeNameToMetaVictims\":{" + String.join(",", meta("n1", "uid-low"),
                meta("n2", "uid-mid-0"), meta("n3", "uid-whole-0"), meta("n5", "uid-pair-0", "uid-pair-1"),
                meta("n4", "uid-unknown")) + "}";
        ExtenderPreemptionResult r = preempt(pod("ns", "urgent", null, "1", null, 100), victims);
        // n2: the victim's PodGroup priority (1000) outranks the preemptor; n3: would split a PodGroup-mode group;
        // n4: a victim the view does not know. n5 takes group "pair" whole, so it stays.
        assertThat(r.nodeNameToMetaVictims()).containsOnlyKeys("n1", "n5");
        assertThat(r.nodeNameToMetaVictims().get("n5"))
                .isEqualTo(new MetaVictims(List.of(new MetaPod("uid-pair-0"), new MetaPod("uid-pair-1")), 0));
    }

    @Test
    void aPreemptorsPodGroupPriorityStandsForIt() throws Exception {
        // priority 1 on its own, but in group "vip" (1000): may preempt "low" (10)
        String victims = "\"NodeNameToMetaVictims\":{" + meta("n1", "uid-low") + "}";
        assertThat(preempt(pod("ns", "vip-new", "vip", "1", null, 1), victims).nodeNameToMetaVictims())
                .containsOnlyKeys("n1");
        assertThat(preempt(pod("ns", "plain", null, "1", null, 1), victims).nodeNameToMetaVictims()).isEmpty();
    }

    @Test
    void fullVictimsFormIsMatchedByNameAndAnsweredWithUids() throws Exception {
        String victims = "\"NodeNameToVictims\":{\"n1\":{\"Pods\":[" + pod("ns", "low", null, "1", "n1", 10)
                + "],\"NumPDBViolations\":2},\"n2\":{\"Pods\":[" + pod("ns", "mid-0", "vip", "1", "n2", 10)
                + "],\"NumPDBViolations\":0}}";
        ExtenderPreemptionResult r = preempt(pod("ns", "urgent", null, "1", null, 100), victims);
        assertThat(r.nodeNameToMetaVictims()).containsOnlyKeys("n1");
        assertThat(r.nodeNameToMetaVictims().get("n1")).isEqualTo(new MetaVictims(List.of(new MetaPod("uid-low")), 2));
    }

    // ---------------------------------------------------------------- bind

    static final String GANG_OF_THREE = Fixtures.snapshot(List.of(node("n1", "r", "8")),
            List.of(pod("ml", "g-0", "g", "1"), pod("ml", "g-1", "g", "1"), pod("ml", "g-2", "g", "1"),
                    pod("ml", "alone", null, "1")),
            List.of(gang("ml", "g", 3, null)));

    private static ExtenderBindingArgs bindArgs(String name) {
        return new ExtenderBindingArgs(name, "ml", "uid-" + name, "n1");
    }

    @Test
    void gangMembersWaitUntilMinCountReachBindThenAllBind() throws Exception {
        WatchedClusterVersion v = view(GANG_OF_THREE);
        List<String> bound = new CopyOnWriteArrayList<>();
        GangBinder binder = new GangBinder(() -> v, (ns, name, uid, node) -> bound.add(ns + "/" + name + "@" + node),
                Duration.ofMinutes(5), timer);
        CompletionStage<ExtenderBindingResult> first = binder.bind(bindArgs("g-0"));
        CompletionStage<ExtenderBindingResult> second = binder.bind(bindArgs("g-1"));
        assertThat(first.toCompletableFuture()).isNotDone();
        assertThat(second.toCompletableFuture()).isNotDone();
        assertThat(bound).isEmpty();
        CompletionStage<ExtenderBindingResult> third = binder.bind(bindArgs("g-2"));
        for (CompletionStage<ExtenderBindingResult> s : List.of(first, second, third)) {
            assertThat(s.toCompletableFuture().get(5, TimeUnit.SECONDS).error()).isEmpty();
        }
        assertThat(bound).containsExactly("ml/g-0@n1", "ml/g-1@n1", "ml/g-2@n1");
    }

    @Test
    void aGangMemberWaitingPastTheTimeoutAnswersErrorAndIsNotBound() throws Exception {
        WatchedClusterVersion v = view(GANG_OF_THREE);
        List<String> bound = new CopyOnWriteArrayList<>();
        GangBinder binder = new GangBinder(() -> v, (ns, name, uid, node) -> bound.add(name),
                Duration.ofMillis(50), timer);
        ExtenderBindingResult r = binder.bind(bindArgs("g-0")).toCompletableFuture().get(5, TimeUnit.SECONDS);
        assertThat(r.error()).isEqualTo("pod group \"ml/g\": only 1 of minCount 3 members reached bind within 50ms; "
                + "pod ml/g-0 was not bound");
        assertThat(bound).isEmpty();
    }

    @Test
    void podsOutsideAGangBindAtOnceAndBinderErrorsAreReported() throws Exception {
        WatchedClusterVersion v = view(GANG_OF_THREE);
        GangBinder binder = new GangBinder(() -> v, (ns, name, uid, node) -> {
            throw new IllegalStateException("pods \"" + name + "\" is forbidden");
        }, Duration.ofMinutes(5), timer);
        ExtenderBindingResult r = binder.bind(bindArgs("alone")).toCompletableFuture().getNow(null);
        assertThat(r).isNotNull();
        assertThat(r.error()).isEqualTo("binding pod ml/alone to node \"n1\" failed: pods \"alone\" is forbidden");
    }
}
