package dev.muster.adapter.grpc;

import dev.muster.grpc.v1.DecideRequest;
import dev.muster.grpc.v1.DecisionServiceGrpc;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** The message size limit and deadlines over the wire, with {@link TightLimitsProfile}'s small limits and slow engine. */
@QuarkusTest
@TestProfile(TightLimitsProfile.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GrpcLimitsTest {
    @Inject
    MeterRegistry meters;

    private ManagedChannel channel;
    private DecisionServiceGrpc.DecisionServiceBlockingStub stub;

    @BeforeAll
    void connect() {
        channel = GrpcChannels.open();
        stub = DecisionServiceGrpc.newBlockingStub(channel);
    }

    @AfterAll
    void disconnect() throws InterruptedException {
        GrpcChannels.close(channel);
    }

    @Test
    void aMessageOverTheLimitIsResourceExhausted() throws Exception {
        DecideRequest big = GrpcRequestMapperTest.parse(RandomSnapshots.large(1, 400, 0));
        assertThat(big.getSerializedSize()).isGreaterThan(TightLimitsProfile.GRPC_LIMIT);
        StatusRuntimeException e = catchThrowableOfType(StatusRuntimeException.class,
                () -> stub.withDeadlineAfter(60, TimeUnit.SECONDS).validate(big));
        assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
        // the server is fine afterwards
        DecideRequest small = GrpcRequestMapperTest.parse(Files.readString(Path.of("openapi/examples/training-job.json")));
        assertThat(stub.withDeadlineAfter(60, TimeUnit.SECONDS).validate(small).getValid()).isTrue();
    }

    /** The gRPC limit is its own: REST's body limit (8 KiB here) does not cut gRPC messages short. */
    @Test
    void theRestBodyLimitDoesNotApplyToGrpc() throws Exception {
        String json = RandomSnapshots.large(2, 60, 0);
        DecideRequest req = GrpcRequestMapperTest.parse(json);
        assertThat(req.getSerializedSize()).isBetween(16 * 1024, TightLimitsProfile.GRPC_LIMIT);
        assertThat(stub.withDeadlineAfter(60, TimeUnit.SECONDS).validate(req).getValid()).isTrue();
        given().contentType("application/json").body(RandomSnapshots.bytes(json)).post("/v1/validations")
                .then().statusCode(413);
    }

    /** A deadline that passes while the server decides: the client sees DEADLINE_EXCEEDED and the server gives up. */
    @Test
    void aDeadlinePassingDuringTheDecisionIsAbandonedByTheServer() throws Exception {
        double before = abandoned();
        DecideRequest req = GrpcRequestMapperTest.parse(Files.readString(Path.of("openapi/examples/training-job.json")));
        StatusRuntimeException e = catchThrowableOfType(StatusRuntimeException.class,
                // two thirds of one member's PreFilter: passes while the server decides, yet leaves the small request
                // a second to arrive (a deadline passing before it has arrived is answered without a decision)
                () -> stub.withDeadlineAfter(TightLimitsProfile.SLOW_MILLIS * 2 / 3, TimeUnit.MILLISECONDS).decide(req));
        assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.DEADLINE_EXCEEDED);
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (abandoned() <= before && System.nanoTime() < until) {
            Thread.sleep(100);
        }
        assertThat(abandoned()).as("server-side count of calls abandoned on their deadline").isEqualTo(before + 1);
    }

    private double abandoned() {
        var c = meters.find(DecisionGrpcService.ABANDONED).tag("reason", "deadline").counter();
        return c == null ? 0 : c.count();
    }
}
