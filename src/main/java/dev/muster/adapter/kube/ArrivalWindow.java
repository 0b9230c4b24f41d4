package dev.muster.adapter.kube;

/**
 * How far {@link ByteTokens} may read a body that is still arriving: the bytes up to a window past where it is (so a
 * node or pod is read once its bytes are in), or the whole body where databind reads a slice or the document ends.
 */
final class ArrivalWindow {
    private final Arrival arrival;
    private final int length;
    /** How far ahead of each node or pod to wait for bytes. */
    private final int window;

    ArrivalWindow(Arrival arrival, int length, int window) {
        this.arrival = arrival;
        this.length = length;
        this.window = window;
    }

    /** The bytes that may be read at the start: at least one window's worth, once arrived. */
    int first() {
        return Math.min(length, arrival.await(Math.min(length, window)));
    }

    /** The bytes that may be read from {@code pos}: at least a window past it, once arrived. */
    int ahead(int pos) {
        return Math.min(length, arrival.await((int) Math.min(length, (long) pos + window)));
    }

    /** The whole body, once arrived. */
    int whole() {
        return Math.min(length, arrival.await(length));
    }
}
