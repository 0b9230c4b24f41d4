package dev.muster.adapter.grpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.rpc.BadRequest;
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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * A v1beta1 PodGroup's struct {@code disruptionMode} over gRPC: the seed preemption case with its victim group
 * written as v1beta1 decides the same over REST and gRPC, {@code {"all": {}}} as v1alpha2's {@code PodGroup} (the
 * group is evicted whole) and {@code {"single": {}}} as {@code Pod}; the string form in v1beta1 is refused alike.
 */
@QuarkusTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GrpcDisruptionModeParityTest {
    private static final Path SEED = Path.of("src/test/resources/golden",
            "the seed victim-pg with disruptionMode PodGroup is preempted whole");

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

    /** The seed request with victim-pg written as a v1beta1 PodGroup whose disruptionMode is {@code mode}. */
    private static String v1beta1(String mode) throws Exception {
        ObjectNode doc = (ObjectNode) Proto3Json.JSON.readTree(Files.readString(SEED.resolve("request.json")));
        for (JsonNode g : doc.at("/snapshot/podGroups")) {
            if (g.at("/metadata/name").asText().equals("victim-pg")) {
                ((ObjectNode) g).put("apiVersion", "scheduling.k8s.io/v1beta1");
                ((ObjectNode) g.get("spec")).set("disruptionMode", Proto3Json.JSON.readTree(mode));
            }
        }
        return Proto3Json.JSON.writeValueAsString(doc);
    }

    private static Response rest(String path, String json) {
        return given().contentType("application/json").body(json).post(path);
    }

    private JsonNode both(String json) throws Exception {
        Response r = rest("/v1/decisions", json);
        assertThat(r.statusCode()).as(r.asString()).isEqualTo(200);
        JsonNode viaRest = Proto3Json.normalize(Proto3Json.JSON.readTree(r.asByteArray()));
        JsonNode viaGrpc = Proto3Json.normalize(Proto3Json.of(stub.decide(GrpcRequestMapperTest.parse(json))));
        assertThat(viaGrpc).isEqualTo(viaRest);
        return viaGrpc;
    }

    private static List<String> victims(JsonNode response) {
        List<String> out = new ArrayList<>();
        response.at("/decisions/0/victims").forEach(v -> out.add(v.at("/pod/name").asText()));
        return out;
    }

    @Test
    void allDecidesAsRestAndEvictsTheGroupWhole() throws Exception {
        JsonNode all = both(v1beta1("{\"all\":{}}"));
        JsonNode expected = Proto3Json.normalize(Proto3Json.JSON.readTree(SEED.resolve("expected.json").toFile()));
        assertThat(all).as("v1beta1 all decides as v1alpha2 PodGroup").isEqualTo(expected);
        assertThat(victims(all)).containsExactly("victim-0", "victim-1");

        JsonNode single = both(v1beta1("{\"single\":{}}"));
        assertThat(victims(single)).as("single: victims pod by pod").hasSize(1);
        JsonNode absent = both(v1beta1("null"));
        assertThat(absent).as("no disruptionMode: the default, single").isEqualTo(single);
    }

    @Test
    void theStringFormInV1beta1IsRefusedAlike() throws Exception {
        String json = v1beta1("\"PodGroup\"");
        Response r = rest("/v1/validations", json);
        assertThat(r.statusCode()).isEqualTo(422);
        JsonNode causes = Proto3Json.JSON.readTree(r.asByteArray()).path("details").path("causes");
        StatusRuntimeException e = catchThrowableOfType(StatusRuntimeException.class,
                () -> stub.decide(GrpcRequestMapperTest.parse(json)));
        assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
        List<BadRequest.FieldViolation> v = Violations.of(e);
        assertThat(v).hasSize(causes.size());
        assertThat(v.get(0).getField()).isEqualTo(causes.get(0).path("field").asText())
                .isEqualTo("snapshot.podGroups[0].spec.disruptionMode");
        assertThat(v.get(0).getReason()).isEqualTo(causes.get(0).path("reason").asText());
    }

    @Test
    void bothFormsAtOnceAreRefusedOnTheGroupsField() throws Exception {
        dev.muster.grpc.v1.DecideRequest.Builder b = GrpcRequestMapperTest.parse(v1beta1("{\"all\": {}}")).toBuilder();
        int k = -1;
        for (int i = 0; i < b.getSnapshot().getPodGroupsCount(); i++) {
            if (b.getSnapshot().getPodGroups(i).getSpec().hasDisruptionModeValue()) {
                k = i;
            }
        }
        assertThat(k).as("the v1beta1 group").isNotNegative();
        b.getSnapshotBuilder().getPodGroupsBuilder(k).getSpecBuilder().setDisruptionMode("PodGroup");
        String field = "snapshot.podGroups[" + k + "].spec.disruptionMode";
        StatusRuntimeException e = catchThrowableOfType(StatusRuntimeException.class, () -> stub.decide(b.build()));
        assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
        List<BadRequest.FieldViolation> v = Violations.of(e);
        assertThat(v).singleElement().satisfies(f -> {
            assertThat(f.getField()).isEqualTo(field);
            assertThat(f.getDescription()).contains("set twice");
        });
    }
}
