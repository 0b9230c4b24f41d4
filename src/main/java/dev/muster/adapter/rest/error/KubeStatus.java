package dev.muster.adapter.rest.error;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.util.List;
import java.util.Map;

/**
 * A Kubernetes {@code meta/v1 Status} in its failure form: every error answer of the REST surface has this shape,
 * so kubectl users read them as they read the API server's.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"kind", "apiVersion", "metadata", "status", "message", "reason", "details", "code"})
@Schema(name = "Status", description = "Kubernetes meta/v1 Status (failure)")
public record KubeStatus(String kind, String apiVersion, Map<String, Object> metadata, String status, String message,
                         String reason, Details details, int code) {

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonPropertyOrder({"causes"})
    public record Details(List<StatusCause> causes) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonPropertyOrder({"reason", "message", "field"})
    public record StatusCause(String reason, String message, String field) {
    }

    public static KubeStatus failure(int code, String reason, String message, List<StatusCause> causes) {
        return new KubeStatus("Status", "v1", Map.of(), "Failure", message, reason,
                causes == null || causes.isEmpty() ? null : new Details(causes), code);
    }

    /** The metav1.StatusReason for an HTTP status. */
    public static String reasonFor(int code) {
        return switch (code) {
            case 400 -> "BadRequest";
            case 401 -> "Unauthorized";
            case 403 -> "Forbidden";
            case 404 -> "NotFound";
            case 405 -> "MethodNotAllowed";
            case 406 -> "NotAcceptable";
            case 409 -> "Conflict";
            case 413 -> "RequestEntityTooLarge";
            case 415 -> "UnsupportedMediaType";
            case 422 -> "Invalid";
            case 429 -> "TooManyRequests";
            case 503 -> "ServiceUnavailable";
            case 504 -> "Timeout";
            default -> code >= 500 ? "InternalError" : "BadRequest";
        };
    }
}
