package dev.muster.adapter.rest;

import dev.muster.adapter.kube.Arrival;
import dev.muster.adapter.rest.error.KubeStatus;
import dev.muster.adapter.rest.error.StatusException;
import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import jakarta.ws.rs.NameBinding;
import jakarta.ws.rs.container.ContainerRequestContext;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

import java.io.ByteArrayInputStream;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Reads a large request body on the event loop straight into one array of its declared Content-Length, and hands it
 * to the resource as a {@link Body} stream at once: {@link BodyReader} returns the array without copying once it is
 * whole, and the JSON decoder starts on it while the rest is still arriving ({@link Arrival}).
 *
 * <p>Why: Quarkus REST streams a body over {@code quarkus.rest.input-buffer-size} to a worker thread through a
 * blocking InputStream, one Vert.x buffer (of a few KB) at a time with a hand-off per buffer, several times slower
 * than the same bytes crossing the loopback on a large request. Buffering it all in Quarkus REST instead (a larger
 * input buffer) is as fast but keeps a list of buffers and two more copies.
 * Here the bytes land in the array once, and the decoding still happens on a worker ({@link RequestDispatcher}):
 * normally {@link BodyCapture} has already put each chunk in place as it came off the socket, so the array is the only
 * heap copy of the body; otherwise each chunk Vert.x hands on is copied into it. A filter, so Quarkus REST's own
 * input handling, which leaves a request alone once its entity stream is set, never touches the request; only bodies
 * with a Content-Length over the input buffer (chunked ones Quarkus REST streams to the worker).
 *
 * <p>A body small enough to be answered on the event loop ({@code muster.http.inline-max-body-size}) with a
 * Content-Length takes the same way into one array, but the resource runs only once it is whole (see {@link #read}).
 * Bodies in between are Quarkus REST's to buffer.
 */
public class LargeBodies {
    /** Binds the filter to the resource methods that read whole request documents. */
    @NameBinding
    @Target({ElementType.TYPE, ElementType.METHOD})
    @Retention(RetentionPolicy.RUNTIME)
    public @interface WholeBody {
    }

    /**
     * The paths of the resource methods bound to this filter ({@link WholeBody}): {@link HttpEdgeRoutes} arms
     * {@link BodyCapture} for large POSTs to these, before the body is read.
     */
    static final Set<String> PATHS = Set.of("/v1/decisions", "/v1/validations", "/v1/cluster-choices");
    /** The routing context's key of the array {@link BodyCapture} fills for the request. */
    static final String CAPTURED = "muster.body.captured";
    /** Bodies that landed in {@link BodyCapture}'s array without a copy here (tests check that the capture is in place). */
    static final AtomicLong ADOPTED = new AtomicLong();
    /** Small bodies read whole here before their resource ran (tests check which path a body took). */
    static final AtomicLong READ_WHOLE = new AtomicLong();

    /**
     * A body read here: a stream for JAX-RS, its array for {@link BodyReader} (once whole), and an {@link Arrival} for
     * the JSON decoder, which starts while the rest is still arriving. Filled by the event loop; waited on only by a
     * worker ({@link RequestDispatcher} never answers a body this large on the event loop).
     *
     * <p>The array is chosen when the first chunk is delivered: the one {@link BodyCapture} is filling when that chunk
     * is its view at index 0 (the bytes are then in place already and no chunk is copied), else a new one into which
     * every chunk is copied.
     */
    static final class Body extends ByteArrayInputStream implements Arrival {
        private static final byte[] NONE = new byte[0];
        private final int length;
        private byte[] captured;
        /** Set once the bytes are let go ({@link #release}): no chunk is placed after it. */
        private volatile boolean released;
        private volatile int filled;
        private volatile boolean ended;
        private volatile StatusException failure;
        /** The count a waiting worker needs: the event loop wakes it only then. */
        private volatile int wanted = Integer.MAX_VALUE;

        /** {@code captured}: the array {@link BodyCapture} fills for this request, or null. */
        Body(int length, byte[] captured) {
            super(NONE);
            this.length = length;
            this.captured = captured;
        }

        /** The array, whole (waits for the rest). */
        byte[] bytes() {
            await(length);
            return buf;
        }

        /**
         * The array as it is (waits for the first chunk, which decides the array): only {@link #await}'s count of it
         * is final.
         */
        byte[] arriving() {
            await(1);
            return buf;
        }

        /** True once the body is whole, or broken (then reading it throws why). */
        boolean ended() {
            return ended;
        }

        /** True when the body landed in {@link BodyCapture}'s array (no chunk copied here). */
        boolean adopted() {
            return buf == captured && captured != null;
        }

        @Override
        public int await(int atLeast) {
            int need = Math.min(atLeast, length);
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

        /**
         * The request is decoded: the array goes (a request on a 100 MB body would otherwise carry it through every
         * young collection until the answer is written). Called on the worker once the whole body was read.
         */
        @Override
        public void release() {
            released = true;
            buf = NONE;
            captured = null;
            count = 0;
        }

        /** Whether the body still refers to {@code array} (its bytes, or the captured array). */
        boolean holds(byte[] array) {
            return buf == array || captured == array;
        }

        /** Event loop: the next {@code chunk} of the body, which fits in what is left of it. */
        void take(Buffer chunk) {
            if (chunk.length() == 0 || released) {
                return; // nothing to place, and nothing to choose the array by; or nobody reads it any more
            }
            int at = filled;
            if (buf == NONE) {
                if (captured != null && BodyCapture.offsetIn(chunk, captured) == 0) {
                    buf = captured;
                    ADOPTED.incrementAndGet();
                } else {
                    buf = new byte[length];
                }
                count = length;
            }
            if (BodyCapture.offsetIn(chunk, buf) != at) {
                chunk.getBytes(0, chunk.length(), buf, at);
            }
            arrived(chunk.length());
        }

        /** Event loop: {@code n} more bytes are in the array. */
        private void arrived(int n) {
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
            } else if (filled != length) {
                failure = badRequest("the request body ended after " + filled + " of the " + length
                        + " bytes its Content-Length declared");
            }
            ended = true;
            notifyAll();
        }
    }

    private final long threshold;
    private final long inlineMax;

    LargeBodies(@ConfigProperty(name = "quarkus.rest.input-buffer-size", defaultValue = "10k") MemorySize inputBuffer,
                @ConfigProperty(name = "muster.http.inline-max-body-size", defaultValue = "64K") MemorySize inlineMax) {
        this.threshold = inputBuffer.asLongValue();
        this.inlineMax = Math.min(inlineMax.asLongValue(), threshold);
    }

    /**
     * A body over the input buffer is handed to the resource at once, to be decoded on a worker as it arrives. A body
     * small enough to be answered on the event loop ({@code muster.http.inline-max-body-size}) with a Content-Length
     * is read here whole before the resource runs: one array of its length, where Quarkus REST would keep each chunk,
     * join them and hand over a stream that is copied once more (four copies of a small request's body, about a third
     * of what it allocates). Chunked bodies and those in between are Quarkus REST's.
     */
    @WholeBody
    @ServerRequestFilter
    Uni<Void> read(ContainerRequestContext ctx, HttpServerRequest request, RoutingContext routing) {
        long declared = ctx.getLength();
        if (!readsHere(declared, threshold, inlineMax)) {
            return Uni.createFrom().voidItem(); // Quarkus REST buffers it, or it is chunked
        }
        boolean small = declared <= inlineMax;
        // over muster.limits.max-body-size never gets here: HttpEdgeRoutes answers 413 first
        int length = (int) declared;
        Body body = new Body(length, routing == null ? null : routing.remove(CAPTURED)); // the body holds it alone
        if (small) {
            READ_WHOLE.incrementAndGet();
            return Uni.createFrom().emitter(done -> receive(ctx, request, body, () -> done.complete(null)));
        }
        receive(ctx, request, body, () -> { });
        // the resource starts now: the decoder reads what has arrived and waits for the rest as it goes
        return Uni.createFrom().voidItem();
    }

    /**
     * Whether a body of {@code declared} bytes (its Content-Length, -1 when chunked) is read by this filter: over the
     * input buffer, or small enough to be answered inline ({@code inlineMax}, at most the input buffer). What
     * {@link HttpEdgeRoutes} arms {@link BodyCapture} for.
     */
    static boolean readsHere(long declared, long inputBuffer, long inlineMax) {
        return declared > inputBuffer || (declared > 0 && declared <= inlineMax);
    }

    /** Event loop: routes the request's chunks into {@code body}, then {@code ended} once it is whole or broken. */
    private static void receive(ContainerRequestContext ctx, HttpServerRequest request, Body body, Runnable ended) {
        int length = body.length;
        boolean[] over = {false};
        request.handler(buffer -> {
            if (over[0]) {
                return;
            }
            if (buffer.length() > length - body.filled) {
                over[0] = true;
                body.end(badRequest("the request body is longer than its Content-Length of " + length + " bytes"));
                ended.run();
                return;
            }
            body.take(buffer);
        });
        request.exceptionHandler(e -> {
            if (!over[0]) {
                over[0] = true;
                body.end(badRequest("the request body could not be read: " + e.getMessage()));
                ended.run();
            }
        });
        request.endHandler(v -> {
            if (!over[0]) {
                over[0] = true;
                body.end(null);
                ended.run();
            }
        });
        if ("100-continue".equalsIgnoreCase(request.getHeader(HttpHeaders.EXPECT))) {
            request.response().writeContinue();
        }
        ctx.setEntityStream(body);
        request.resume();
    }

    private static StatusException badRequest(String message) {
        return new StatusException(KubeStatus.failure(400, "BadRequest", message, null));
    }
}
