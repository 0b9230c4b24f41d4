package dev.muster.adapter.rest;

import dev.muster.adapter.rest.error.KubeStatus;
import dev.muster.adapter.rest.error.StatusWriter;
import io.quarkus.runtime.configuration.MemorySize;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Status bodies for what is answered before or outside JAX-RS:
 * <ul>
 *   <li>a body declared larger than {@code muster.limits.max-body-size} (Content-Length) is refused with a 413 Status
 *       before a byte of it is read;</li>
 *   <li>a path no route serves gets a 404 Status instead of the default page.</li>
 * </ul>
 * It also arms {@link BodyCapture} for a body that {@link LargeBodies} will read (a large one, or one small enough to
 * be answered on the event loop), before the body arrives.
 * Chunked bodies have no Content-Length: {@link BodyReader} counts them while reading. Quarkus's own limit
 * ({@code quarkus.http.limits.max-body-size}) is configured above Muster's and only backs these up; a body over
 * it gets Quarkus's bare 413 (no Status body): the one documented gap, reachable only if the two are misconfigured.
 */
@ApplicationScoped
public class HttpEdgeRoutes {
    private final long maxBodySize;
    private final long readTimeoutMillis;
    private final long inputBuffer;
    /** Bodies up to this size with a Content-Length are read whole by {@link LargeBodies} too (see there). */
    private final long inlineMax;
    private final YoungRoom youngRoom;

    HttpEdgeRoutes(@ConfigProperty(name = "muster.limits.max-body-size", defaultValue = "128M") MemorySize maxBodySize,
                   @ConfigProperty(name = "muster.limits.request-read-timeout", defaultValue = "60s")
                   java.time.Duration readTimeout,
                   @ConfigProperty(name = "quarkus.rest.input-buffer-size", defaultValue = "10k") MemorySize inputBuffer,
                   @ConfigProperty(name = "muster.http.inline-max-body-size", defaultValue = "64K") MemorySize inlineMax,
                   @ConfigProperty(name = "muster.http.young-room-factor", defaultValue = "3") double youngRoomFactor) {
        this.maxBodySize = maxBodySize.asLongValue();
        this.readTimeoutMillis = Math.max(1, readTimeout.toMillis());
        this.inputBuffer = inputBuffer.asLongValue();
        this.inlineMax = Math.min(inlineMax.asLongValue(), this.inputBuffer);
        this.youngRoom = YoungRoom.of(youngRoomFactor);
    }

    void routes(@Observes Router router,
                @ConfigProperty(name = "quarkus.http.limits.max-body-size") java.util.Optional<MemorySize> quarkusLimit) {
        if (quarkusLimit.isPresent() && quarkusLimit.get().asLongValue() <= maxBodySize) {
            org.jboss.logging.Logger.getLogger(HttpEdgeRoutes.class).warnf("quarkus.http.limits.max-body-size (%d) is not "
                    + "above muster.limits.max-body-size (%d): chunked bodies over the limit get a 413 without a Status "
                    + "body; raise quarkus.http.limits.max-body-size", quarkusLimit.get().asLongValue(), maxBodySize);
        }
        router.route().order(Integer.MIN_VALUE).handler(this::checkContentLength);
        router.route().order(Integer.MAX_VALUE).handler(HttpEdgeRoutes::notFound);
    }

    private void checkContentLength(RoutingContext rc) {
        String encoding = rc.request().getHeader(HttpHeaders.CONTENT_ENCODING);
        if (encoding != null && !encoding.isBlank() && !"identity".equalsIgnoreCase(encoding.trim())) {
            // compressed bodies are not inflated (no decompression bomb can be sent); read as JSON they would only
            // be a confusing 400
            refuse(rc, KubeStatus.failure(415, "UnsupportedMediaType", "Content-Encoding \"" + encoding.trim()
                    + "\" is not supported: send the body uncompressed", null));
            return;
        }
        readDeadline(rc);
        String length = rc.request().getHeader(HttpHeaders.CONTENT_LENGTH);
        if (length != null) {
            long declared;
            try {
                declared = Long.parseLong(length.trim());
            } catch (NumberFormatException e) {
                declared = -1;
            }
            if (declared > maxBodySize) {
                KubeStatus s = KubeStatus.failure(413, "RequestEntityTooLarge", "the request body is " + declared
                        + " bytes, over the limit of " + maxBodySize + " bytes (muster.limits.max-body-size)", null);
                rc.response().setStatusCode(413)
                        .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                        .putHeader(HttpHeaders.CONNECTION, "close")
                        .end(Buffer.buffer(StatusWriter.bytes(s)));
                return;
            }
            if (LargeBodies.readsHere(declared, inputBuffer, inlineMax) && rc.request().method() == HttpMethod.POST
                    && LargeBodies.PATHS.contains(rc.normalizedPath())) {
                youngRoom.beforeBody(declared); // a collection this request would cause, now while it holds nothing
                // before a byte of the body is read: it lands in one array as it arrives (see BodyCapture)
                byte[] captured = BodyCapture.arm(rc.request(), (int) declared);
                if (captured != null) {
                    rc.put(LargeBodies.CAPTURED, captured);
                }
            }
        }
        rc.next();
    }

    /** Answers {@code s} and closes the connection (the rest of the body is not read). */
    private static void refuse(RoutingContext rc, KubeStatus s) {
        rc.response().setStatusCode(s.code())
                .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .putHeader(HttpHeaders.CONNECTION, "close")
                .end(Buffer.buffer(StatusWriter.bytes(s)));
    }

    /**
     * An HTTP/1.x request whose body has not arrived whole within {@code muster.limits.request-read-timeout} is
     * answered 408 (when nothing was answered yet) and its connection closed, so a client trickling bytes cannot
     * hold a connection and a buffer for ever. HTTP/2 (gRPC) calls carry their own deadlines and share a
     * connection, which is not closed for one stream.
     */
    private void readDeadline(RoutingContext rc) {
        io.vertx.core.http.HttpServerRequest request = rc.request();
        if (request.isEnded() || request.version() == io.vertx.core.http.HttpVersion.HTTP_2) {
            return;
        }
        long timer = rc.vertx().setTimer(readTimeoutMillis, id -> {
            if (request.isEnded()) {
                return;
            }
            if (!rc.response().headWritten() && !rc.response().ended()) {
                refuse(rc, KubeStatus.failure(408, "Timeout", "the request did not arrive whole within "
                        + readTimeoutMillis + " ms (muster.limits.request-read-timeout)", null));
            }
            request.connection().close();
        });
        rc.addEndHandler(done -> rc.vertx().cancelTimer(timer));
    }

    private static void notFound(RoutingContext rc) {
        if (rc.response().ended() || rc.response().headWritten()) {
            return;
        }
        KubeStatus s = KubeStatus.failure(404, "NotFound", "the server could not find the requested resource: "
                + rc.request().method() + " " + rc.request().path(), null);
        rc.response().setStatusCode(404).putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .end(Buffer.buffer(StatusWriter.bytes(s)));
    }
}
