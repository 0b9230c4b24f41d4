package dev.muster.adapter.grpc;

import com.google.rpc.BadRequest;
import dev.muster.grpc.v1.DecideRequest;
import dev.muster.grpc.v1.DecisionServiceGrpc;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.groups.Tuple.tuple;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

/**
 * {@code kubectl get nodes,pods -o json} pasted as {@code snapshot.nodes}: each Pod among the nodes is refused on
 * its own {@code kind}, the same on both REST endpoints and over gRPC.
 */
@QuarkusTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ListItemKindSurfacesTest {
    private static final String BODY = ("{'snapshot':{'nodes':{'apiVersion':'v1','kind':'List','items':["
            + "{'apiVersion':'v1','kind':'Node','metadata':{'name':'n0'}},"
            + "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'p0','namespace':'ns'},"
            + "'spec':{'containers':[{'name':'c','image':'i'}]}}]}}}").replace('\'', '"');

    private ManagedChannel channel;

    @BeforeAll
    void connect() {
        channel = GrpcChannels.open();
    }

    @AfterAll
    void disconnect() throws InterruptedException {
        GrpcChannels.close(channel);
    }

    @Test
    void restAnswers422OnThePodsKind() {
        for (String path : List.of("/v1/validations", "/v1/decisions")) {
            given().contentType(ContentType.JSON).body(BODY)
                    .when().post(path)
                    .then().statusCode(422)
                    .body("reason", equalTo("Invalid"))
                    .body("details.causes", hasSize(1))
                    .body("details.causes[0].reason", equalTo("FieldValueNotSupported"))
                    .body("details.causes[0].field", equalTo("snapshot.nodes[1].kind"))
                    .body("details.causes[0].message", equalTo("supported values: \"Node\""))
                    .body("message", equalTo("request is invalid: snapshot.nodes[1].kind: Unsupported value: "
                            + "\"Pod\": supported values: \"Node\""));
        }
    }

    @Test
    void grpcAnswersInvalidArgumentOnThePodsKind() throws Exception {
        // proto3 JSON has no list object: the items go in as the array
        DecideRequest request = GrpcRequestMapperTest.parse(BODY.replace("{\"apiVersion\":\"v1\",\"kind\":\"List\","
                + "\"items\":", "").replace("]}}}", "]}}"));
        DecisionServiceGrpc.DecisionServiceBlockingStub stub = DecisionServiceGrpc.newBlockingStub(channel);
        StatusRuntimeException e = catchThrowableOfType(StatusRuntimeException.class,
                () -> stub.withDeadlineAfter(30, TimeUnit.SECONDS).validate(request));
        assertThat(e).isNotNull();
        assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
        assertThat(Violations.of(e)).extracting(BadRequest.FieldViolation::getField,
                BadRequest.FieldViolation::getReason).containsExactly(tuple("snapshot.nodes[1].kind",
                "FieldValueNotSupported"));
    }
}
