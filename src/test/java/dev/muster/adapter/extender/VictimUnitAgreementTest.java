package dev.muster.adapter.extender;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.muster.adapter.clusterview.WatchedClusterVersion;
import dev.muster.adapter.extender.ExtenderWire.ExtenderPreemptionArgs;
import dev.muster.adapter.kube.KubeCodec;
import dev.muster.adapter.kube.KubeMapper;
import dev.muster.adapter.kube.RequestDocument;
import dev.muster.adapter.validation.RequestValidator;
import dev.muster.adapter.validation.ValidationLimits;
import dev.muster.core.decision.Assignment;
import dev.muster.core.decision.Decision;
import dev.muster.core.decision.DecisionEngine;
import dev.muster.core.decision.EngineConfig;
import dev.muster.core.decision.Outcome;
import dev.muster.core.model.ClusterState;
import dev.muster.core.model.GroupRef;
import dev.muster.core.model.Pod;
import dev.muster.core.model.VictimUnits;
import dev.muster.core.model.VictimUnits.Unit;
import dev.muster.core.snapshot.Priorities;
import dev.muster.core.snapshot.SnapshotOverlay;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One cluster, the three places that apply the victim-unit rule: the engine's preemption, the shortage explanation
 * and the extender's preempt verb. The cluster is the snapshot of two golden cases (one decided with preemption, one
 * without and explained): a plain pod that a PodDisruptionBudget protects, a {@code disruptionMode: PodGroup} group,
 * a CompositePodGroup tree evicted whole (its composite's priority stands for a child that sets a higher one of its
 * own), an equal-priority pod, and a pending one-member gang that has to evict something.
 */
class VictimUnitAgreementTest {
    private static final Path GOLDEN = Path.of("src", "test", "resources", "golden");
    private static final String PREEMPTING = "a preempting gang evicts a CompositePodGroup tree whole, never one of its pods";
    private static final String EXPLAINED =
            "with preemption off an unschedulable gang is told to preempt a CompositePodGroup tree whole";
    private static final GroupRef URGENT = new GroupRef("team", "urgent");
    private static final ObjectMapper JSON = new ObjectMapper();

    private static ClusterState state;
    private static VictimUnits<Pod> units;
    private static Decision preempting;
    private static Decision explained;
    private static ExtenderService extender;
    private static String preemptor;

    @BeforeAll
    static void decideTheSameClusterEveryWay() throws Exception {
        JsonNode withPreemption = JSON.readTree(Files.readAllBytes(GOLDEN.resolve(PREEMPTING).resolve("request.json")));
        JsonNode withExplain = JSON.readTree(Files.readAllBytes(GOLDEN.resolve(EXPLAINED).resolve("request.json")));
        assertThat(withExplain.get("snapshot")).as("both golden cases hold the same cluster")
                .isEqualTo(withPreemption.get("snapshot"));

        RequestDocument doc = decode(withPreemption);
        state = KubeMapper.toClusterState(doc.snapshot());
        units = VictimUnits.of(state, Priorities.of(state)::effective);
        DecisionEngine engine = new DecisionEngine(EngineConfig.DEFAULT);
        preempting = urgent(engine.decide(KubeMapper.toDecisionRequest(doc)).decisions());
        explained = urgent(engine.decide(KubeMapper.toDecisionRequest(decode(withExplain))).decisions());

        WatchedClusterVersion view = WatchedClusterVersion.of(1, state, "test");
        extender = new ExtenderService(() -> view, engine, new ExtenderCodec(), 4);
        for (JsonNode p : withPreemption.get("snapshot").get("pods")) {
            if (p.get("metadata").get("name").asText().equals("urgent-0")) {
                preemptor = p.toString();
            }
        }
        assertThat(preemptor).isNotNull();
    }

    private static RequestDocument decode(JsonNode request) throws Exception {
        RequestDocument doc = new KubeCodec(KubeCodec.Limits.DEFAULT)
                .readJson(request.toString().getBytes(StandardCharsets.UTF_8));
        assertThat(new RequestValidator(ValidationLimits.DEFAULT).validate(doc).list()).isEmpty();
        return doc;
    }

    private static Decision urgent(List<Decision> decisions) {
        return decisions.stream().filter(d -> URGENT.equals(d.podGroup())).findFirst().orElseThrow();
    }

    private static String describe(Unit<?> u, List<String> pods) {
        return u.kind() + " " + (u.owner() == null ? "-" : u.owner().name()) + " " + pods + " priority "
                + u.priority() + (u.violatesBudget() ? " violates a budget" : "");
    }

    private static List<String> podNames(Unit<Pod> u) {
        return u.pods().stream().map(p -> p.ref().name()).toList();
    }

