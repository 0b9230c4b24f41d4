package dev.muster.adapter.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.muster.adapter.cel.CelSelectors;
import dev.muster.adapter.choice.ClusterChooser;
import dev.muster.adapter.clusterview.NamedClusterViews;
import dev.muster.adapter.kube.ChoiceDocument;
import dev.muster.adapter.kube.KubeCodec;
import dev.muster.adapter.kube.KubeMapper;
import dev.muster.adapter.kube.RequestDocument;
import dev.muster.adapter.validation.RequestValidator;
import dev.muster.adapter.validation.ValidationLimits;
import dev.muster.core.choice.ClusterChoice;
import dev.muster.core.decision.Decision;
import dev.muster.core.decision.DecisionEngine;
import dev.muster.core.decision.DecisionRequest;
import dev.muster.core.decision.DecisionResult;
import dev.muster.core.decision.EngineConfig;
import dev.muster.core.properties.RandomRequests;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.LongFunction;
import java.util.stream.Stream;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@link DecisionResponseWriter} and {@link ChoiceResponseWriter} write the very bytes the reference does, the
 * records of {@link DecisionResponse} ({@link ChoiceResponse}) serialized by {@link DecisionResource#WRITER}: on the
 * engine's decisions for seeded random requests (groups, plain pods, claims) and for every golden request, on the
 * chooser's answers for every golden cluster choice, and on hand-built results ({@link RandomResults}) that reach
 * every field null, empty and set. The last test checks that the hand-built corpus does reach them.
 */
class DecisionResponseWriterTest {
    private static final DecisionEngine ENGINE = new DecisionEngine(EngineConfig.DEFAULT);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int HAND_BUILT = 3000;

    @Test
    @DisplayName("the engine's decisions on random clusters: groups, plain pods, claims")
    void engineDecisionsOnRandomRequests() throws IOException {
        Map<String, Integer> seen = new HashMap<>();
        check("groups", 200, RandomRequests::groups, seen);
        check("plain pods", 200, RandomRequests::plainPods, seen);
        check("claims", 150, RandomRequests::claims, seen);
        assertThat(seen.keySet()).as("what the random requests' decisions hold").contains("Scheduled",
                "Preempting", "Unschedulable", "WaitingForMembers", "group", "plain pod", "placements",
                "unschedulablePods", "victims", "nominations", "claims", "allocation nodeSelector", "conditions",
                "explanation", "search", "candidates", "shortage", "pods");
    }

    private static void check(String what, int seeds, LongFunction<DecisionRequest> requests,
                              Map<String, Integer> seen) throws IOException {
        for (long seed = 1; seed <= seeds; seed++) {
            DecisionResult result = ENGINE.decide(requests.apply(seed));
            assertSameBytes(what + ", seed " + seed, result);
            count(result, seen);
        }
    }

    @Test
    @DisplayName("the engine's decisions for every golden request")
    void goldenRequests() throws Exception {
        KubeCodec codec = new KubeCodec(KubeCodec.Limits.DEFAULT);
        RequestValidator validator = new RequestValidator(ValidationLimits.DEFAULT);
        Map<String, Integer> seen = new HashMap<>();
        List<Path> cases = cases(Paths.get("src", "test", "resources", "golden"));
        assertThat(cases).isNotEmpty();
        for (Path dir : cases) {
            Path json = dir.resolve("request.json");
            RequestDocument doc = Files.exists(json) ? codec.readJson(Files.readAllBytes(json))
                    : codec.readYaml(Files.readAllBytes(dir.resolve("request.yaml")));
            assertThat(validator.validate(doc).list()).as(dir.toString()).isEmpty();
            DecisionResult result = ENGINE.decide(KubeMapper.toDecisionRequest(doc, CelSelectors.shared()::compile));
            assertSameBytes(dir.getFileName().toString(), result);
            count(result, seen);
        }
        assertThat(seen.keySet()).as("what the golden decisions hold").contains("PodGroupNotFound",
                "opaque parameters", "bindingConditions", "compositePodGroup");
    }

    @Test
    @DisplayName("hand-built results: every field null, empty and set, escapes, non-ASCII, numbers at their limits")
    void handBuiltResults() throws IOException {
        for (long seed = 1; seed <= HAND_BUILT; seed++) {
            assertSameBytes("hand-built seed " + seed, RandomResults.result(seed));
        }
    }

    @Test
    @DisplayName("cluster choices: every golden choice and hand-built ones")
    void choices() throws Exception {
        KubeCodec codec = new KubeCodec(KubeCodec.Limits.DEFAULT);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            ClusterChooser chooser = new ClusterChooser(ENGINE, NamedClusterViews.NONE, pool, 2, 100);
            List<Path> cases = cases(Paths.get("src", "test", "resources", "golden-choices"));
            assertThat(cases).isNotEmpty();
            for (Path dir : cases) {
                ChoiceDocument doc = codec.readJson(Files.readAllBytes(dir.resolve("request.json")),
                        ChoiceDocument.class);
                assertSameChoiceBytes(dir.getFileName().toString(), chooser.choose(doc, () -> false));
            }
        } finally {
            pool.shutdownNow();
        }
        for (long seed = 1; seed <= 500; seed++) {
            assertSameChoiceBytes("hand-built seed " + seed, RandomResults.choices(seed));
        }
    }

    /**
     * The hand-built corpus reaches every field of every record in {@link DecisionResponse}, leaves out each field an
     * inclusion rule can leave out, and writes {@code null} for each field written even when null.
     */
    @Test
    @DisplayName("the hand-built results write every field, leave out each optional one and write each nullable null")
    void handBuiltResultsReachEveryField() throws IOException {
        Map<String, Set<String>> keysByPath = new HashMap<>();
        Map<String, Set<String>> alwaysByPath = new HashMap<>();
        Set<String> nulls = new TreeSet<>();
        for (long seed = 1; seed <= HAND_BUILT; seed++) {
            JsonNode tree = JSON.readTree(DecisionResource.WRITER.writeValueAsBytes(
                    DecisionResponse.of(RandomResults.result(seed))));
            walk(tree, "", keysByPath, alwaysByPath, nulls);
        }
        Set<String> written = new TreeSet<>();
        Set<String> omitted = new TreeSet<>();
        keysByPath.forEach((path, keys) -> {
            for (String k : keys) {
                written.add(k);
                if (!alwaysByPath.get(path).contains(k)) {
                    omitted.add(path + "." + k);
                }
            }
        });
        Set<String> components = new TreeSet<>();
        for (Class<?> c : DecisionResponse.class.getDeclaredClasses()) {
            if (c.isRecord()) {
                Arrays.stream(c.getRecordComponents()).forEach(rc -> components.add(rc.getName()));
            }
        }
        assertThat(written).as("every record component written").containsAll(components);
        String d = ".decisions";
        String claim = d + ".claims";
        String device = claim + ".allocation.devices.results";
        String config = claim + ".allocation.devices.config";
        String term = claim + ".allocation.nodeSelector.nodeSelectorTerms";
        String explanation = d + ".explanation";
        assertThat(omitted).as("fields left out (NON_NULL, NON_EMPTY)").containsExactlyInAnyOrder(
                d + ".podGroup", d + ".pod", d + ".compositePodGroup", d + ".outcome", d + ".message",
                d + ".explanation", d + ".unschedulablePods.pod", d + ".unschedulablePods.message",
                d + ".conditions.type", d + ".conditions.status", d + ".conditions.reason", d + ".conditions.message",
                d + ".conditions.observedGeneration", d + ".conditions.lastTransitionTime",
                ".pods.pod", ".pods.status", ".pods.message",
                claim + ".claim", claim + ".generatedFrom", claim + ".allocation.nodeSelector",
                claim + ".reservedFor.uid",
                device + ".request", device + ".driver", device + ".pool", device + ".device",
                device + ".adminAccess", device + ".tolerations", device + ".shareID", device + ".consumedCapacity",
                device + ".bindingConditions", device + ".bindingFailureConditions",
                device + ".tolerations.key", device + ".tolerations.value", device + ".tolerations.effect",
                device + ".tolerations.tolerationSeconds",
                config + ".requests",
                term + ".matchExpressions", term + ".matchFields",
                term + ".matchExpressions.key", term + ".matchExpressions.values",
                term + ".matchFields.key", term + ".matchFields.values",
                explanation + ".warnings", explanation + ".shortage");
        assertThat(nulls).as("fields written null").contains(
                d + ".placements.pod", d + ".placements.node", d + ".victims.node", d + ".nominations.node",
                config + ".opaque.parameters", device + ".consumedCapacity.*",
                explanation + ".search", explanation + ".placement", explanation + ".members.pod",
                explanation + ".reasons.reason", explanation + ".placements.name", explanation + ".placements.message",
                explanation + ".shortage.closest", explanation + ".shortage.fits.placement");
    }

    // ---------------------------------------------------------------- helpers

    static void assertSameBytes(String what, DecisionResult result) throws IOException {
        same(what, DecisionResponseWriter.write(result),
                DecisionResource.WRITER.writeValueAsBytes(DecisionResponse.of(result)));
    }

    static void assertSameChoiceBytes(String what, List<ClusterChoice> choices) throws IOException {
        same(what, ChoiceResponseWriter.write(choices),
                DecisionResource.WRITER.writeValueAsBytes(ChoiceResponse.of(choices)));
    }

    /** Fails on the first byte that differs, showing both bodies around it. */
    private static void same(String what, byte[] got, byte[] want) {
        int at = Arrays.mismatch(got, want);
        if (at >= 0) {
            fail(String.format("%s: differs from the reference at byte %d (of %d, %d expected)%n  got:  …%s…%n"
                    + "  want: …%s…", what, at, got.length, want.length, around(got, at), around(want, at)));
        }
    }

    private static String around(byte[] body, int at) {
        int from = Math.max(0, at - 100);
        return new String(body, from, Math.min(body.length, at + 100) - from, UTF_8);
    }

    private static List<Path> cases(Path root) throws IOException {
        try (Stream<Path> dirs = Files.list(root)) {
            return dirs.filter(Files::isDirectory).sorted().toList();
        }
    }

    /** Counts what a result holds, by outcome and by the branches of the encoding it reaches. */
    private static void count(DecisionResult result, Map<String, Integer> seen) {
        for (Decision d : result.decisions()) {
            seen.merge(d.outcome().name(), 1, Integer::sum);
            seen.merge(d.isPlainPod() ? "plain pod" : "group", 1, Integer::sum);
            countIf(seen, "compositePodGroup", d.compositePodGroup() != null);
            countIf(seen, "placements", !d.placements().isEmpty());
            countIf(seen, "unschedulablePods", !d.unschedulablePods().isEmpty());
            countIf(seen, "victims", !d.victims().isEmpty());
            countIf(seen, "nominations", !d.nominations().isEmpty());
            countIf(seen, "claims", !d.claims().isEmpty());
            countIf(seen, "conditions", !d.conditions().isEmpty());
            for (var c : d.claims()) {
                countIf(seen, "allocation nodeSelector", c.allocation().nodeSelector() != null);
                countIf(seen, "opaque parameters", !c.allocation().config().isEmpty());
                for (var dev : c.allocation().devices()) {
                    countIf(seen, "bindingConditions", !dev.bindingConditions().isEmpty());
                }
            }
            if (d.explanation() != null) {
                seen.merge("explanation", 1, Integer::sum);
                countIf(seen, "search", d.explanation().search() != null);
                countIf(seen, "candidates", d.explanation().placements() != null
                        && !d.explanation().placements().isEmpty());
                countIf(seen, "shortage", d.explanation().shortage() != null);
            }
        }
        countIf(seen, "pods", !result.pods().isEmpty());
    }

    private static void countIf(Map<String, Integer> seen, String what, boolean holds) {
        if (holds) {
            seen.merge(what, 1, Integer::sum);
        }
    }

    /**
     * Records, per object path (array steps left out), the keys any object there had and the keys every object there
     * had, and the paths written {@code null} (a map's entries as {@code .*}; raw parameters not entered).
     */
    private static void walk(JsonNode node, String path, Map<String, Set<String>> any, Map<String, Set<String>> every,
                             Set<String> nulls) {
        if (node.isArray()) {
            node.forEach(e -> walk(e, path, any, every, nulls));
            return;
        }
        if (!node.isObject() || path.endsWith(".opaque.parameters")) {
            return; // a value, or raw JSON
        }
        boolean map = path.endsWith(".consumedCapacity");
        Set<String> keys = new TreeSet<>();
        for (Map.Entry<String, JsonNode> e : node.properties()) {
            String child = path + "." + (map ? "*" : e.getKey());
            keys.add(map ? "*" : e.getKey());
            if (e.getValue().isNull()) {
                nulls.add(child);
            }
            walk(e.getValue(), child, any, every, nulls);
        }
        any.computeIfAbsent(path, p -> new TreeSet<>()).addAll(keys);
        every.computeIfAbsent(path, p -> new TreeSet<>(keys)).retainAll(keys);
    }
}
