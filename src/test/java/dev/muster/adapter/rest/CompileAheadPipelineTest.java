package dev.muster.adapter.rest;

import dev.muster.adapter.kube.Arrival;
import dev.muster.adapter.cel.CelSelectors;
import dev.muster.adapter.kube.KubeCodec;
import dev.muster.adapter.kube.KubeMapper;
import dev.muster.adapter.metrics.PhaseTracer;
import dev.muster.adapter.rest.error.StatusException;
import dev.muster.adapter.compile.CompileAhead;
import dev.muster.adapter.validation.RequestValidator;
import dev.muster.adapter.validation.ValidationLimits;
import dev.muster.core.decision.DecisionEngine;
import dev.muster.core.decision.DecisionRequest;
import dev.muster.core.decision.EngineConfig;
import jakarta.ws.rs.core.MediaType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A decision compiled by a helper while it is validated answers byte for byte as one compiled after validation (and as
 * one compiled in one piece, without the staged compilation's warmed DRA catalog), and
 * a request validation refuses is refused the same way, whatever its compilation would have done.
 */
class CompileAheadPipelineTest {
    private static final CompileAhead HELPER = new CompileAhead(1, 0, ValidationLimits.DEFAULT);
    private static final DecisionEngine ENGINE = new DecisionEngine(EngineConfig.DEFAULT);

    @AfterAll
    static void close() {
        HELPER.close();
    }

    private static RequestPipeline pipeline(CompileAhead ahead) {
        return new RequestPipeline(new KubeCodec(KubeCodec.Limits.DEFAULT),
                new RequestValidator(ValidationLimits.DEFAULT), PhaseTracer.OFF, ahead);
    }

    private static String decide(RequestPipeline pipeline, byte[] body) throws IOException {
        CompileAhead.Compiled c = pipeline.readCompiled(RequestBytes.whole(body), MediaType.APPLICATION_JSON_TYPE);
        DecisionRequest r = c.request();
        return new String(DecisionResource.WRITER.writeValueAsBytes(DecisionResponse.of(
                ENGINE.decide(c.snapshot(), r.podGroups(), r.pods(), r.options(), () -> false))),
                StandardCharsets.UTF_8);
    }

    @Test
    void everyGoldenRequestDecidesTheSameWithAndWithoutTheHelper() throws Exception {
        List<Path> requests;
        try (Stream<Path> cases = Files.list(Path.of("src", "test", "resources", "golden"))) {
            requests = cases.map(c -> c.resolve("request.json")).filter(Files::isRegularFile).sorted().toList();
        }
        assertThat(requests).hasSizeGreaterThan(50);
        RequestPipeline ahead = pipeline(HELPER);
        RequestPipeline after = pipeline(CompileAhead.OFF);
        KubeCodec codec = new KubeCodec(KubeCodec.Limits.DEFAULT);
        for (Path request : requests) {
            byte[] body = Files.readAllBytes(request);
            String expected = decide(after, body);
            assertThat(decide(ahead, body)).as(request.getParent().getFileName().toString()).isEqualTo(expected);
            assertThat(expected).contains("\"decisions\"");
            // compiled in one piece, its DRA catalog never warmed ahead: the staged compilation changes nothing
            DecisionRequest whole = KubeMapper.toDecisionRequest(codec.readJson(body), CelSelectors.shared()::compile);
            assertThat(new String(DecisionResource.WRITER.writeValueAsBytes(DecisionResponse.of(ENGINE.decide(whole))),
                    StandardCharsets.UTF_8)).as(request.getParent().getFileName().toString()).isEqualTo(expected);
        }
    }

    @Test
    void aRequestThatBreaksARuleIsRefusedWithItsCausesEvenWhenItsCompilationFails() {
        // "abc" is not a quantity: validation names the field, and compiling it would throw
        String body = """
                {"snapshot": {"nodes": [{"metadata": {"name": "n1"},
                  "status": {"allocatable": {"cpu": "abc", "memory": "8Gi", "pods": "110"}}}]}}""";
        for (RequestPipeline p : List.of(pipeline(HELPER), pipeline(CompileAhead.OFF))) {
            assertThatThrownBy(() -> p.readCompiled(RequestBytes.whole(body.getBytes(StandardCharsets.UTF_8)),
                    MediaType.APPLICATION_JSON_TYPE))
                    .isInstanceOfSatisfying(StatusException.class, e -> {
                        assertThat(e.status().code()).isEqualTo(422);
                        assertThat(e.status().details().causes()).anySatisfy(cause ->
                                assertThat(cause.field()).isEqualTo("snapshot.nodes[0].status.allocatable[cpu]"));
                    });
        }
    }

    /** An arrival that records whether the body's array was let go, and that nothing waits for bytes after it. */
    private static final class Recording implements Arrival {
        boolean released;

        @Override
        public int await(int atLeast) {
            assertThat(released).as("bytes awaited after the release").isFalse();
            return atLeast;
        }

        @Override
        public void release() {
            released = true;
        }
    }

    @Test
    void aDecodedBodyIsLetGoUnlessValidationReadsItAgain() throws Exception {
        byte[] body = Files.readAllBytes(Path.of("openapi/examples/training-job.json"));
        for (CompileAhead ahead : List.of(HELPER, CompileAhead.OFF)) {
            Recording decided = new Recording();
            RequestBytes request = new RequestBytes(body, decided);
            assertThat(pipeline(ahead).readCompiled(request, MediaType.APPLICATION_JSON_TYPE).snapshot()
                    .nodeCount()).isEqualTo(3);
            assertThat(decided.released).isTrue();
            assertThat(request.bytes()).as("the holder's array once decoded").isNull();
        }
        Recording validated = new Recording();
        RequestBytes checked = new RequestBytes(body, validated);
        assertThat(pipeline(CompileAhead.OFF).read(checked, MediaType.APPLICATION_JSON_TYPE).snapshot()).isNotNull();
        assertThat(validated.released).isTrue();
        assertThat(checked.bytes()).isNull();

        // a kubectl List pasted as the body: no snapshot, so validation reads the bytes again to say what they are
        byte[] list = ("{\"apiVersion\":\"v1\",\"items\":[],\"kind\":\"List\",\"metadata\":{}}")
                .getBytes(StandardCharsets.UTF_8);
        for (boolean compile : List.of(true, false)) {
            Recording pasted = new Recording();
            assertThatThrownBy(() -> {
                if (compile) {
                    pipeline(HELPER).readCompiled(new RequestBytes(list, pasted), MediaType.APPLICATION_JSON_TYPE);
                } else {
                    pipeline(CompileAhead.OFF).read(new RequestBytes(list, pasted), MediaType.APPLICATION_JSON_TYPE);
                }
            }).isInstanceOfSatisfying(StatusException.class,
                    e -> assertThat(e.status().message()).contains("kubectl List"));
            assertThat(pasted.released).isFalse();
        }
    }

    /**
     * Once the pipeline has decoded a body, nothing it made keeps the array: not the compiled request, not the helper
     * that compiled it, not the holder the resources hand down. (The resources pass only the holder, so no frame
     * above the pipeline keeps it either, however long the decision takes.)
     */
    @Test
    void aDecodedBodysArrayIsUnreachableWhileTheRequestIsDecided() throws Exception {
        for (CompileAhead ahead : List.of(HELPER, CompileAhead.OFF)) {
            RequestBytes request = RequestBytes.whole(Files.readAllBytes(Path.of("openapi/examples/training-job.json")));
            java.lang.ref.WeakReference<byte[]> array = new java.lang.ref.WeakReference<>(request.bytes());
            CompileAhead.Compiled compiled = pipeline(ahead).readCompiled(request, MediaType.APPLICATION_JSON_TYPE);
            for (int i = 0; i < 10 && array.get() != null; i++) {
                System.gc();
                Thread.sleep(10);
            }
            assertThat(array.get()).as("the body's array, with the compiled request still in use").isNull();
            assertThat(compiled.snapshot().nodeCount()).isEqualTo(3);
        }
    }
}
