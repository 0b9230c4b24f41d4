package dev.muster.adapter.grpc;

import dev.muster.grpc.v1.DecisionServiceGrpc;
import io.grpc.MethodDescriptor;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.http.StreamResetException;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A Validate call over plain HTTP/2 (prior knowledge), without a gRPC client: it sends exactly the given bytes as the
 * body and never ends its stream, and it has no deadline of its own, so whatever ends the call is the server's doing.
 */
final class RawGrpc {
    /** {@code summary}: "grpc-status N" from the answer's headers or trailers, "reset", or "error ...". */
    record Outcome(String summary, String message) {
        /** grpc-message is percent-encoded on the wire. */
        Outcome {
            message = message == null ? null
                    : java.net.URLDecoder.decode(message.replace("+", "%2B"), java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    private RawGrpc() {
    }

    /** Sends whatever bytes it is given as the message, as they are, and reads the answer's bytes. */
    private static final MethodDescriptor.Marshaller<byte[]> BYTES = new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(byte[] value) {
            return new ByteArrayInputStream(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
            try {
                return stream.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    };

    /** The method with raw bytes for its request and answer, for a gRPC client that sends any bytes. */
    static MethodDescriptor<byte[], byte[]> bytes(MethodDescriptor<?, ?> method) {
        return method.toBuilder(BYTES, BYTES).build();
    }

    /** Sends {@code bytes} ({@code grpcTimeout}: the header's value, or null for none); fails after 30 s. */
    static Outcome stalled(Vertx vertx, byte[] bytes, String grpcTimeout) throws Exception {
        HttpClient client = vertx.createHttpClient(new HttpClientOptions().setProtocolVersion(HttpVersion.HTTP_2)
                .setHttp2ClearTextUpgrade(false));
        CompletableFuture<Outcome> outcome = new CompletableFuture<>();
        try {
            client.request(new RequestOptions().setMethod(HttpMethod.POST).setHost("localhost")
                    .setPort(GrpcChannels.port()).setURI("/" + DecisionServiceGrpc.getValidateMethod().getFullMethodName()))
                    .onFailure(outcome::completeExceptionally)
                    .onSuccess(req -> {
                        req.putHeader("content-type", "application/grpc").putHeader("te", "trailers");
                        if (grpcTimeout != null) {
                            req.putHeader("grpc-timeout", grpcTimeout);
                        }
                        req.exceptionHandler(e -> outcome.complete(failed(e)));
                        req.response().onFailure(e -> outcome.complete(failed(e))).onSuccess(resp -> {
                            String early = resp.getHeader("grpc-status");
                            if (early != null) {
                                outcome.complete(new Outcome("grpc-status " + early, resp.getHeader("grpc-message")));
                                return;
                            }
                            resp.exceptionHandler(e -> outcome.complete(failed(e)));
                            resp.endHandler(v -> outcome.complete(new Outcome(
                                    "grpc-status " + resp.getTrailer("grpc-status"), resp.getTrailer("grpc-message"))));
                        });
                        req.setChunked(true);
                        req.write(Buffer.buffer(bytes));
                    });
            return outcome.get(30, TimeUnit.SECONDS);
        } finally {
            client.close();
        }
    }

    /** The gRPC frame prefix of a message announcing {@code length} bytes, then ten of them. */
    static byte[] tenBytesOf(int length) {
        byte[] frame = new byte[5 + 10];
        frame[1] = (byte) (length >>> 24);
        frame[2] = (byte) (length >>> 16);
        frame[3] = (byte) (length >>> 8);
        frame[4] = (byte) length;
        return frame;
    }

    private static Outcome failed(Throwable e) {
        return new Outcome(e instanceof StreamResetException ? "reset" : "error " + e, null);
    }
}
