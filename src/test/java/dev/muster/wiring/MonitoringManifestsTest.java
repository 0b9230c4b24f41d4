package dev.muster.wiring;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * k8s/monitoring against the running service: every metric the Grafana dashboard queries is one /q/metrics serves,
 * and the ServiceMonitor scrapes a port and path the Service and the application have.
 */
@QuarkusTest
class MonitoringManifestsTest {
    static final Path DIR = Path.of("k8s", "monitoring");
    /** A metric selector in PromQL: a name directly followed by its label matchers. */
    private static final Pattern SELECTOR = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)\\{");
    private static final Pattern LABEL_VALUES = Pattern.compile("label_values\\(([a-zA-Z_:][a-zA-Z0-9_:]*)");

    static List<String> expressions(JsonNode dashboard) {
        List<String> out = new ArrayList<>();
        for (JsonNode panel : dashboard.path("panels")) {
            for (JsonNode target : panel.path("targets")) {
                out.add(target.path("expr").asText());
            }
        }
        for (JsonNode variable : dashboard.path("templating").path("list")) {
            if (variable.hasNonNull("definition")) {
                out.add(variable.path("definition").asText());
            }
        }
        return out;
    }

    static Set<String> metricNames(String expr) {
        Set<String> out = new TreeSet<>();
        Matcher m = SELECTOR.matcher(expr);
        while (m.find()) {
            out.add(m.group(1));
        }
        Matcher l = LABEL_VALUES.matcher(expr);
        while (l.find()) {
            out.add(l.group(1));
        }
        return out;
    }

    @Test
    void everyDashboardQueryNamesAMetricTheServiceExports() throws Exception {
        // make every family appear: a decision, an extender call and (for jvm_gc_pause) a collection
        given().contentType(ContentType.JSON).body(Files.readAllBytes(Path.of("openapi/examples/training-job.json")))
                .post("/v1/decisions").then().statusCode(200);
        given().contentType(ContentType.JSON).body("not json").post("/extender/prioritize").then().statusCode(400);
        System.gc();
        Set<String> exported = MetricsEndpointTest.scrape().names();

        JsonNode dashboard = JsonMapper.builder().build().readTree(DIR.resolve("muster-dashboard.json").toFile());
        List<String> exprs = expressions(dashboard);
        assertThat(exprs).hasSizeGreaterThanOrEqualTo(10);
        Set<String> queried = new TreeSet<>();
        for (String expr : exprs) {
            Set<String> names = metricNames(expr);
            assertThat(names).as("metric selectors in %s", expr).isNotEmpty();
            queried.addAll(names);
        }
        assertThat(exported).containsAll(queried);
        // the dashboard covers what it promises
        assertThat(queried).contains("scheduler_podgroup_schedule_attempts_total",
                "scheduler_podgroup_scheduling_attempt_duration_seconds_bucket",
                "muster_extender_requests_total", "muster_extender_request_duration_seconds_bucket",
                "jvm_memory_used_bytes", "jvm_gc_pause_seconds_count");
    }

    @Test
    void theServiceMonitorScrapesTheServicesMetricsPort() throws Exception {
        ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
        JsonNode monitor = yaml.readTree(DIR.resolve("servicemonitor.yaml").toFile());
        assertThat(monitor.path("apiVersion").asText()).isEqualTo("monitoring.coreos.com/v1");
        assertThat(monitor.path("kind").asText()).isEqualTo("ServiceMonitor");
        JsonNode endpoint = monitor.path("spec").path("endpoints").get(0);
        assertThat(endpoint.path("path").asText()).isEqualTo("/q/metrics");

        JsonNode service = null;
        try (YAMLParser p = new YAMLFactory().createParser(Path.of("k8s", "deployment.yaml").toFile())) {
            for (JsonNode doc : yaml.readValues(p, JsonNode.class).readAll()) {
                if ("Service".equals(doc.path("kind").asText())) {
                    service = doc;
                }
            }
        }
        assertThat(service).as("a Service in k8s/deployment.yaml").isNotNull();
        ObjectNode wanted = (ObjectNode) monitor.path("spec").path("selector").path("matchLabels");
        JsonNode labels = service.path("metadata").path("labels");
        wanted.fields().forEachRemaining(e -> assertThat(labels.path(e.getKey()).asText())
                .as("Service label %s", e.getKey()).isEqualTo(e.getValue().asText()));
        List<String> ports = new ArrayList<>();
        service.path("spec").path("ports").forEach(port -> ports.add(port.path("name").asText()));
        assertThat(ports).contains(endpoint.path("port").asText());
        assertThat(monitor.path("spec").path("namespaceSelector").path("matchNames").get(0).asText())
                .isEqualTo(service.path("metadata").path("namespace").asText());

        String kustomization = Files.readString(DIR.resolve("kustomization.yaml"));
        assertThat(kustomization).contains("servicemonitor.yaml").contains("muster-dashboard.json");
    }
}