    @Test
    @DisplayName("the engine's units and the extender's are the same, priorities included")
    void sameUnits() {
        List<String> engine = new SnapshotOverlay(state).victimUnits().all().stream()
                .map(u -> describe(u, u.pods().stream().map(p -> p.ref().name()).toList())).toList();
        List<String> extender = units.all().stream().map(u -> describe(u, podNames(u))).toList();

        assertThat(extender).isEqualTo(engine);
        assertThat(extender).containsExactly(
                "POD - [solo] priority 1 violates a budget",
                "POD - [peer] priority 10",
                "POD_GROUP batch [batch-0, batch-1] priority 3",
                "COMPOSITE job [job-a-0, job-b-0] priority 2");
    }

    @Test
    @DisplayName("the engine evicts the tree whole, though one of its pods would make room")
    void engineEvictsWholeUnits() {
        assertThat(preempting.outcome()).isEqualTo(Outcome.Preempting);
        Set<String> victims = preempting.victims().stream().map(a -> a.pod().name()).collect(Collectors.toSet());

        assertThat(victims).containsExactlyInAnyOrder("job-a-0", "job-b-0");
        for (Unit<Pod> u : units.all()) {
            List<String> pods = podNames(u);
            assertThat(victims.containsAll(pods) || pods.stream().noneMatch(victims::contains))
                    .as("unit %s is evicted whole or not at all", pods).isTrue();
        }
    }

    @Test
    @DisplayName("the shortage names the same tree whole and never one pod of a unit that goes whole")
    void shortageSuggestsWholeUnits() {
        assertThat(explained.outcome()).isEqualTo(Outcome.Unschedulable);
        List<String> remedies = explained.explanation().shortage().remedies();

        assertThat(remedies).contains("1 of the 1 missing member fit by requests if composite pod group team/job "
                + "(2 pods, priority 2) were preempted");
        for (Unit<Pod> u : units.all()) {
            if (u.whole()) {
                for (String pod : podNames(u)) {
                    assertThat(String.join("\n", remedies)).doesNotContain("pod team/" + pod + " ");
                }
            }
        }
    }

    @Test
    @DisplayName("the extender keeps a node exactly when its victims are whole units the preemptor may evict")
    void extenderAcceptsOnlyWholeEligibleUnits() throws Exception {
        for (Unit<Pod> u : units.all()) {
            Map<String, List<String>> byNode = new TreeMap<>();
            for (Pod p : u.pods()) {
                byNode.computeIfAbsent(p.nodeName(), k -> new ArrayList<>()).add(p.ref().name());
            }
            boolean eligible = units.eligible(u, URGENT, 10);
            for (Map.Entry<String, List<String>> e : byNode.entrySet()) {
                boolean whole = e.getValue().size() == u.pods().size();
                assertThat(kept(e.getKey(), e.getValue())).as("%s on %s", e.getValue(), e.getKey())
                        .isEqualTo(eligible && whole);
                if (e.getValue().size() > 1) {
                    assertThat(kept(e.getKey(), e.getValue().subList(0, 1))).as("part of %s", e.getValue()).isFalse();
                }
            }
        }
        assertThat(kept("n3", List.of("job-a-0"))).as("kube-scheduler's minimal victim on n3, one pod of the tree")
                .isFalse();
    }

    @Test
    @DisplayName("the engine's victims, node by node, are victims the extender keeps")
    void extenderKeepsTheEnginesVictims() throws Exception {
        Map<String, List<String>> byNode = new TreeMap<>();
        for (Assignment a : preempting.victims()) {
            byNode.computeIfAbsent(a.node(), k -> new ArrayList<>()).add(a.pod().name());
        }
        assertThat(byNode).isNotEmpty();
        for (Map.Entry<String, List<String>> e : byNode.entrySet()) {
            assertThat(kept(e.getKey(), e.getValue())).as("%s on %s", e.getValue(), e.getKey()).isTrue();
        }
    }

    /** Whether the preempt verb keeps {@code node} when kube-scheduler proposes these victims there. */
    private static boolean kept(String node, List<String> victims) throws Exception {
        String metas = victims.stream().map(v -> "{\"UID\":\"uid-" + v + "\"}").collect(Collectors.joining(","));
        String body = "{\"Pod\":" + preemptor + ",\"NodeNameToMetaVictims\":{\"" + node + "\":{\"Pods\":[" + metas
                + "],\"NumPDBViolations\":0}}}";
        TreeSet<String> nodes = new TreeSet<>(extender.preempt(new ExtenderCodec().read(
                body.getBytes(StandardCharsets.UTF_8), ExtenderPreemptionArgs.class)).nodeNameToMetaVictims().keySet());
        return nodes.contains(node);
    }
}
