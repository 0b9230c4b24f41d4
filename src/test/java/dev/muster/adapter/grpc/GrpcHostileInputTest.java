package dev.muster.adapter.grpc;

import com.google.protobuf.CodedOutputStream;
import dev.muster.grpc.v1.DecideRequest;
import dev.muster.grpc.v1.DecisionServiceGrpc;
import dev.muster.grpc.v1.Node;
import dev.muster.grpc.v1.Snapshot;
import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.Vertx;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Hostile input over gRPC, with the default limits (256 MiB messages, 4 MiB strings): each call gets a documented status
 * ({@code INVALID_ARGUMENT}, {@code RESOURCE_EXHAUSTED}, {@code DEADLINE_EXCEEDED} or {@code CANCELLED}), never
 * {@code INTERNAL} or {@code UNKNOWN}, and while it is being read and refused, a well-behaved client on another
 * connection keeps getting answers (each healthy call carries a 5 s deadline: a liveness check, not a timing).
 */
@QuarkusTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GrpcHostileInputTest {
    /** The documented default of quarkus.grpc.server.max-inbound-message-size (application.properties). */
    private static final int LIMIT = 256 * 1024 * 1024;
    private static final MethodDescriptor<byte[], byte[]> RAW_VALIDATE =
            RawGrpc.bytes(DecisionServiceGrpc.getValidateMethod());
    private static final MethodDescriptor<byte[], byte[]> RAW_DECIDE =
            RawGrpc.bytes(DecisionServiceGrpc.getDecideMethod());

    @Inject
    Vertx vertx;

    private ManagedChannel hostile;
    private ManagedChannel healthy;
    private DecideRequest trainingJob;
    private final ExecutorService pool = Executors.newCachedThreadPool();

    @BeforeAll
    void connect() throws Exception {
        hostile = GrpcChannels.open();
        healthy = GrpcChannels.open();
        trainingJob = GrpcRequestMapperTest.parse(Files.readString(Path.of("openapi/examples/training-job.json")));
    }

    @AfterAll
    void disconnect() throws InterruptedException {
        pool.shutdownNow();
        GrpcChannels.close(hostile);
        GrpcChannels.close(healthy);
    }

    @Test
    void groupsNestedAHundredThousandDeepAreInvalidArgument() throws Exception {
        byte[] groups = nestedGroups(100_000);
        for (byte[] message : List.of(groups, lengthDelimited(1, groups))) { // at the top, and inside the snapshot
            for (MethodDescriptor<byte[], byte[]> method : List.of(RAW_VALIDATE, RAW_DECIDE)) {
                Status status = whileHealthyCallsGoOn(() -> unary(method, message, 60));
                assertThat(status.getCode()).as(method.getFullMethodName() + ": " + status)
                        .isEqualTo(Status.Code.INVALID_ARGUMENT);
                assertThat(status.getDescription()).contains("muster.v1.DecideRequest");
            }
        }
    }

    @Test
    void aMillionEmptyNodesAreInvalidArgumentNamingTheList() throws Exception {
        Snapshot.Builder snapshot = Snapshot.newBuilder();
        for (int i = 0; i < 1_000_000; i++) {
            snapshot.addNodes(Node.getDefaultInstance());
        }
        byte[] message = DecideRequest.newBuilder().setSnapshot(snapshot).build().toByteArray();
        for (MethodDescriptor<byte[], byte[]> method : List.of(RAW_VALIDATE, RAW_DECIDE)) {
            StatusRuntimeException[] error = new StatusRuntimeException[1];
            Status status = whileHealthyCallsGoOn(() -> {
                error[0] = failure(method, message, 120);
                return error[0] == null ? Status.OK : error[0].getStatus();
            });
            assertThat(status.getCode()).as(status.toString()).isEqualTo(Status.Code.INVALID_ARGUMENT);
            assertThat(Violations.of(error[0])).anySatisfy(v -> {
                assertThat(v.getField()).isEqualTo("snapshot.nodes");
                assertThat(v.getReason()).isEqualTo("FieldValueTooMany");
            });
        }
    }

    @Test
    void aFiftyMegabyteLabelValueIsInvalidArgumentNamingTheLabel() throws Exception {
        String value = "v".repeat(50 * 1024 * 1024);
        DecideRequest.Builder request = trainingJob.toBuilder();
        Node first = request.getSnapshot().getNodes(0);
        request.getSnapshotBuilder().setNodes(0, first.toBuilder().setMetadata(
                first.getMetadata().toBuilder().putLabels("example.com/huge", value)));
        byte[] message = request.build().toByteArray();
        assertThat(message.length).isBetween(50 * 1024 * 1024, LIMIT);
        for (MethodDescriptor<byte[], byte[]> method : List.of(RAW_VALIDATE, RAW_DECIDE)) {
            StatusRuntimeException[] error = new StatusRuntimeException[1];
            Status status = whileHealthyCallsGoOn(() -> {
                error[0] = failure(method, message, 120);
                return error[0] == null ? Status.OK : error[0].getStatus();
            });
            assertThat(status.getCode()).as(status.toString()).isEqualTo(Status.Code.INVALID_ARGUMENT);
            assertThat(status.getDescription()).hasSizeLessThan(64 * 1024); // the value is not echoed back
            assertThat(Violations.fields(error[0]))
                    .contains("snapshot.nodes[0].metadata.labels[example.com/huge]");
        }
    }

    @Test
    void truncatedBytesOfARealRequestAreInvalidArgument() throws Exception {
        byte[] whole = trainingJob.toByteArray();
        for (int cut : new int[]{1, whole.length / 3, whole.length / 2, whole.length - 1}) {
            byte[] part = Arrays.copyOf(whole, cut);
            Status status = whileHealthyCallsGoOn(() -> unary(RAW_DECIDE, part, 60));
            assertThat(status.getCode()).as("cut at " + cut + ": " + status).isEqualTo(Status.Code.INVALID_ARGUMENT);
        }
    }

    /** A client that opens the call and never sends its message: its own deadline ends it, the server stays free. */
    @Test
    void aSenderThatNeverSendsIsEndedByItsDeadline() throws Exception {
        Status status = whileHealthyCallsGoOn(() -> {
            CompletableFuture<Status> closed = new CompletableFuture<>();
            ClientCall<byte[], byte[]> call = hostile.newCall(RAW_DECIDE,
                    CallOptions.DEFAULT.withDeadlineAfter(2, TimeUnit.SECONDS));
            call.start(new ClientCall.Listener<>() {
                @Override
                public void onClose(Status s, Metadata trailers) {
                    closed.complete(s);
                }
            }, new Metadata());
            call.request(1); // no message, no half-close
            return closed.get(30, TimeUnit.SECONDS);
        });
        assertThat(status.getCode()).as(status.toString()).isEqualTo(Status.Code.DEADLINE_EXCEEDED);
    }

    /**
     * Raw HTTP/2: the message prefix announces 1,000 bytes, ten arrive, and the stream stays open. The server ends
     * the call itself when the deadline the client sent in {@code grpc-timeout} has passed, whatever the client does.
     */
    @Test
    void aMessageThatStopsHalfWayIsEndedByTheServerAtTheDeadline() throws Exception {
        byte[] frame = RawGrpc.tenBytesOf(1000);
        String outcome = whileHealthyCallsGoOnRaw(() -> rawHttp2(frame, "2S"));
        assertThat(outcome).isIn("grpc-status " + Status.Code.DEADLINE_EXCEEDED.value(),
                "grpc-status " + Status.Code.CANCELLED.value(), "reset");
    }

    /**
     * Raw HTTP/2: a prefix announcing one byte more than the limit, then ten bytes and nothing more: refused on the
     * prefix, without waiting for (or holding) the bytes, and without a deadline. A whole message over the limit is
     * {@link GrpcLimitsTest}'s (with a small limit: 256 MiB of bytes is too much memory for a shared test JVM).
     */
    @Test
    void aPrefixAnnouncingMoreThanTheLimitIsResourceExhaustedWithoutWaitingForTheBytes() throws Exception {
        byte[] frame = RawGrpc.tenBytesOf(LIMIT + 1);
        String outcome = whileHealthyCallsGoOnRaw(() -> rawHttp2(frame, null));
        assertThat(outcome).isEqualTo("grpc-status " + Status.Code.RESOURCE_EXHAUSTED.value());
    }

    // ---------------------------------------------------------------- helpers

    private interface Hostile<T> {
        T call() throws Exception;
    }

    /**
     * Runs the hostile call on another thread and, until it ends, healthy Validate calls on the other connection
     * (each must answer, valid, within its 5 s deadline); then returns the hostile call's status, which must not be
     * INTERNAL or UNKNOWN. The hostile call itself must end within two minutes.
     */
    private Status whileHealthyCallsGoOn(Hostile<Status> call) throws Exception {
        Status status = whileHealthy(call);
        assertThat(status.getCode()).as(status.toString())
                .isNotIn(Status.Code.INTERNAL, Status.Code.UNKNOWN, Status.Code.OK);
        return status;
    }

    private String whileHealthyCallsGoOnRaw(Hostile<String> call) throws Exception {
        return whileHealthy(call);
    }

    private <T> T whileHealthy(Hostile<T> call) throws Exception {
        Future<T> result = pool.submit(call::call);
        DecisionServiceGrpc.DecisionServiceBlockingStub stub = DecisionServiceGrpc.newBlockingStub(healthy);
        int healthyCalls = 0;
        long until = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        do {
            assertThat(stub.withDeadlineAfter(5, TimeUnit.SECONDS).validate(trainingJob).getValid())
                    .as("a healthy call while the hostile one runs").isTrue();
            healthyCalls++;
            try {
                return result.get(200, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                // still running: another healthy call
            }
        } while (System.nanoTime() < until || healthyCalls == 0);
        result.cancel(true);
        throw new AssertionError("the hostile call did not end within two minutes");
    }

    private Status unary(MethodDescriptor<byte[], byte[]> method, byte[] message, int deadlineSeconds) {
        StatusRuntimeException e = failure(method, message, deadlineSeconds);
        return e == null ? Status.OK : e.getStatus();
    }

    /** The error a unary call ends with (its trailers carry the violations), or null when it succeeds. */
    private StatusRuntimeException failure(MethodDescriptor<byte[], byte[]> method, byte[] message,
                                           int deadlineSeconds) {
        try {
            ClientCalls.blockingUnaryCall(hostile, method,
                    CallOptions.DEFAULT.withDeadlineAfter(deadlineSeconds, TimeUnit.SECONDS), message);
            return null;
        } catch (StatusRuntimeException e) {
            return e;
        }
    }

    /** {@code depth} start-group tags of unknown field 1000, then as many end-group tags. */
    static byte[] nestedGroups(int depth) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(depth * 4 + 16);
        CodedOutputStream out = CodedOutputStream.newInstance(bytes);
        for (int i = 0; i < depth; i++) {
            out.writeTag(1000, 3);
        }
        for (int i = 0; i < depth; i++) {
            out.writeTag(1000, 4);
        }
        out.flush();
        return bytes.toByteArray();
    }

    private static byte[] lengthDelimited(int field, byte[] payload) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(payload.length + 16);
        CodedOutputStream out = CodedOutputStream.newInstance(bytes);
        out.writeByteArray(field, payload);
        out.flush();
        return bytes.toByteArray();
    }

    private String rawHttp2(byte[] bytes, String grpcTimeout) throws Exception {
        return RawGrpc.stalled(vertx, bytes, grpcTimeout).summary();
    }
}
