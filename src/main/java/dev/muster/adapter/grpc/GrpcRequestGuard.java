package dev.muster.adapter.grpc;

import io.grpc.ForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Answers {@code INVALID_ARGUMENT} when a unary call half-closes without a request message it could use: the bytes
 * sent were not a valid protobuf encoding of the request type, or no message was sent at all.
 *
 * <p>The Vert.x gRPC bridge that serves gRPC on the HTTP port drops a message its request marshaller cannot parse and
 * then delivers the half-close; grpc-java's unary handler answers that with {@code INTERNAL} ("Half-closed without a
 * request"), which blames the server for a client's bytes. This listener sees the half-close first: without a message
 * before it, it closes the call with {@code INVALID_ARGUMENT} and a message naming the expected type, and the service
 * method never runs.
 */
@ApplicationScoped
public class GrpcRequestGuard implements ServerInterceptor {
    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
                                                       ServerCallHandler<Q, R> next) {
        if (!call.getMethodDescriptor().getType().clientSendsOneMessage()) {
            return next.startCall(call, headers);
        }
        return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(next.startCall(call, headers)) {
            private volatile boolean received;

            @Override
            public void onMessage(Q message) {
                received = true;
                super.onMessage(message);
            }

            @Override
            public void onHalfClose() {
                if (received) {
                    super.onHalfClose();
                    return;
                }
                call.close(Status.INVALID_ARGUMENT.withDescription(missing(call.getMethodDescriptor())), new Metadata());
            }
        };
    }

    /** The status message: what the call should have carried. */
    static String missing(io.grpc.MethodDescriptor<?, ?> method) {
        Object schema = method.getSchemaDescriptor();
        String type = "the request message";
        if (schema instanceof io.grpc.protobuf.ProtoMethodDescriptorSupplier s) {
            type = s.getMethodDescriptor().getInputType().getFullName();
        }
        return "the request is not a valid " + type + " in protobuf binary encoding (malformed or truncated bytes), "
                + "or the call carried no request message";
    }
}
