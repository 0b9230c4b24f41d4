package dev.muster.wiring;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The metrics a decision and the extender's calls leave at /q/metrics: kube-scheduler's names and labels, each
 * counter moved by exactly what the call did; and the INFO line each decision logs.
 */
@QuarkusTest
class MetricsEndpointTest {
    private static final String PROFILE = "default-scheduler";

    private final List<LogRecord> logged = new CopyOnWriteArrayList<>();
    private final Handler capture = new Handler() {
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

    @BeforeEach
    void captureDecisionLog() {
        Logger.getLogger(DecisionLog.CATEGORY).addHandler(capture);
    }

    @AfterEach
    void release() {
        Logger.getLogger(DecisionLog.CATEGORY).removeHandler(capture);
    }

    static PromText scrape() {
        return PromText.parse(given().when().get("/q/metrics").then().statusCode(200).extract().asString());
    }

    static byte[] trainingJob() throws Exception {
        return Files.readAllBytes(Path.of("openapi/examples/training-job.json"));
    }

    @Test
    void aDecisionMovesTheKubeSchedulerNamedMetricsAndLogsOneLine() throws Exception {
        PromText before = scrape();
        given().contentType(ContentType.JSON).body(trainingJob()).when().post("/v1/decisions")
                .then().statusCode(200);
        PromText after = scrape();

        // the example is one gang of four workers that fits: one scheduled attempt, four pods scheduled
        assertThat(delta(before, after, "scheduler_podgroup_schedule_attempts_total",
                "result", "scheduled", "profile", PROFILE)).isEqualTo(1);
        assertThat(delta(before, after, "scheduler_podgroup_schedule_attempts_total",
                "result", "unschedulable", "profile", PROFILE)).isZero();
        assertThat(delta(before, after, "scheduler_schedule_attempts_total",
                "result", "scheduled", "profile", PROFILE)).isEqualTo(4);
        assertThat(delta(before, after, "scheduler_podgroup_scheduling_attempt_duration_seconds_count",
                "result", "scheduled", "profile", PROFILE)).isEqualTo(1);
        assertThat(delta(before, after, "scheduler_podgroup_scheduling_algorithm_duration_seconds_count"))
                .isEqualTo(1);
        assertThat(delta(before, after, "muster_decision_duration_seconds_count")).isEqualTo(1);
        // kube-scheduler's buckets: 1 ms doubling to 16.384 s
        assertThat(after.find("scheduler_podgroup_scheduling_algorithm_duration_seconds_bucket", "le", "0.001"))
                .hasSize(1);
        assertThat(after.find("scheduler_podgroup_scheduling_algorithm_duration_seconds_bucket", "le", "16.384"))
                .hasSize(1);
        assertThat(after.find("scheduler_workload_preemption_victims_bucket", "le", "1024.0")).hasSize(1);

        List<String> lines = logged.stream().filter(r -> r.getLevel().intValue() == Level.INFO.intValue())
                .map(LogRecord::getMessage).toList();
        assertThat(lines).hasSize(1);
        assertThat(lines.get(0)).matches("PodGroup some-ns/[a-z-]+: Scheduled, 4/4 members placed, 0 victims, "
                + "engine \\d+\\.\\d{3} ms");
    }

    @Test
    void plainPodsScheduledAreSummedUpInOneLineTheOthersLogOneEach() {
        String node = "{\"metadata\":{\"name\":\"n1\"},\"status\":{\"allocatable\":{\"cpu\":\"4\",\"pods\":\"10\"}}}";
        StringBuilder pods = new StringBuilder();
        for (int i = 0; i < 4; i++) { // three fit, the fourth asks for more CPU than the node has
            pods.append(i == 0 ? "" : ",").append("{\"metadata\":{\"name\":\"p").append(i)
                    .append("\",\"namespace\":\"batch\",\"uid\":\"u").append(i).append("\"},\"spec\":{\"containers\":")
                    .append("[{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":\"").append(i < 3 ? "1" : "8")
                    .append("\"}}}]}}");
        }
        given().contentType(ContentType.JSON).body("{\"snapshot\":{\"nodes\":[" + node + "],\"pods\":[" + pods + "]}}")
                .when().post("/v1/decisions").then().statusCode(200);

        List<String> lines = logged.stream().filter(r -> r.getLevel().intValue() == Level.INFO.intValue())
                .map(LogRecord::getMessage).toList();
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0)).matches("Pod batch/p3: Unschedulable, 0 victims, engine \\d+\\.\\d{3} ms");
        assertThat(lines.get(1)).matches("Pods: 3 Scheduled, engine \\d+\\.\\d{3} ms in all");
    }

    @Test
    void eachExtenderVerbIsCountedAndTimedByResult() {
        PromText before = scrape();
        String node = "{\"metadata\":{\"name\":\"n1\"},\"status\":{\"allocatable\":{\"cpu\":\"4\",\"pods\":\"10\"}}}";
        String pod = "{\"metadata\":{\"name\":\"p\",\"namespace\":\"default\",\"uid\":\"u1\"},"
                + "\"spec\":{\"containers\":[{\"name\":\"c\"}]}}";
        given().contentType(ContentType.JSON).body("{\"Pod\":" + pod + ",\"Nodes\":{\"items\":[" + node + "]}}")
                .post("/extender/filter").then().statusCode(200);
        given().contentType(ContentType.JSON).body("not json").post("/extender/prioritize").then().statusCode(400);
        given().contentType(ContentType.JSON).body("{\"PodName\":\"p\",\"PodNamespace\":\"default\","
                + "\"PodUID\":\"u1\",\"Node\":\"n1\"}").post("/extender/bind").then().statusCode(200);
        PromText after = scrape();

        assertThat(delta(before, after, "muster_extender_requests_total", "verb", "filter", "result", "success"))
                .isEqualTo(1);
        assertThat(delta(before, after, "muster_extender_requests_total", "verb", "prioritize", "result", "error"))
                .isEqualTo(1);
        // no cluster view: bind answers an Error
        assertThat(delta(before, after, "muster_extender_requests_total", "verb", "bind", "result", "error"))
                .isEqualTo(1);
        assertThat(delta(before, after, "muster_extender_requests_total", "verb", "preempt", "result", "success"))
                .isZero();
        assertThat(delta(before, after, "muster_extender_request_duration_seconds_count",
                "verb", "filter", "result", "success")).isEqualTo(1);
        assertThat(after.find("muster_extender_request_duration_seconds_bucket", "verb", "bind", "result", "error", "le", "1.0E-4"))
                .as("0.1 ms first bucket").hasSize(1);
    }

    @Test
    void plainPodsCountAsPodAttemptsOnlyOncePerPod() {
        String pod = """
                {"metadata": {"namespace": "default", "name": "%s", "uid": "u-%s"},
                 "spec": {"schedulerName": "default-scheduler",
                  "containers": [{"name": "c", "resources": {"requests": {"cpu": "%s"}}}]}}""";
        String body = """
                {"snapshot": {"nodes": [{"metadata": {"name": "n1"},
                  "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}}],
                 "pods": [%s, %s, %s, %s]}}""".formatted(pod.formatted("a", "a", "1"), pod.formatted("b", "b", "1"),
                pod.formatted("c", "c", "1"), pod.formatted("huge", "huge", "100"));
        PromText before = scrape();
        given().contentType(ContentType.JSON).body(body).when().post("/v1/decisions").then().statusCode(200);
        PromText after = scrape();

        // three pods fit the node, the fourth asks for more CPU than any node has; no PodGroup was attempted
        assertThat(delta(before, after, "scheduler_schedule_attempts_total",
                "result", "scheduled", "profile", PROFILE)).isEqualTo(3);
        assertThat(delta(before, after, "scheduler_schedule_attempts_total",
                "result", "unschedulable", "profile", PROFILE)).isEqualTo(1);
        assertThat(after.valueOrZero("scheduler_podgroup_schedule_attempts_total", "result", "scheduled", "profile",
                PROFILE)).isEqualTo(before.valueOrZero("scheduler_podgroup_schedule_attempts_total", "result",
                "scheduled", "profile", PROFILE));
    }

    private static double delta(PromText before, PromText after, String name, String... labels) {
        return after.value(name, labels) - before.valueOrZero(name, labels);
    }
}
