package dev.muster.adapter.rest;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;

/**
 * Moves the young collection that a large request would cause to the moment before its body is read, when nothing of
 * the request is alive yet.
 *
 * <p>Why: a young collection costs about what it copies. A request on a body of tens of megabytes allocates a few times
 * its body while it is decoded, compiled, decided and answered, and a collection that falls in the middle copies the
 * request's whole object graph (a 100 MB request's decoded document and core model are a few million objects: 40–75
 * ms of pause on two cores), where the same collection at the start copies only what other requests hold (about a
 * millisecond when they hold little). So before a large body is read: when the eden has less room left than the
 * request is expected to allocate ({@code factor} times its body), one array a byte larger than that room is
 * allocated, which the collector can place only after a young collection; the array is garbage at once.
 *
 * <p>Only with a collector whose young collections are triggered by an eden allocation that does not fit (the
 * Parallel and Serial collectors: pools {@code PS Eden Space} and {@code Eden Space}), and only while that room is
 * under half of the eden (the Parallel collector places larger arrays in the old generation without collecting);
 * elsewhere (G1, a native image without such a pool) nothing is done. It brings forward a collection the request
 * would have caused anyway, by at most its expected allocation; the eden it takes is what was left before it.
 */
final class YoungRoom {
    /** Bodies below this many bytes are not worth the look: their requests allocate little. */
    static final long MIN_BODY = 1L << 20;

    private static volatile byte[] sink;

    private final MemoryPoolMXBean eden;
    private final double factor;

    private YoungRoom(MemoryPoolMXBean eden, double factor) {
        this.eden = eden;
        this.factor = factor;
    }

    /**
     * @param factor what a request allocates per byte of its body (0: never collect ahead)
     */
    static YoungRoom of(double factor) {
        if (!(factor > 0)) {
            return new YoungRoom(null, 0);
        }
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP && pool.isValid()
                    && ("PS Eden Space".equals(pool.getName()) || "Eden Space".equals(pool.getName()))) {
                return new YoungRoom(pool, factor);
            }
        }
        return new YoungRoom(null, 0);
    }

    /** Whether this collector's young collections can be brought forward here. */
    boolean active() {
        return eden != null;
    }

    /**
     * Called before a body of {@code length} bytes is read: collects now when the eden would not hold what its request
     * allocates. Returns whether it did.
     */
    boolean beforeBody(long length) {
        if (eden == null || length < MIN_BODY) {
            return false;
        }
        MemoryUsage u = eden.getUsage();
        long capacity = u.getCommitted();
        long room = capacity - u.getUsed();
        if (room < 0 || room >= length * factor || room + 1 >= capacity / 2 || room + 1 > Integer.MAX_VALUE - 16) {
            return false;
        }
        sink = new byte[(int) room + 1];
        sink = null;
        return true;
    }
}
