package dev.muster.adapter.grpc;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.muster.adapter.FuzzRequests;
import dev.muster.grpc.v1.DecideRequest;

/**
 * Fuzz test of the gRPC request mapping: any bytes that parse as a {@code DecideRequest} map to a document
 * ({@link GrpcRequestMapper}) that validates and, when valid, compiles, or the mapping refuses them as
 * {@code INVALID_ARGUMENT} with a BadRequest detail (a message gRPC can carry but a REST body cannot, such as both
 * forms of a oneOf set); nothing else ever escapes (bytes that do not parse are gRPC's own error before Muster sees
 * them). Seeds: src/test/resources/dev/muster/adapter/grpc/GrpcRequestFuzzTestInputs/.
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
        dev.muster.adapter.kube.RequestDocument document;
        try {
            document = GrpcRequestMapper.toDocument(request);
        } catch (io.grpc.StatusRuntimeException refused) {
            if (refused.getStatus().getCode() != io.grpc.Status.Code.INVALID_ARGUMENT
                    || !io.grpc.protobuf.StatusProto.fromThrowable(refused).getDetailsList().stream()
                    .anyMatch(d -> d.is(com.google.rpc.BadRequest.class))) {
                throw refused;
            }
            return;
        }
        FuzzRequests.validateAndCompile(document);
    }
}
