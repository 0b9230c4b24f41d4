package dev.muster.adapter.grpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.util.JsonFormat;
import com.google.rpc.BadRequest;
import dev.muster.grpc.v1.ChooseClusterRequest;
import dev.muster.grpc.v1.ChooseClusterResponse;
import dev.muster.grpc.v1.ClusterChoice;
import dev.muster.grpc.v1.DecisionServiceGrpc;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * gRPC {@code ChooseCluster} against REST {@code POST /v1/cluster-choices}, same bytes in (the REST body read as the
 * proto3 JSON form of the request, unknown fields ignored): the same ranked choices out, the whole answer compared in
 * proto3 JSON form (defaults dropped on both sides, as {@link Proto3Json} does), and for invalid requests the REST 422
 * causes as the BadRequest field violations, one by one: same paths, reasons and messages.
 */
@QuarkusTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GrpcChooseClusterTest {
    static final Path EXAMPLE = Path.of("openapi", "examples", "cluster-choices.json");

    private ManagedChannel channel;
    private DecisionServiceGrpc.DecisionServiceBlockingStub stub;

    @BeforeAll
    void connect() {
        channel = GrpcChannels.open();
        stub = DecisionServiceGrpc.newBlockingStub(channel).withDeadlineAfter(60, TimeUnit.SECONDS);
    }

    @AfterAll
    void disconnect() throws InterruptedException {
        GrpcChannels.close(channel);
    }

    static ChooseClusterRequest parse(String json) throws Exception {
        ChooseClusterRequest.Builder b = ChooseClusterRequest.newBuilder();
        JsonFormat.parser().ignoringUnknownFields().merge(json, b);
        return b.build();
    }

    private static Response rest(String json) {
        return given().contentType("application/json").body(json).post("/v1/cluster-choices");
    }

    private static JsonNode restChoose(String json) throws Exception {
        Response r = rest(json);
        assertThat(r.statusCode()).as(r.asString()).isEqualTo(200);
        return Proto3Json.normalize(Proto3Json.JSON.readTree(r.asByteArray()));
    }

    private static ObjectNode example() throws Exception {
        return (ObjectNode) Proto3Json.JSON.readTree(Files.readString(EXAMPLE));
    }

    private static String edited(Consumer<ObjectNode> edit) throws Exception {
        ObjectNode doc = example();
        edit.accept(doc);
        return Proto3Json.JSON.writeValueAsString(doc);
    }

    @Test
    void theRestExampleChoosesAsRest() throws Exception {
        String json = Files.readString(EXAMPLE);
        ChooseClusterResponse grpc = stub.chooseCluster(parse(json));
        JsonNode viaRest = restChoose(json);
        assertThat(Proto3Json.normalize(Proto3Json.of(grpc))).isEqualTo(viaRest);

        // what the comparison covers is there to compare: both clusters ranked, their decisions with their outcomes
        assertThat(grpc.getChoicesList()).extracting(ClusterChoice::getRank).containsExactly(1, 2);
        assertThat(grpc.getChoicesList()).extracting(ClusterChoice::getCluster)
                .containsExactlyInAnyOrder("eu-west-1", "us-east-2");
        assertThat(grpc.getChoicesList()).allSatisfy(c -> {
            assertThat(c.getDecisionsList()).isNotEmpty();
            assertThat(c.getMessage()).isNotEmpty();
        });
        assertThat(grpc.getChoices(0).getFit()).isEqualTo(viaRest.path("choices").get(0).path("fit").asText());
        assertThat(grpc.getChoicesList()).extracting(ClusterChoice::getFit).doesNotHaveDuplicates();
    }

    @Test
    void withExplainAndWithoutPreemptionTheChoicesStillMatch() throws Exception {
        String json = edited(d -> ((ObjectNode) d.path("options")).put("preemption", false).put("explain", true));
        ChooseClusterResponse grpc = stub.chooseCluster(parse(json));
        assertThat(Proto3Json.normalize(Proto3Json.of(grpc))).isEqualTo(restChoose(json));
        assertThat(grpc.getChoicesList()).extracting(ClusterChoice::getVictims).containsOnly(0);
        assertThat(grpc.getChoices(0).getDecisions(0).hasExplanation()).isTrue();
    }

    /** A workload Job without its pods: it stands for {@code parallelism} pods from its template. */
    private static ObjectNode job(ObjectNode workload, String name, int parallelism) {
        ArrayNode jobs = workload.has("jobs") ? (ArrayNode) workload.get("jobs") : workload.putArray("jobs");
        ObjectNode job = jobs.addObject();
        job.putObject("metadata").put("name", name).put("namespace", "some-ns").put("uid", "uid-" + name);
        ObjectNode spec = job.putObject("spec").put("parallelism", parallelism);
        ObjectNode container = spec.putObject("template").putObject("spec").put("restartPolicy", "Never")
                .putArray("containers").addObject().put("name", name);
        container.putObject("resources").putObject("requests").put("cpu", "2").put("memory", "1Gi");
        return job;
    }

    @Test
    void aJobWithoutItsPodsChoosesAsRest() throws Exception {
        String json = edited(d -> {
            ObjectNode w = (ObjectNode) d.path("workload");
            w.remove(List.of("pods", "podGroups", "workloads"));
            ((ObjectNode) job(w, "etl", 3).path("spec")).put("completions", 3);
        });
        ChooseClusterResponse grpc = stub.chooseCluster(parse(json));
        assertThat(Proto3Json.normalize(Proto3Json.of(grpc))).isEqualTo(restChoose(json));
        assertThat(grpc.getChoicesList()).allSatisfy(c -> assertThat(c.getDecisionsList())
                .extracting(dec -> dec.getPod().getName()).containsExactly("etl-0", "etl-1", "etl-2"));
    }

    /**
     * The pods a Job stands for are built from its {@code parallelism}: beyond the pod limit a request may send
     * ({@code muster.limits.max-pods}, 200,000 by default, counted with the pods given) it is the client's mistake,
     * named on the Job that passes the limit, not an out-of-memory error.
     */
    @Test
    void aJobStandingForMorePodsThanARequestMaySendNamesItsParallelism() throws Exception {
        List<BadRequest.FieldViolation> v = assertSameViolationsAsRest(edited(d -> {
            ObjectNode w = (ObjectNode) d.path("workload");
            job(w, "huge", Integer.MAX_VALUE);
        }));
        assertThat(v).extracting(BadRequest.FieldViolation::getField)
                .containsExactly("workload.jobs[0].spec.parallelism");
        assertThat(v).extracting(BadRequest.FieldViolation::getReason).containsExactly("FieldValueInvalid");
        assertThat(v.get(0).getDescription()).contains("at most 200000 pods");

        // 4 pods given + 199,990 + 6: the second Job passes the limit; a suspended one stands for none
        v = assertSameViolationsAsRest(edited(d -> {
            ObjectNode w = (ObjectNode) d.path("workload");
            job(w, "big", 199_990);
            ((ObjectNode) job(w, "paused", Integer.MAX_VALUE).path("spec")).put("suspend", true);
            job(w, "last", 7);
            job(w, "after", 1);
        }));
        assertThat(v).extracting(BadRequest.FieldViolation::getField)
                .containsExactly("workload.jobs[2].spec.parallelism");
    }

    @Test
    void aJobStandingForBoundPodsIsForbiddenAsABoundPodIs() throws Exception {
        List<BadRequest.FieldViolation> v = assertSameViolationsAsRest(edited(d -> ((ObjectNode) job(
                (ObjectNode) d.path("workload"), "pinned", 2).path("spec").path("template").path("spec"))
                .put("nodeName", "west-0")));
        assertThat(v).extracting(BadRequest.FieldViolation::getField)
                .containsExactly("workload.jobs[0].spec.template.spec.nodeName");
        assertThat(v).extracting(BadRequest.FieldViolation::getReason).containsExactly("FieldValueForbidden");
    }

    @Test
    void noClustersNamesTheSameFieldAsRest() throws Exception {
        List<BadRequest.FieldViolation> v = assertSameViolationsAsRest(edited(d -> d.putArray("clusters")));
        assertThat(v).extracting(BadRequest.FieldViolation::getField).containsExactly("clusters");
        assertThat(v).extracting(BadRequest.FieldViolation::getReason).containsExactly("FieldValueRequired");
        assertSameViolationsAsRest(edited(d -> d.remove("clusters")));
    }

    @Test
    void aDuplicateNameNamesTheSameFieldAsRest() throws Exception {
        List<BadRequest.FieldViolation> v = assertSameViolationsAsRest(edited(d -> ((ObjectNode) d.path("clusters")
                .get(1)).put("name", d.path("clusters").get(0).path("name").asText())));
        assertThat(v).extracting(BadRequest.FieldViolation::getField).containsExactly("clusters[1].name");
        assertThat(v).extracting(BadRequest.FieldViolation::getReason).containsExactly("FieldValueDuplicate");
    }

    @Test
    void aClusterListInTheWorkloadNamesTheSameFieldAsRest() throws Exception {
        List<BadRequest.FieldViolation> v = assertSameViolationsAsRest(edited(d -> {
            ArrayNode nodes = ((ObjectNode) d.path("workload")).putArray("nodes");
            nodes.add(d.path("clusters").get(0).path("snapshot").path("nodes").get(0).deepCopy());
            ((ObjectNode) d.path("workload")).putArray("priorityClasses")
                    .add(d.path("clusters").get(0).path("snapshot").path("priorityClasses").get(0).deepCopy());
        }));
        assertThat(v).extracting(BadRequest.FieldViolation::getField)
                .containsExactlyInAnyOrder("workload.nodes", "workload.priorityClasses");
        assertThat(v).extracting(BadRequest.FieldViolation::getReason).containsOnly("FieldValueForbidden");
    }

    @Test
    void aBoundWorkloadPodAndABrokenSnapshotNameTheSameFieldsAsRest() throws Exception {
        List<BadRequest.FieldViolation> v = assertSameViolationsAsRest(edited(d -> {
            ((ObjectNode) d.path("workload").path("pods").get(2).path("spec")).put("nodeName", "west-0");
            ((ObjectNode) d.path("clusters").get(1).path("snapshot").path("nodes").get(0).path("metadata"))
                    .remove("name");
        }));
        assertThat(v).extracting(BadRequest.FieldViolation::getField).contains("workload.pods[2].spec.nodeName",
                "clusters[1].snapshot.nodes[0].metadata.name");
    }

    @Test
    void aWorkloadObjectAClusterAlreadyHasNamesTheSameFieldAsRest() throws Exception {
        List<BadRequest.FieldViolation> v = assertSameViolationsAsRest(edited(d -> ((ArrayNode) d.path("clusters")
                .get(0).path("snapshot").path("pods")).add(d.path("workload").path("pods").get(1).deepCopy())));
        assertThat(v).extracting(BadRequest.FieldViolation::getField).contains("workload.pods[1].metadata.name");
        assertThat(v).extracting(BadRequest.FieldViolation::getReason).contains("FieldValueDuplicate");
    }

    @Test
    void aNameNoClusterIsWatchedUnderIsNotFound() throws Exception {
        List<BadRequest.FieldViolation> v = assertSameViolationsAsRest(edited(d -> ((ObjectNode) d.path("clusters")
                .get(1)).remove("snapshot")));
        assertThat(v).extracting(BadRequest.FieldViolation::getField).containsExactly("clusters[1].name");
        assertThat(v).extracting(BadRequest.FieldViolation::getReason).containsExactly("FieldValueNotFound");
    }

    @Test
    void anEmptySnapshotIsASnapshotNotAWatchedCluster() throws Exception {
        // proto3 keeps a message's presence: {} is a snapshot without nodes, as REST reads it
        List<BadRequest.FieldViolation> v = assertSameViolationsAsRest(edited(d -> ((ObjectNode) d.path("clusters")
                .get(1)).putObject("snapshot")));
        assertThat(v).extracting(BadRequest.FieldViolation::getField).containsExactly("clusters[1].snapshot.nodes");
    }

    @Test
    void noWorkloadNamesTheSameFieldAsRest() throws Exception {
        List<BadRequest.FieldViolation> v = assertSameViolationsAsRest(edited(d -> d.remove("workload")));
        assertThat(v).extracting(BadRequest.FieldViolation::getField).containsExactly("workload");
        assertSameViolationsAsRest(edited(d -> d.putObject("workload")));
    }

    /** REST's 422 causes and gRPC's INVALID_ARGUMENT violations, compared one by one. */
    private List<BadRequest.FieldViolation> assertSameViolationsAsRest(String json) throws Exception {
        Response r = rest(json);
        assertThat(r.statusCode()).as(r.asString()).isEqualTo(422);
        JsonNode causes = Proto3Json.JSON.readTree(r.asByteArray()).path("details").path("causes");
        assertThat(causes).isNotEmpty();
        StatusRuntimeException e = catchThrowableOfType(StatusRuntimeException.class,
                () -> stub.chooseCluster(parse(json)));
        assertThat(e).as("gRPC answered OK where REST answered 422").isNotNull();
        assertThat(e.getStatus().getCode()).as(e.getStatus().toString()).isEqualTo(Status.Code.INVALID_ARGUMENT);
        List<BadRequest.FieldViolation> v = Violations.of(e);
        assertThat(v).hasSize(causes.size());
        for (int i = 0; i < v.size(); i++) {
            JsonNode c = causes.get(i);
            assertThat(v.get(i).getField()).isEqualTo(c.path("field").asText());
            assertThat(v.get(i).getReason()).isEqualTo(c.path("reason").asText());
            assertThat(v.get(i).getDescription()).isEqualTo(c.path("reason").asText() + ": "
                    + c.path("message").asText());
        }
        return v;
    }
}
