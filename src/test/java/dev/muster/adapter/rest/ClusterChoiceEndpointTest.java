package dev.muster.adapter.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

/**
 * {@code POST /v1/cluster-choices} over HTTP, with two watched clusters: one loaded from a snapshot file, one whose
 * file does not exist (never synced). A watched cluster answers as the same snapshot sent inline; each choice's
 * decisions are those of {@code /v1/decisions} on the cluster plus the workload; a choice on a view not synced is a
 * 503 naming it; readiness and metrics name each watched cluster.
 */
@QuarkusTest
@TestProfile(ClusterChoiceEndpointTest.Watched.class)
class ClusterChoiceEndpointTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    public static class Watched implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "muster.clusters.east.source", "file",
                    "muster.clusters.east.file", "src/test/resources/choices/us-east-2.json",
                    "muster.clusters.broken.source", "file",
                    "muster.clusters.broken.file", "target/no-such-snapshot.json");
        }
    }

    private static ObjectNode example() throws Exception {
        return (ObjectNode) JSON.readTree(Files.readString(Path.of("openapi/examples/cluster-choices.json")));
    }

    private static JsonNode post(String path, Object body, int status) throws Exception {
        String out = given().contentType(ContentType.JSON).body(JSON.writeValueAsString(body))
                .when().post(path).then().statusCode(status).extract().asString();
        return JSON.readTree(out);
    }

    @Test
    void theExampleRanksTheClusterThatFitsFirstAndMatchesSingleDecisions() throws Exception {
        ObjectNode body = example();
        JsonNode answer = post("/v1/cluster-choices", body, 200);
        assertThat(answer.at("/choices/0/cluster").asText()).isEqualTo("us-east-2");
        assertThat(answer.at("/choices/0/fit").asText()).isEqualTo("Fits");
        assertThat(answer.at("/choices/1/cluster").asText()).isEqualTo("eu-west-1");
        assertThat(answer.at("/choices/1/fit").asText()).isEqualTo("FitsWithPreemption");
        assertThat(answer.at("/choices/1/victims").asInt()).isEqualTo(1);
        assertThat(answer.at("/choices/1/message").asText()).isEqualTo("fits after evicting 1 pod of priority <= -10");
        for (JsonNode choice : answer.get("choices")) {
            ObjectNode cluster = null;
            for (JsonNode c : body.get("clusters")) {
                if (c.get("name").asText().equals(choice.get("cluster").asText())) {
                    cluster = (ObjectNode) c.get("snapshot").deepCopy();
                }
            }
            assertThat(cluster).isNotNull();
            JsonNode w = body.get("workload");
            for (String list : new String[]{"pods", "podGroups", "workloads"}) {
                ArrayNode merged = cluster.has(list) ? (ArrayNode) cluster.get(list) : cluster.putArray(list);
                w.get(list).forEach(merged::add);
            }
            ObjectNode single = JSON.createObjectNode();
            single.set("snapshot", cluster);
            single.putArray("podGroups").add("some-ns/training-job-workers-pg");
            single.putArray("pods");
            single.set("options", body.get("options"));
            JsonNode decided = post("/v1/decisions", single, 200);
            assertThat(choice.get("decisions")).as("decisions of " + choice.get("cluster"))
                    .isEqualTo(decided.get("decisions"));
        }
        assertThat(post("/v1/cluster-choices", body, 200)).as("same request, same answer").isEqualTo(answer);
    }

    @Test
    void aWatchedClusterAnswersAsItsSnapshotSentInline() throws Exception {
        ObjectNode inline = example();
        ((ObjectNode) inline.get("clusters").get(1)).set("snapshot",
                JSON.readTree(Files.readString(Path.of("src/test/resources/choices/us-east-2.json"))));
        ObjectNode watched = example();
        ((ObjectNode) watched.get("clusters").get(1)).remove("snapshot");
        ((ObjectNode) watched.get("clusters").get(1)).put("name", "east");
        ((ObjectNode) inline.get("clusters").get(1)).put("name", "east");
        JsonNode a = post("/v1/cluster-choices", inline, 200);
        JsonNode b = post("/v1/cluster-choices", watched, 200);
        assertThat(b).isEqualTo(a);
        assertThat(b.at("/choices/0/cluster").asText()).isEqualTo("east");
    }

    @Test
    void aWatchedClusterNotSyncedIsA503NamingIt() throws Exception {
        ObjectNode body = example();
        ((ObjectNode) body.get("clusters").get(0)).remove("snapshot");
        ((ObjectNode) body.get("clusters").get(0)).put("name", "broken");
        JsonNode status = post("/v1/cluster-choices", body, 503);
        assertThat(status.get("reason").asText()).isEqualTo("ServiceUnavailable");
        assertThat(status.get("message").asText()).contains("\"broken\"").contains("not synced");
    }

    @Test
    void aWorkloadPodAWatchedClusterAlreadyHasIsADuplicate() throws Exception {
        ObjectNode body = example();
        body.putArray("clusters").add(JSON.createObjectNode().put("name", "east"));
        ObjectNode pod = (ObjectNode) body.get("workload").get("pods").get(1);
        ((ObjectNode) pod.get("metadata")).put("name", "east-0-agent").put("namespace", "kube-system");
        JsonNode status = post("/v1/cluster-choices", body, 422);
        assertThat(status.at("/details/causes/0/field").asText()).isEqualTo("workload.pods[1].metadata.name");
        assertThat(status.at("/details/causes/0/reason").asText()).isEqualTo("FieldValueDuplicate");
        assertThat(status.at("/details/causes/0/message").asText())
                .isEqualTo("clusters[0] (east) already has the Pod kube-system/east-0-agent");
    }

    @Test
    void invalidChoicesNameEveryCauseFromTheRequestRoot() throws Exception {
        ObjectNode body = example();
        ArrayNode clusters = (ArrayNode) body.get("clusters");
        clusters.add(JSON.createObjectNode().put("name", "eu-west-1"));
        clusters.add(JSON.createObjectNode().put("name", "nowhere"));
        ((ObjectNode) clusters.get(0).get("snapshot").get("nodes").get(1).get("metadata")).remove("name");
        ((ObjectNode) body.get("workload")).putArray("nodes");
        JsonNode status = post("/v1/cluster-choices", body, 422);
        assertThat(status.at("/details/causes").findValuesAsText("field")).containsExactly(
                "clusters[0].snapshot.nodes[1].metadata.name", "clusters[2].name", "clusters[3].name",
                "workload.nodes");
        assertThat(status.at("/details/causes").findValuesAsText("reason")).containsExactly(
                "FieldValueRequired", "FieldValueDuplicate", "FieldValueNotFound", "FieldValueForbidden");
    }

    @Test
    void aWorkloadObjectAnInlineClusterAlreadyHasIsADuplicate() throws Exception {
        ObjectNode body = example();
        JsonNode batch = body.at("/clusters/0/snapshot/pods/0");
        ObjectNode pod = (ObjectNode) body.get("workload").get("pods").get(2);
        ((ObjectNode) pod.get("metadata")).put("name", batch.at("/metadata/name").asText())
                .put("namespace", batch.at("/metadata/namespace").asText());
        JsonNode status = post("/v1/cluster-choices", body, 422);
        assertThat(status.at("/details/causes/0/field").asText()).isEqualTo("workload.pods[2].metadata.name");
        assertThat(status.at("/details/causes/0/reason").asText()).isEqualTo("FieldValueDuplicate");
        assertThat(status.at("/details/causes/0/message").asText()).contains("clusters[0] (eu-west-1)");
    }

    @Test
    void readinessAndMetricsNameEachWatchedCluster() {
        given().when().get("/q/health/ready").then().statusCode(200)
                .body("checks.find { it.name == 'watched-clusters' }.data.east", containsString("synced (3 nodes"))
                .body("checks.find { it.name == 'watched-clusters' }.data.broken", containsString("waiting for"));
        String metrics = given().when().get("/q/metrics").then().statusCode(200).extract().asString();
        assertThat(metrics).contains("muster_cluster_view_synced{cluster=\"east\"} 1.0")
                .contains("muster_cluster_view_synced{cluster=\"broken\"} 0.0");
    }

    @Test
    void yamlBodiesAreReadToo() throws Exception {
        String yaml = new com.fasterxml.jackson.dataformat.yaml.YAMLMapper().writeValueAsString(example());
        given().contentType("application/yaml").body(yaml.getBytes(java.nio.charset.StandardCharsets.UTF_8)).when().post("/v1/cluster-choices").then().statusCode(200)
                .body("choices[0].cluster", equalTo("us-east-2"));
    }
}
