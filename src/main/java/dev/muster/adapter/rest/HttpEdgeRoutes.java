package dev.muster.adapter.rest;

import dev.muster.adapter.rest.error.KubeStatus;
import dev.muster.adapter.rest.error.StatusWriter;
import io.quarkus.runtime.configuration.MemorySize;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
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
 * Chunked bodies have no Content-Length: {@link BodyReader} counts them while reading. Quarkus's own limit
 * ({@code quarkus.http.limits.max-body-size}) is configured above Muster's and only backs these up; a body over
 * it gets Quarkus's bare 413 (no Status body): the one documented gap, reachable only if the two are misconfigured.
 */
@ApplicationScoped
public class HttpEdgeRoutes {
    private final long maxBodySize;

    HttpEdgeRoutes(@ConfigProperty(name = "muster.limits.max-body-size", defaultValue = "128M") MemorySize maxBodySize) {
        this.maxBodySize = maxBodySize.asLongValue();
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
        }
        rc.next();
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
