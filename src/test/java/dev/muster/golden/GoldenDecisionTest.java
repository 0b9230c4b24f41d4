package dev.muster.golden;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.muster.adapter.kube.KubeCodec;
import dev.muster.adapter.kube.KubeMapper;
import dev.muster.adapter.kube.RequestDocument;
import dev.muster.adapter.rest.DecisionResponse;
import dev.muster.adapter.validation.Causes;
import dev.muster.adapter.validation.RequestValidator;
import dev.muster.adapter.validation.ValidationLimits;
import dev.muster.core.decision.DecisionEngine;
import dev.muster.core.decision.EngineConfig;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Golden decision cases: one folder per case under {@code src/test/resources/golden/}, named as a sentence, holding
 * {@code request.json} (or {@code request.yaml}) — a real request body — and {@code expected.json}, the response in
 * canonical form (keys in contract order, two-space indent). The request goes the REST path without HTTP: strict
 * decoding, validation, mapping, the engine, the response encoder.
 * <p>
 * Expected files change only on purpose: run with {@code -Dmuster.golden.update=true} to rewrite them, then review the
 * diff like code.
 */
class GoldenDecisionTest {
    static final Path ROOT = Paths.get("src", "test", "resources", "golden");
    private static final ObjectMapper PRETTY = JsonMapper.builder()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .build();

    private final KubeCodec codec = new KubeCodec(KubeCodec.Limits.DEFAULT);
    private final RequestValidator validator = new RequestValidator(ValidationLimits.DEFAULT);
    private final DecisionEngine engine = new DecisionEngine(EngineConfig.DEFAULT);

    @TestFactory
    Stream<DynamicTest> goldenCases() throws IOException {
        List<Path> cases = new ArrayList<>();
        try (Stream<Path> dirs = Files.list(ROOT)) {
            dirs.filter(Files::isDirectory).sorted().forEach(cases::add);
        }
        assertThat(cases).as("golden cases under " + ROOT).isNotEmpty();
        return cases.stream().map(dir -> DynamicTest.dynamicTest(dir.getFileName().toString(), () -> check(dir)));
    }

    private void check(Path dir) throws Exception {
        String actual = decide(dir);
        Path expectedFile = dir.resolve("expected.json");
        if (Boolean.getBoolean("muster.golden.update")) {
            Files.writeString(expectedFile, actual, StandardCharsets.UTF_8);
            return;
        }
        if (!Files.exists(expectedFile)) {
            fail("no expected.json in " + dir + ": run mvn test -Dtest=GoldenDecisionTest -Dmuster.golden.update=true"
                    + " and review the file");
        }
        String expected = Files.readString(expectedFile, StandardCharsets.UTF_8);
        JsonNode want = PRETTY.readTree(expected);
        JsonNode got = PRETTY.readTree(actual);
        assertThat(got).as("decision for " + dir.getFileName()).isEqualTo(want);
        assertThat(actual).as("same bytes on a second run").isEqualTo(decide(dir));
    }

    private String decide(Path dir) throws Exception {
        Path json = dir.resolve("request.json");
        RequestDocument doc = Files.exists(json) ? codec.readJson(Files.readAllBytes(json))
                : codec.readYaml(Files.readAllBytes(dir.resolve("request.yaml")));
        Causes causes = validator.validate(doc);
        assertThat(causes.list()).as("validation causes of " + dir.getFileName()).isEmpty();
        DecisionResponse response = DecisionResponse.of(engine.decide(
                KubeMapper.toDecisionRequest(doc, dev.muster.adapter.cel.CelSelectors.shared()::compile)));
        return PRETTY.writeValueAsString(response) + "\n";
    }
}
