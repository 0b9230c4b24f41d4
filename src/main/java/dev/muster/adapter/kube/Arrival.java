package dev.muster.adapter.kube;

/**
 * How much of a request body has arrived, for decoding it while the rest is still in flight. The bytes below the count
 * returned are final; a body that will never be whole makes {@link #await} throw (the request's error).
 */
@FunctionalInterface
public interface Arrival {
    /** A body that is already whole. */
    Arrival WHOLE = atLeast -> Integer.MAX_VALUE;

    /**
     * Blocks until at least {@code atLeast} bytes have arrived, or all there will be; returns the count arrived (at
     * least {@code atLeast}, or the whole body's length, or more than it for {@link #WHOLE}).
     */
    int await(int atLeast);

    /**
     * The bytes are no longer needed (the request is decoded and validation will not read them again): a body that
     * holds them lets them go, so that a collection while the request is validated, compiled and decided does not copy
     * them. Nothing may read the body after this.
     */
    default void release() {
    }
}
