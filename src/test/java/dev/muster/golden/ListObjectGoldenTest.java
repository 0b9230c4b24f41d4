package dev.muster.golden;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.muster.adapter.kube.KubeCodec;
import dev.muster.adapter.kube.KubeMapper;
import dev.muster.adapter.kube.RequestDocument;
import dev.muster.adapter.rest.DecisionResponse;
import dev.muster.adapter.validation.RequestValidator;
import dev.muster.adapter.validation.ValidationLimits;
import dev.muster.core.decision.DecisionEngine;
import dev.muster.core.decision.EngineConfig;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every golden request, with each list of its snapshot rewritten as the list object kubectl prints (alternately
 * {@code "kind": "List"} and the typed list, with list metadata), decides the same bytes as the array form, as JSON
 * and as YAML.
 */
class ListObjectGoldenTest {
    private static final ObjectMapper JSON = JsonMapper.builder().build();
    private static final ObjectMapper YAML = new YAMLMapper();
    private static final Map<String, String> TYPED = Map.ofEntries(
            Map.entry("nodes", "NodeList"), Map.entry("pods", "PodList"), Map.entry("podGroups", "PodGroupList"),
            Map.entry("workloads", "WorkloadList"), Map.entry("priorityClasses", "PriorityClassList"),
            Map.entry("podDisruptionBudgets", "PodDisruptionBudgetList"),
            Map.entry("deviceClasses", "DeviceClassList"), Map.entry("resourceSlices", "ResourceSliceList"),
            Map.entry("resourceClaims", "ResourceClaimList"),
            Map.entry("resourceClaimTemplates", "ResourceClaimTemplateList"), Map.entry("jobs", "JobList"));

    private final KubeCodec codec = new KubeCodec(KubeCodec.Limits.DEFAULT);
    private final RequestValidator validator = new RequestValidator(ValidationLimits.DEFAULT);
    private final DecisionEngine engine = new DecisionEngine(EngineConfig.DEFAULT);

    @TestFactory
    Stream<DynamicTest> listObjectsDecideAsArrays() throws IOException {
        List<Path> cases = new ArrayList<>();
        try (Stream<Path> dirs = Files.list(GoldenDecisionTest.ROOT)) {
            dirs.filter(Files::isDirectory).sorted().forEach(cases::add);
        }
        assertThat(cases).isNotEmpty();
        return cases.stream().map(dir -> DynamicTest.dynamicTest(dir.getFileName().toString(), () -> check(dir)));
    }

    private void check(Path dir) throws Exception {
        Path json = dir.resolve("request.json");
        byte[] original = Files.exists(json) ? Files.readAllBytes(json) : null;
        JsonNode tree = original != null ? JSON.readTree(original) : YAML.readTree(dir.resolve("request.yaml").toFile());
        RequestDocument plain = original != null ? codec.readJson(original) : codec.readYaml(
                Files.readAllBytes(dir.resolve("request.yaml")));
        String expected = decide(plain);

        ObjectNode wrapped = tree.deepCopy();
        int lists = wrap((ObjectNode) wrapped.get("snapshot"));
        assertThat(lists).as("lists rewritten").isPositive();
        byte[] asJson = JSON.writeValueAsBytes(wrapped);
        assertThat(decide(codec.readJson(asJson))).as("JSON with list objects").isEqualTo(expected);
        assertThat(decide(codec.readYaml(YAML.writeValueAsBytes(wrapped)))).as("YAML with list objects")
                .isEqualTo(expected);
    }

    /** Rewrites every array of the snapshot as a list object; returns how many. */
    private static int wrap(ObjectNode snapshot) {
        int n = 0;
        List<String> names = new ArrayList<>();
        snapshot.fieldNames().forEachRemaining(names::add);
        for (String name : names) {
            JsonNode v = snapshot.get(name);
            if (!(v instanceof ArrayNode items) || !TYPED.containsKey(name)) {
                continue;
            }
            ObjectNode list = JSON.createObjectNode();
            list.put("apiVersion", "v1");
            list.put("kind", n % 2 == 0 ? "List" : TYPED.get(name));
            list.putObject("metadata").put("resourceVersion", "12345");
            list.set("items", items);
            snapshot.set(name, list);
            n++;
        }
        return n;
    }

    private String decide(RequestDocument doc) throws Exception {
        assertThat(validator.validate(doc).list()).isEmpty();
        return JSON.writeValueAsString(DecisionResponse.of(engine.decide(
                KubeMapper.toDecisionRequest(doc, dev.muster.adapter.cel.CelSelectors.shared()::compile))));
    }
}
