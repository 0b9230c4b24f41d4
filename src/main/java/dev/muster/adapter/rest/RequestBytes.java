package dev.muster.adapter.rest;

import dev.muster.adapter.kube.Arrival;

/**
 * A request body on its way from the dispatcher to the pipeline: its array, how far it has arrived, and the one place
 * that lets the array go once it is decoded ({@link #release}).
 * <p>
 * The resources and the dispatcher hand this holder down, never the array itself. A large request runs its resource
 * and pipeline methods once, so they run interpreted, and an interpreted frame keeps every argument it was given
 * reachable until it returns: an array passed down as an argument would stay alive through validation, compilation
 * and the decision, however early the pipeline dropped its own reference, and every young collection in that time
 * would copy it (about 100 MB for a 5,000-node request). Only the decoder's frames see the array, and they have
 * returned when the pipeline releases it.
 */
public final class RequestBytes {
    private byte[] bytes;
    private final Arrival arrival;

    /** {@code arrival}: how much of {@code bytes} has arrived ({@link Arrival#WHOLE} for a body read whole). */
    public RequestBytes(byte[] bytes, Arrival arrival) {
        this.bytes = bytes;
        this.arrival = arrival;
    }

    /** A body read whole. */
    public static RequestBytes whole(byte[] bytes) {
        return new RequestBytes(bytes, Arrival.WHOLE);
    }

    /** The array; null once {@link #release released}. */
    byte[] bytes() {
        return bytes;
    }

    Arrival arrival() {
        return arrival;
    }

    /** The body is decoded and nothing reads it again: the array goes, here and in whatever is still receiving it. */
    void release() {
        bytes = null;
        arrival.release();
    }
}
