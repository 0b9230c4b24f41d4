package dev.muster.adapter.clusterview;

/** A snapshot file or directory that cannot become a view; the message says why (and where, for a directory). */
final class InvalidSnapshotException extends Exception {
    InvalidSnapshotException(String message) {
        super(message);
    }
}
