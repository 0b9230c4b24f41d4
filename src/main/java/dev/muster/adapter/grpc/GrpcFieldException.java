package dev.muster.adapter.grpc;

/**
 * A value the mappers cannot carry into the request records (what REST's decoder answers with a 400), with its field
 * path relative to the object being mapped. Each enclosing mapper prefixes its own part, and the snapshot's mapper
 * turns it into {@code INVALID_ARGUMENT} with the whole path from the request root, as REST names it.
 */
final class GrpcFieldException extends RuntimeException {
    private final String reason;
    private final String field;

    GrpcFieldException(String reason, String field, String message) {
        super(message, null, false, false);
        this.reason = reason;
        this.field = field;
    }

    String reason() {
        return reason;
    }

    String field() {
        return field;
    }

    /** The same, seen from the object that holds this one at {@code prefix}. */
    GrpcFieldException at(String prefix) {
        return new GrpcFieldException(reason, prefix + "." + field, getMessage());
    }
}
