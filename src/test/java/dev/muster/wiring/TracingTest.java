package dev.muster.wiring;

import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * With {@code muster.tracing.enabled} (and the SDK on), one decision leaves a {@code muster.decision} span with one
 * child per phase, in order (compile, run by a helper thread, alongside validate); with {@code muster.log.decisions=false} it logs no decision line.
 */
@QuarkusTest
@TestProfile(TracingTest.TracingOn.class)
class TracingTest {
    public static class TracingOn implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("muster.tracing.enabled", "true",
                    "quarkus.otel.sdk.disabled", "false",
                    // export each span as it ends, not in batches
                    "quarkus.otel.simple", "true",
                    "muster.log.decisions", "false",
                    // every request compiled by a helper thread: its phase must still be a child of the request
                    "muster.engine.compile-ahead-threshold", "0");
        }
    }

    @Inject
    InMemorySpanExporter spans;

    @Test
    void aDecisionIsTracedPhaseByPhaseAndNotLogged() throws Exception {
        List<LogRecord> logged = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord r) {
                logged.add(r);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger.getLogger(DecisionLog.CATEGORY).addHandler(capture);
        spans.reset();
        try {
            given().contentType(ContentType.JSON).body(Files.readAllBytes(Path.of("openapi/examples/training-job.json")))
                    .when().post("/v1/decisions").then().statusCode(200);
        } finally {
            Logger.getLogger(DecisionLog.CATEGORY).removeHandler(capture);
        }
        // spans are exported as they end; allow the export to land before reading (bounded, not a timing assertion)
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
        while (spans.getFinishedSpanItems().stream().noneMatch(s -> s.getName().equals("muster.decision"))
                && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        List<SpanData> finished = spans.getFinishedSpanItems();
        SpanData request = finished.stream().filter(s -> s.getName().equals("muster.decision")).findFirst()
                .orElseThrow(() -> new AssertionError("no muster.decision span in " + finished));
        List<SpanData> phases = finished.stream()
                .filter(s -> s.getParentSpanId().equals(request.getSpanId()))
                .sorted(java.util.Comparator.comparingLong(SpanData::getStartEpochNanos))
                .toList();
        // validate (this thread) and compile (a helper) run side by side, so either may start first
        assertThat(phases).extracting(SpanData::getName)
                .containsExactlyInAnyOrder("decode", "validate", "compile", "decide", "encode");
        assertThat(phases.subList(0, 1)).extracting(SpanData::getName).containsExactly("decode");
        assertThat(phases.subList(3, 5)).extracting(SpanData::getName).containsExactly("decide", "encode");
        assertThat(phases).allMatch(s -> s.getTraceId().equals(request.getTraceId()));
        assertThat(logged).isEmpty();
    }
}
