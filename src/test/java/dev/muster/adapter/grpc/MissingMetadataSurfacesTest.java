package dev.muster.adapter.grpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.rpc.BadRequest;
import dev.muster.adapter.RequestMutations;
import dev.muster.grpc.v1.DecideRequest;
import dev.muster.grpc.v1.DecisionServiceGrpc;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

/**
 * A PodGroup without metadata (absent or null) is the client's mistake on every surface: a 422 naming
 * {@code snapshot.podGroups[i].metadata.name} on both REST endpoints, INVALID_ARGUMENT with the same field over gRPC.
 */
@QuarkusTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MissingMetadataSurfacesTest {
    private static final String FIELD = "snapshot.podGroups[0].metadata.name";

    private ManagedChannel channel;

    @BeforeAll
    void connect() {
        channel = GrpcChannels.open();
    }

    @AfterAll
    void disconnect() throws InterruptedException {
        GrpcChannels.close(channel);
    }

    private static String withoutMetadata(boolean asNull) {
        JsonNode request = RequestMutations.load("sweep/every-kind.json");
        ObjectNode group = (ObjectNode) request.get("snapshot").get("podGroups").get(0);
        if (asNull) {
            group.set("metadata", NullNode.getInstance());
        } else {
            group.remove("metadata");
        }
        return request.toString();
    }

    @ParameterizedTest(name = "metadata null: {0}")
    @ValueSource(booleans = {false, true})
    void restAnswers422OnTheName(boolean asNull) {
        for (String path : List.of("/v1/validations", "/v1/decisions")) {
            given().contentType(ContentType.JSON).body(withoutMetadata(asNull))
                    .when().post(path)
                    .then().statusCode(422)
                    .body("kind", equalTo("Status")).body("reason", equalTo("Invalid")).body("code", equalTo(422))
                    .body("details.causes", hasSize(1))
                    .body("details.causes[0].reason", equalTo("FieldValueRequired"))
                    .body("details.causes[0].field", equalTo(FIELD))
                    .body("details.causes[0].message", equalTo("name is required"));
        }
    }

    @ParameterizedTest(name = "metadata null: {0}")
    @ValueSource(booleans = {false, true})
    void grpcAnswersInvalidArgumentOnTheName(boolean asNull) throws Exception {
        DecideRequest request = GrpcRequestMapperTest.parse(withoutMetadata(asNull));
        DecisionServiceGrpc.DecisionServiceBlockingStub stub = DecisionServiceGrpc.newBlockingStub(channel);
        List<Function<DecideRequest, Object>> calls = List.of(
                r -> stub.withDeadlineAfter(30, TimeUnit.SECONDS).validate(r),
                r -> stub.withDeadlineAfter(30, TimeUnit.SECONDS).decide(r));
        for (Function<DecideRequest, Object> call : calls) {
            StatusRuntimeException e = catchThrowableOfType(StatusRuntimeException.class, () -> call.apply(request));
            assertThat(e).isNotNull();
            assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
            assertThat(Violations.of(e)).extracting(BadRequest.FieldViolation::getField,
                            BadRequest.FieldViolation::getReason)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple(FIELD, "FieldValueRequired"));
        }
    }
}
