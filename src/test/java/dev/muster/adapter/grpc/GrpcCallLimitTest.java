package dev.muster.adapter.grpc;

import dev.muster.grpc.v1.DecideRequest;
import dev.muster.grpc.v1.DecisionServiceGrpc;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.vertx.core.Vertx;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The server's limit on a call ({@code muster.grpc.max-call-duration}, 3 s here): a call's deadline is the earlier of
 * the client's and the server's. Stalled senders are raw HTTP/2 streams without a client library, so the status that
 * ends them can only come from the server, and its message says which deadline passed. (How a decision that runs
 * past the limit is worded: {@link GrpcDeadlineInterceptorTest}.)
 */
@QuarkusTest
@TestProfile(GrpcCallLimitTest.ShortCallLimit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GrpcCallLimitTest {
    private static final String LIMIT_NAME = "muster.grpc.max-call-duration";
    private static final String DEADLINE_EXCEEDED = "grpc-status " + Status.Code.DEADLINE_EXCEEDED.value();

    public static class ShortCallLimit implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(LIMIT_NAME, "3s");
        }
    }

    @Inject
    Vertx vertx;

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
    void aStalledSenderWithoutADeadlineIsEndedAtTheServerLimit() throws Exception {
        RawGrpc.Outcome outcome = RawGrpc.stalled(vertx, RawGrpc.tenBytesOf(1000), null);
        assertThat(outcome.summary()).isEqualTo(DEADLINE_EXCEEDED);
        assertThat(outcome.message()).contains("the server's limit of 3s per call (" + LIMIT_NAME + ")")
                .contains("before the request message arrived whole");
    }

    @Test
    void aSenderThatNeverSendsAByteIsEndedAtTheServerLimit() throws Exception {
        RawGrpc.Outcome outcome = RawGrpc.stalled(vertx, new byte[0], null);
        assertThat(outcome.summary()).isEqualTo(DEADLINE_EXCEEDED);
        assertThat(outcome.message()).contains(LIMIT_NAME);
    }

    @Test
    void aClientDeadlineShorterThanTheLimitWins() throws Exception {
        RawGrpc.Outcome outcome = RawGrpc.stalled(vertx, RawGrpc.tenBytesOf(1000), "500m");
        assertThat(outcome.summary()).isEqualTo(DEADLINE_EXCEEDED);
        assertThat(outcome.message()).startsWith("deadline passed before the request message arrived whole")
                .doesNotContain(LIMIT_NAME);
    }

    @Test
    void aClientDeadlineLongerThanTheLimitIsCappedAtIt() throws Exception {
        // ten minutes asked for; RawGrpc gives up after 30 s, so an answer at all means the limit applied
        RawGrpc.Outcome outcome = RawGrpc.stalled(vertx, RawGrpc.tenBytesOf(1000), "10M");
        assertThat(outcome.summary()).isEqualTo(DEADLINE_EXCEEDED);
        assertThat(outcome.message()).contains(LIMIT_NAME);
    }

    @Test
    void aShortCallWithoutADeadlineIsAnswered() throws Exception {
        DecideRequest request = GrpcRequestMapperTest.parse(
                Files.readString(Path.of("openapi/examples/training-job.json")));
        assertThat(DecisionServiceGrpc.newBlockingStub(channel).validate(request).getValid()).isTrue();
    }
}
