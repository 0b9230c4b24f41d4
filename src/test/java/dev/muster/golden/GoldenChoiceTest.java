package dev.muster.golden;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.muster.adapter.choice.ClusterChooser;
import dev.muster.adapter.choice.SingleDecisions;
import dev.muster.adapter.clusterview.NamedClusterViews;
import dev.muster.adapter.kube.ChoiceDocument;
import dev.muster.adapter.kube.KubeCodec;
import dev.muster.adapter.rest.ChoiceResponse;
import dev.muster.adapter.rest.DecisionResponse;
import dev.muster.adapter.validation.Causes;
import dev.muster.adapter.validation.RequestValidator;
import dev.muster.adapter.validation.ValidationLimits;
import dev.muster.core.choice.ClusterChoice;
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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Golden cluster-choice cases: one folder per case under {@code src/test/resources/golden-choices/}, named as a
 * sentence, with {@code request.json} (a {@code POST /v1/cluster-choices} body) and {@code expected.json} (the answer
 * in canonical form). The request goes the REST path without HTTP: strict decoding, validation, the shared chooser,
 * the response encoder. Each case also checks the rule that makes a choice trustworthy: every cluster's decisions are
 * exactly those {@code /v1/decisions} gives for that cluster's snapshot with the workload added (a Job by the pods
 * its controller would create), naming the workload's groups and plain pods.
 * <p>
 * Rewrite the expected files with {@code -Dmuster.golden.update=true} and review the diff like code.
 */
class GoldenChoiceTest {
    static final Path ROOT = Paths.get("src", "test", "resources", "golden-choices");
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
        assertThat(cases).as("golden cases under " + ROOT).hasSizeGreaterThanOrEqualTo(5);
        return cases.stream().map(dir -> DynamicTest.dynamicTest(dir.getFileName().toString(), () -> check(dir)));
    }

    private void check(Path dir) throws Exception {
        ChoiceDocument doc = codec.readJson(Files.readAllBytes(dir.resolve("request.json")), ChoiceDocument.class);
        Causes causes = validator.validateChoice(doc, name -> false, 32);
        assertThat(causes.list()).as("validation causes of " + dir.getFileName()).isEmpty();
        List<ClusterChoice> choices = choose(doc, 2);
        String actual = PRETTY.writeValueAsString(ChoiceResponse.of(choices)) + "\n";
        assertThat(actual).as("the same answer deciding the clusters one at a time")
                .isEqualTo(PRETTY.writeValueAsString(ChoiceResponse.of(choose(doc, 1))) + "\n");
        for (ClusterChoice c : choices) {
            JsonNode got = PRETTY.valueToTree(DecisionResponse.of(c.result()).decisions());
            JsonNode single = PRETTY.valueToTree(SingleDecisions.of(doc, c, validator, engine).decisions());
            assertThat(got)
                    .as("cluster " + c.cluster() + " of " + dir.getFileName() + ": the decisions of /v1/decisions")
                    .isEqualTo(single);
        }
        Path expectedFile = dir.resolve("expected.json");
        if (Boolean.getBoolean("muster.golden.update")) {
            Files.writeString(expectedFile, actual, StandardCharsets.UTF_8);
            return;
        }
        if (!Files.exists(expectedFile)) {
            fail("no expected.json in " + dir + ": run mvn test -Dtest=GoldenChoiceTest -Dmuster.golden.update=true"
                    + " and review the file");
        }
        JsonNode want = PRETTY.readTree(Files.readString(expectedFile, StandardCharsets.UTF_8));
        assertThat(PRETTY.readTree(actual)).as("choices for " + dir.getFileName()).isEqualTo(want);
    }

    private List<ClusterChoice> choose(ChoiceDocument doc, int threads) {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            return new ClusterChooser(engine, NamedClusterViews.NONE, pool, threads, 100).choose(doc, () -> false);
        } finally {
            pool.shutdownNow();
        }
    }
}
