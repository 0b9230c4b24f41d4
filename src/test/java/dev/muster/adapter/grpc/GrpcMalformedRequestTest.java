package dev.muster.adapter.grpc;

import dev.muster.grpc.v1.DecisionServiceGrpc;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.HexFormat;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Bytes that are not a protobuf encoding of the request, sent as the message of a real call: the client's mistake,
 * so {@code INVALID_ARGUMENT} with a message naming the expected type, never {@code INTERNAL}.
 */
@QuarkusTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GrpcMalformedRequestTest {

    private ManagedChannel channel;

    @BeforeAll
    void connect() {
        channel = GrpcChannels.open();
    }

    @AfterAll
    void disconnect() throws InterruptedException {
        GrpcChannels.close(channel);
    }

    private static MethodDescriptor<byte[], byte[]> raw(MethodDescriptor<?, ?> method) {
        return RawGrpc.bytes(method);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
            "ffffffffffffffffffff",        // a varint longer than ten bytes
            "0a0501",                      // field 1 (snapshot) says five bytes, one follows
            "0f",                          // wire type 7 does not exist
            "7b22736e617073686f74223a7b7d7d"}) // {"snapshot":{}}: JSON is not the binary encoding
    void garbageBytesAreInvalidArgument(String hex) {
        byte[] garbage = HexFormat.of().parseHex(hex);
        for (MethodDescriptor<?, ?> method : new MethodDescriptor<?, ?>[]{
                DecisionServiceGrpc.getDecideMethod(), DecisionServiceGrpc.getValidateMethod()}) {
            StatusRuntimeException e = catchThrowableOfType(StatusRuntimeException.class, () ->
                    ClientCalls.blockingUnaryCall(channel, raw(method),
                            CallOptions.DEFAULT.withDeadlineAfter(30, TimeUnit.SECONDS), garbage));
            assertThat(e).as(method.getFullMethodName()).isNotNull();
            assertThat(e.getStatus().getCode()).as(method.getFullMethodName() + ": " + e.getStatus())
                    .isEqualTo(Status.Code.INVALID_ARGUMENT);
            assertThat(e.getStatus().getDescription()).contains("muster.v1.DecideRequest");
        }
    }
}
