package dev.muster.adapter.rest;

import dev.muster.adapter.rest.error.KubeStatus;
import dev.muster.adapter.rest.error.StatusException;
import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import jakarta.ws.rs.NameBinding;
import jakarta.ws.rs.container.ContainerRequestContext;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

import java.io.ByteArrayInputStream;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Reads a large request body on the event loop straight into one array of its declared Content-Length, and hands it
 * to the resource as a {@link Body} stream, which {@link BodyReader} returns without copying.
 *
 * <p>Why: Quarkus REST streams a body over {@code quarkus.rest.input-buffer-size} to a worker thread through a
 * blocking InputStream, one Vert.x buffer (of a few KB) at a time with a hand-off per buffer: on the 106 MB
 * {@code large} request ≈ 250 ms, where the same bytes cross the loopback in ≈ 50 ms (bench/README.md). Buffering it
 * all in Quarkus REST instead (a larger input buffer) was as fast but kept a list of buffers and two more copies (peak
 * RSS 2.2 GB). Here each buffer is copied once into the array and the decoding still happens on a worker
 * ({@link RequestDispatcher}). A filter, so Quarkus REST's own input handling, which leaves a request alone once its
 * entity stream is set, never touches the request; only bodies with a Content-Length over the input buffer (smaller
 * ones Quarkus REST buffers itself, chunked ones stream as before).
 */
public class LargeBodies {
    /** Binds the filter to the resource methods that read whole request documents. */
    @NameBinding
    @Target({ElementType.TYPE, ElementType.METHOD})
    @Retention(RetentionPolicy.RUNTIME)
    public @interface WholeBody {
    }

    /** A body read here: a stream for JAX-RS, and its array for {@link BodyReader}. */
    static final class Body extends ByteArrayInputStream {
        Body(byte[] bytes) {
            super(bytes);
        }

        byte[] bytes() {
            return buf;
        }
    }

    private final long threshold;

    LargeBodies(@ConfigProperty(name = "quarkus.rest.input-buffer-size", defaultValue = "10k") MemorySize inputBuffer) {
        this.threshold = inputBuffer.asLongValue();
    }

    @WholeBody
    @ServerRequestFilter
    Uni<Void> read(ContainerRequestContext ctx, HttpServerRequest request) {
        long declared = ctx.getLength();
        if (declared <= threshold) {
            return Uni.createFrom().voidItem(); // Quarkus REST buffers it, or it is chunked
        }
        // over muster.limits.max-body-size never gets here: HttpEdgeRoutes answers 413 first
        int length = (int) declared;
        return Uni.createFrom().emitter(done -> {
            byte[] body = new byte[length];
            int[] filled = {0};
            request.handler(buffer -> {
                int at = filled[0];
                int n = buffer.length();
                if (at < 0) {
                    return;
                }
                if (n > length - at) {
                    filled[0] = -1;
                    done.fail(badRequest("the request body is longer than its Content-Length of " + length + " bytes"));
                    return;
                }
                buffer.getBytes(0, n, body, at);
                filled[0] = at + n;
            });
            request.exceptionHandler(e -> {
                if (filled[0] >= 0) {
                    filled[0] = -1;
                    done.fail(badRequest("the request body could not be read: " + e.getMessage()));
                }
            });
            request.endHandler(v -> {
                int at = filled[0];
                if (at < 0) {
                    return;
                }
                if (at != length) {
                    done.fail(badRequest("the request body ended after " + at + " of the " + length
                            + " bytes its Content-Length declared"));
                    return;
                }
                ctx.setEntityStream(new Body(body));
                done.complete(null);
            });
            if ("100-continue".equalsIgnoreCase(request.getHeader(HttpHeaders.EXPECT))) {
                request.response().writeContinue();
            }
            request.resume();
        });
    }

    private static StatusException badRequest(String message) {
        return new StatusException(KubeStatus.failure(400, "BadRequest", message, null));
    }
}
