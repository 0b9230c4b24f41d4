package dev.muster.adapter.rest.error;

import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * Every failure of the REST surface becomes a Kubernetes Status ({@link KubeStatus}): our own {@link StatusException}s,
 * the framework's 404/405/406/413/415 ({@link WebApplicationException}s), and, as the last resort, anything else:
 * a 500 InternalError that is logged, because only a bug in Muster gets there (client mistakes are 4xx earlier).
 */
public class StatusExceptionMappers {
    private static final Logger LOG = Logger.getLogger(StatusExceptionMappers.class);

    @ServerExceptionMapper
    public Response status(StatusException e) {
        return StatusWriter.response(e.status());
    }

    @ServerExceptionMapper
    public Response webApplication(WebApplicationException e) {
        int code = e.getResponse() == null ? 500 : e.getResponse().getStatus();
        if (code >= 500) {
            LOG.error("request failed inside Muster", e);
        }
        String message = switch (code) {
            case 404 -> "the server could not find the requested resource";
            case 405 -> "the method is not allowed for this resource: use POST /v1/decisions or POST /v1/validations";
            case 406 -> "only application/json answers are produced";
            case 413 -> "the request body is larger than the configured limit (muster.limits.max-body-size)";
            case 415 -> "unsupported media type: send application/json or application/yaml";
            default -> e.getMessage() == null ? Response.Status.fromStatusCode(code) + "" : e.getMessage();
        };
        return StatusWriter.response(KubeStatus.failure(code, KubeStatus.reasonFor(code), message, null));
    }

    /**
     * Reading the body failed: RESTEasy Reactive signals a chunked body over {@code quarkus.http.limits.max-body-size}
     * as an {@code IOException("Request too large")}; any other read failure is the client's connection.
     */
    @ServerExceptionMapper
    public Response io(java.io.IOException e) {
        String m = String.valueOf(e.getMessage()).toLowerCase(java.util.Locale.ROOT);
        if (m.contains("too large")) {
            return StatusWriter.response(KubeStatus.failure(413, "RequestEntityTooLarge",
                    "the request body is over the configured limit (muster.limits.max-body-size)", null));
        }
        LOG.debug("could not read a request body", e);
        return StatusWriter.response(KubeStatus.failure(400, "BadRequest",
                "the request body could not be read: " + e.getMessage(), null));
    }

    @ServerExceptionMapper(priority = jakarta.ws.rs.Priorities.USER + 1000)
    public Response lastResort(Throwable e) {
        LOG.error("unexpected failure while answering a request (a Muster bug)", e);
        return StatusWriter.response(KubeStatus.failure(500, "InternalError",
                "internal error: " + e.getClass().getSimpleName() + " (see the server log); please report it", null));
    }
}
