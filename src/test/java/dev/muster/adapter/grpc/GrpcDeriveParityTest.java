package dev.muster.adapter.grpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.util.JsonFormat;
import com.google.rpc.BadRequest;
import dev.muster.grpc.v1.DecisionServiceGrpc;
import dev.muster.grpc.v1.DeriveRequest;
import dev.muster.grpc.v1.DeriveResponse;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * gRPC {@code Derive} and REST {@code POST /v1/derivations}, same bytes in: the same derivations out (compared in
 * proto3 JSON form, defaults dropped on both sides), and for invalid Jobs the same causes as field violations.
 */
@QuarkusTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GrpcDeriveParityTest {
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

    private static DeriveRequest parse(String json) throws Exception {
        DeriveRequest.Builder b = DeriveRequest.newBuilder();
        JsonFormat.parser().ignoringUnknownFields().merge(json, b);
        return b.build();
    }

    private static Response rest(String json) {
        return given().contentType("application/json").body(json).post("/v1/derivations");
    }

    private static String job(String name, String namespace, String uid, String spec) {
        return "{'apiVersion':'batch/v1','kind':'Job','metadata':{'name':'" + name + "'"
                + (namespace == null ? "" : ",'namespace':'" + namespace + "'")
                + (uid == null ? "" : ",'uid':'" + uid + "'") + ",'labels':{'app':'x'}},'spec':" + spec
                + ",'status':{}}";
    }

    private static final String GANG = "{'parallelism':4,'completions':4,'completionMode':'Indexed',"
            + "'template':{'metadata':{'labels':{'app':'x'}},'spec':{'containers':[{'name':'c','image':'i'}]}}}";

    @Test
    void everyKindOfJobDerivesAsRest() throws Exception {
        String json = ("{'jobs':["
                + job("train", "ml", "0f6a1c2e-1111-4000-8000-000000000001", GANG) + ","
                + job("no-uid", null, null, GANG) + ","
                + job("x".repeat(63), "ml", "0f6a1c2e-1111-4000-8000-000000000002", GANG) + ","
                + job("single", "ml", "u-3", "{'parallelism':1,'completions':1,'completionMode':'Indexed'}") + ","
                + job("unset", "ml", "u-4", "{'completionMode':'Indexed'}") + ","
                + job("plain", "ml", "u-5", "{'parallelism':3,'completions':3}") + ","
                + job("uneven", "ml", "u-6", "{'parallelism':3,'completions':6,'completionMode':'Indexed'}") + ","
                + job("grouped", "ml", "u-7", "{'parallelism':2,'completions':2,'completionMode':'Indexed',"
                        + "'template':{'spec':{'schedulingGroup':{'podGroupName':'mine'}}}}")
                + "]}").replace('\'', '"');
        Response r = rest(json);
        assertThat(r.statusCode()).as(r.asString()).isEqualTo(200);
        JsonNode viaRest = Proto3Json.normalize(Proto3Json.JSON.readTree(r.asByteArray()));
        DeriveResponse grpc = stub.derive(parse(json));
        JsonNode viaGrpc = Proto3Json.normalize(Proto3Json.of(grpc));

        assertThat(viaGrpc).isEqualTo(viaRest);
        assertThat(grpc.getDerivationsCount()).isEqualTo(8);
        assertThat(grpc.getDerivationsList()).extracting(d -> d.getQualifies())
                .containsExactly(true, true, true, false, false, false, false, false);
        assertThat(grpc.getDerivations(0).getPodGroup().getMetadata().getOwnerReferencesList())
                .extracting(o -> o.getKind()).containsExactly("Job", "Workload");
        assertThat(grpc.getDerivations(0).getWorkload().getSpec().getPodGroupTemplates(0).getSchedulingPolicy()
                .getGang().getMinCount()).isEqualTo(4);
        assertThat(grpc.getDerivations(1).getJob().getNamespace()).isEqualTo("default");
    }

    @Test
    void noJobsDeriveNothing() throws Exception {
        assertThat(stub.derive(DeriveRequest.getDefaultInstance()).getDerivationsCount()).isZero();
        Response r = rest("{\"jobs\":[]}");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(Proto3Json.normalize(Proto3Json.JSON.readTree(r.asByteArray())))
                .isEqualTo(Proto3Json.normalize(Proto3Json.of(stub.derive(DeriveRequest.getDefaultInstance()))));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
            "{'jobs':[{'metadata':{'name':'j'},'spec':{'completionMode':'Sorted'}}]}",
            "{'jobs':[{'apiVersion':'batch/v2','metadata':{'name':'j'},'spec':{'parallelism':-1,'completions':-2}},"
                    + "{'metadata':{'name':'Bad_Name','namespace':'ns'}}]}",
            "{'jobs':[{'metadata':{'name':'j'},'spec':{'parallelism':2,'template':{'spec':"
                    + "{'schedulingGroup':{'podGroupName':'Not A Name'}}}}}]}"})
    void invalidJobsNameTheSameFieldsAsRest(String body) throws Exception {
        String json = body.replace('\'', '"');
        Response r = rest(json);
        assertThat(r.statusCode()).as(r.asString()).isEqualTo(422);
        JsonNode causes = Proto3Json.JSON.readTree(r.asByteArray()).path("details").path("causes");
        assertThat(causes).isNotEmpty();
        StatusRuntimeException e = catchThrowableOfType(StatusRuntimeException.class, () -> stub.derive(parse(json)));
        assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
        List<BadRequest.FieldViolation> v = Violations.of(e);
        assertThat(v).hasSize(causes.size());
        for (int i = 0; i < v.size(); i++) {
            assertThat(v.get(i).getField()).isEqualTo(causes.get(i).path("field").asText());
            assertThat(v.get(i).getReason()).isEqualTo(causes.get(i).path("reason").asText());
        }
    }
}
