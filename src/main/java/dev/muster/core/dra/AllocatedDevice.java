package dev.muster.core.dra;

import java.util.Objects;

/**
 * A device's cluster-wide identity: {@code driver}, {@code pool} name and device {@code name}, the triple in an
 * allocation result. Compared by value.
 */
public record AllocatedDevice(String driver, String pool, String device) implements Comparable<AllocatedDevice> {
    public AllocatedDevice {
        Objects.requireNonNull(driver, "driver");
        Objects.requireNonNull(pool, "pool");
        Objects.requireNonNull(device, "device");
    }

    @Override
    public int compareTo(AllocatedDevice o) {
        int c = driver.compareTo(o.driver);
        if (c == 0) {
            c = pool.compareTo(o.pool);
        }
        return c != 0 ? c : device.compareTo(o.device);
    }

    /** {@code driver/pool/device}, the form used in messages. */
    @Override
    public String toString() {
        return driver + "/" + pool + "/" + device;
    }
}
