package dev.muster.adapter.kube;

/**
 * Told how far the decoding of a request's snapshot has come, so work that needs only its first lists can start while
 * the rest is still being read (and, for a body still arriving, still being received). Called on the decoding thread,
 * on the byte path only: it must return at once. The lists it is given are complete and never change afterwards; a
 * later field may still add a list the listener has not seen, and when the byte path gives up the whole document is
 * decoded again into other objects, so what a listener works out from them must be checked against the final
 * document before it is used.
 */
@FunctionalInterface
public interface SnapshotProgress {
    /** Ignores the progress. */
    SnapshotProgress NONE = (field, soFar) -> {
    };

    /**
     * @param field  the snapshot field about to be decoded
     * @param soFar  the lists decoded before it (null: not met yet)
     */
    void beforeField(String field, RequestDocument.Snapshot soFar);
}
