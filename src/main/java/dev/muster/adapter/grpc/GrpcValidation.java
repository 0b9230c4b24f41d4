package dev.muster.adapter.grpc;

import dev.muster.adapter.kube.RequestDocument;
import io.grpc.StatusRuntimeException;

import java.util.List;

/** The shared request validation, answered the gRPC way. Placeholder until adapter.validation lands on main. */
public class GrpcValidation {
    public static GrpcValidation defaults() {
        return new GrpcValidation();
    }

    /** Throws INVALID_ARGUMENT with every cause when the document breaks an API invariant. */
    public void check(RequestDocument doc) throws StatusRuntimeException {
        if (doc.snapshot() == null) {
            throw GrpcErrors.invalid(List.of(new GrpcErrors.Violation("FieldValueRequired", "snapshot",
                    "the cluster snapshot must be set", "snapshot: Required value")), 1);
        }
    }
}
