package dev.muster.adapter.rest;

import dev.muster.adapter.kube.Arrival;
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
 * to the resource as a {@link Body} stream at once: {@link BodyReader} returns the array without copying once it is
 * whole, and the JSON decoder starts on it while the rest is still arriving ({@link Arrival}).
 *
 * <p>Why: Quarkus REST streams a body over {@code quarkus.rest.input-buffer-size} to a worker thread through a
 * blocking InputStream, one Vert.x buffer (of a few KB) at a time with a hand-off per buffer, several times slower
 * than the same bytes crossing the loopback on the largest benchmark request (figures in bench/README.md). Buffering
 * it all in Quarkus REST instead (a larger input buffer) was as fast but kept a list of buffers and two more copies. Here each buffer is copied once into the array and the decoding still happens on a worker
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

    /**
     * A body read here: a stream for JAX-RS, its array for {@link BodyReader} (once whole), and an {@link Arrival} for
     * the JSON decoder, which starts while the rest is still arriving. Filled by the event loop; waited on only by a
     * worker ({@link RequestDispatcher} never answers a body this large on the event loop).
     */
    static final class Body extends ByteArrayInputStream implements Arrival {
        private volatile int filled;
        private volatile boolean ended;
        private volatile StatusException failure;
        /** The count a waiting worker needs: the event loop wakes it only then. */
        private volatile int wanted = Integer.MAX_VALUE;

        Body(byte[] bytes) {
            super(bytes);
        }

        /** The array, whole (waits for the rest). */
        byte[] bytes() {
            await(buf.length);
            return buf;
        }

        /** The array as it is: only {@link #await}'s count of it is final. */
        byte[] arriving() {
            return buf;
        }

        @Override
        public int await(int atLeast) {
            int need = Math.min(atLeast, buf.length);
            if (filled >= need) {
                return filled;
            }
            synchronized (this) {
                while (filled < need && !ended && failure == null) {
                    wanted = need;
                    try {
                        wait();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw badRequest("interrupted while the request body arrived");
                    }
                }
                wanted = Integer.MAX_VALUE;
            }
            if (failure != null) {
                throw failure;
            }
            return filled;
        }

        /** Event loop: {@code n} more bytes are in the array. */
        void arrived(int n) {
            int now = filled + n;
            filled = now;
            if (now >= wanted) {
                synchronized (this) {
                    notifyAll();
                }
            }
        }

        /** Event loop: the body is over ({@code null}: whole) or broken. */
        synchronized void end(StatusException broken) {
            if (broken != null) {
                failure = broken;
            } else if (filled != buf.length) {
                failure = badRequest("the request body ended after " + filled + " of the " + buf.length
                        + " bytes its Content-Length declared");
            }
            ended = true;
            notifyAll();
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
        Body body = new Body(new byte[length]);
        boolean[] over = {false};
        request.handler(buffer -> {
            if (over[0]) {
                return;
            }
            int at = body.filled;
            int n = buffer.length();
            if (n > length - at) {
                over[0] = true;
                body.end(badRequest("the request body is longer than its Content-Length of " + length + " bytes"));
                return;
            }
            buffer.getBytes(0, n, body.arriving(), at);
            body.arrived(n);
        });
        request.exceptionHandler(e -> {
            if (!over[0]) {
                over[0] = true;
                body.end(badRequest("the request body could not be read: " + e.getMessage()));
            }
        });
        request.endHandler(v -> {
            if (!over[0]) {
                over[0] = true;
                body.end(null);
            }
        });
        if ("100-continue".equalsIgnoreCase(request.getHeader(HttpHeaders.EXPECT))) {
            request.response().writeContinue();
        }
        request.resume();
        // the resource starts now: the decoder reads what has arrived and waits for the rest as it goes
        ctx.setEntityStream(body);
        return Uni.createFrom().voidItem();
    }

    private static StatusException badRequest(String message) {
        return new StatusException(KubeStatus.failure(400, "BadRequest", message, null));
    }
}
