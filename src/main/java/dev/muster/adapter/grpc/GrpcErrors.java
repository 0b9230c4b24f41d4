package dev.muster.adapter.grpc;

import com.google.protobuf.Any;
import com.google.rpc.BadRequest;
import com.google.rpc.Code;
import dev.muster.adapter.validation.Cause;
import dev.muster.adapter.validation.Causes;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;

import java.util.ArrayList;
import java.util.List;

/**
 * The gRPC form of Muster's errors, the counterparts of the REST Status answers. A client mistake is never {@code INTERNAL}:
 * <ul>
 *   <li>broken API invariants (the REST 422 causes) → {@code INVALID_ARGUMENT} with a {@code google.rpc.BadRequest}
 *       detail: one field violation per cause, {@code field} = the cause's path from the request root,
 *       {@code reason} = the Kubernetes cause reason, {@code description} = "reason: message";</li>
 *   <li>a request the mapper cannot compile (a quantity that does not parse, ...) → {@code INVALID_ARGUMENT};</li>
 *   <li>over the message size limit → {@code RESOURCE_EXHAUSTED} (answered by the transport before any of this
 *       code runs; see application.properties);</li>
 *   <li>a passed deadline → {@code DEADLINE_EXCEEDED}.</li>
 * </ul>
 */
public final class GrpcErrors {
    /** Longest status message: the summaries of the first causes, then a count of the rest. */
    static final int MAX_MESSAGE_CHARS = 4096;

    private GrpcErrors() {
    }

    /** One broken invariant: Kubernetes cause reason, field path from the request root, message, full summary. */
    public record Violation(String reason, String field, String message, String summary) {
    }

    /** {@code INVALID_ARGUMENT} with every cause the shared validator found (the REST 422 causes, same paths). */
    public static StatusRuntimeException invalid(Causes causes) {
        List<Violation> violations = new ArrayList<>(causes.list().size());
        for (Cause c : causes.list()) {
            violations.add(new Violation(c.reason(), c.field(), c.message(), c.summary()));
        }
        return invalid(violations, causes.total());
    }

    /**
     * {@code INVALID_ARGUMENT} with every violation as a BadRequest field violation. {@code total} counts the causes
     * found, which can exceed the listed ones when the validator stopped listing at its limit.
     */
    public static StatusRuntimeException invalid(List<Violation> violations, int total) {
        BadRequest.Builder bad = BadRequest.newBuilder();
        StringBuilder msg = new StringBuilder("request is invalid: ");
        int shown = 0;
        for (Violation v : violations) {
            bad.addFieldViolations(BadRequest.FieldViolation.newBuilder()
                    .setField(v.field() == null ? "" : v.field())
                    .setReason(v.reason())
                    .setDescription(v.reason() + ": " + v.message()));
            if (msg.length() < MAX_MESSAGE_CHARS) {
                if (shown > 0) {
                    msg.append(", ");
                }
                msg.append(v.summary());
                shown++;
            }
        }
        if (total > shown) {
            msg.append(" (and ").append(total - shown).append(" more)");
        }
        com.google.rpc.Status status = com.google.rpc.Status.newBuilder()
                .setCode(Code.INVALID_ARGUMENT_VALUE)
                .setMessage(msg.toString())
                .addDetails(Any.pack(bad.build()))
                .build();
        return StatusProto.toStatusRuntimeException(status);
    }

    /** {@code INVALID_ARGUMENT} for one field, when the mapper rejects what validation let through. */
    public static StatusRuntimeException invalid(String reason, String field, String message) {
        return invalid(List.of(new Violation(reason, field, message,
                (field == null || field.isEmpty() ? "" : field + ": ") + message)), 1);
    }

    /** The call's deadline passed; worded for the server's limit when that was the deadline (see the interceptor). */
    public static StatusRuntimeException deadlineExceeded(String step) {
        String serverLimit = GrpcDeadlineInterceptor.SERVER_LIMIT.get();
        return Status.DEADLINE_EXCEEDED
                .withDescription(serverLimit == null
                        ? "deadline passed " + step + "; the decision was abandoned (send a longer deadline "
                                + "or a smaller snapshot)"
                        : serverLimit + " passed " + step + "; the decision was abandoned (send a smaller snapshot)")
                .asRuntimeException();
    }

    public static StatusRuntimeException cancelled(String step) {
        return Status.CANCELLED.withDescription("call cancelled by the client " + step).asRuntimeException();
    }
}
