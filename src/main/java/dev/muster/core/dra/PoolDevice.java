package dev.muster.core.dra;

import java.util.Map;

/** A device with where it comes from, and its capacities resolved once (they are read on every search). */
final class PoolDevice {
    private final AllocatedDevice id;
    private final Device device;
    private final ResourceSlice slice;
    private final PoolData pool;
    /** The device's number in its pool (slice order), what the ledger keeps its holders under; -1 in an invalid pool. */
    private final int number;
    volatile Map<String, Capacities.Resolved> capacities; // resolved by the index on first use
    /**
     * Whether the device's capacities let an allocation that requests none of them take it while nothing consumes any
     * ({@link Capacities#admitsUnrequested}): 0 not asked yet, 1 yes, 2 no. A function of the device alone.
     */
    volatile byte unrequested;
    /** The number of what selectors see of the device (equal devices share it), or -1 before first use. */
    volatile int selectorId = -1;
    /** The verdicts of the selectors asked about this device so far ({@link SelectorVerdicts}); null before. */
    volatile Known known;

    /**
     * A few selectors' verdicts on one device (a Boolean, or the SelectorException it threw), compared by selector
     * identity. Immutable: a new one replaces the old, so readers on other threads see one or the other whole.
     */
    static final class Known {
        /** Selectors remembered per device at most; a request rarely has more distinct selectors. */
        static final int MAX = 8;
        final DeviceSelector[] selectors;
        final Object[] verdicts;

        Known(DeviceSelector[] selectors, Object[] verdicts) {
            this.selectors = selectors;
            this.verdicts = verdicts;
        }

        Object get(DeviceSelector selector) {
            for (int i = 0; i < selectors.length; i++) {
                if (selectors[i] == selector) {
                    return verdicts[i];
                }
            }
            return null;
        }

        /** With one more verdict; this one when it is full. */
        Known with(DeviceSelector selector, Object verdict) {
            int n = selectors.length;
            if (n >= MAX) {
                return this;
            }
            DeviceSelector[] s = java.util.Arrays.copyOf(selectors, n + 1);
            Object[] v = java.util.Arrays.copyOf(verdicts, n + 1);
            s[n] = selector;
            v[n] = verdict;
            return new Known(s, v);
        }
    }

    PoolDevice(AllocatedDevice id, Device device, ResourceSlice slice, PoolData pool, int number) {
        this.id = id;
        this.device = device;
        this.slice = slice;
        this.pool = pool;
        this.number = number;
    }

    int number() {
        return number;
    }

    AllocatedDevice id() {
        return id;
    }

    Device device() {
        return device;
    }

    ResourceSlice slice() {
        return slice;
    }

    PoolData pool() {
        return pool;
    }
}
