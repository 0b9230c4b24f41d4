package dev.muster.adapter.grpc;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.muster.adapter.FuzzRequests;
import dev.muster.grpc.v1.DecideRequest;

/**
 * Fuzz test of the gRPC request mapping: any bytes that parse as a {@code DecideRequest} map to a document
 * ({@link GrpcRequestMapper}) that validates and, when valid, compiles, never throwing (bytes that do not parse are
 * gRPC's own error before Muster sees them). Seeds: src/test/resources/dev/muster/adapter/grpc/GrpcRequestFuzzTestInputs/.
 */
class GrpcRequestFuzzTest {

    @FuzzTest
    void decideRequest(byte[] message) {
        DecideRequest request;
        try {
            request = DecideRequest.parseFrom(message);
        } catch (InvalidProtocolBufferException notAMessage) {
            return;
        }
        FuzzRequests.validateAndCompile(GrpcRequestMapper.toDocument(request));
    }
}
