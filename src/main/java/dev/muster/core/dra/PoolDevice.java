package dev.muster.core.dra;

import java.util.Map;

/** A device with where it comes from, and its capacities resolved once (they are read on every search). */
final class PoolDevice {
    private final AllocatedDevice id;
    private final Device device;
    private final ResourceSlice slice;
    private final PoolData pool;
    volatile Map<String, Capacities.Resolved> capacities; // resolved by the index on first use
    /** The number of what selectors see of the device (equal devices share it), or -1 before first use. */
    volatile int selectorId = -1;

    PoolDevice(AllocatedDevice id, Device device, ResourceSlice slice, PoolData pool) {
        this.id = id;
        this.device = device;
        this.slice = slice;
        this.pool = pool;
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
