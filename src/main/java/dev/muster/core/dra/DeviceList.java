package dev.muster.core.dra;

import java.util.List;

/**
 * A slice's device list as a key: equal when the lists are, hashed from what tells devices apart cheaply (names,
 * and the attribute and capacity maps, whose hashes are kept) instead of every field of every device.
 */
record DeviceList(List<Device> devices, int hash) {
    static DeviceList of(List<Device> devices) {
        int h = 1;
        for (Device d : devices) {
            h = 31 * h + (d.name().hashCode() * 31 + d.attributes().hashCode()) * 31 + d.capacity().hashCode();
        }
        return new DeviceList(devices, h);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DeviceList l && l.hash == hash && devices.equals(l.devices);
    }

    @Override
    public int hashCode() {
        return hash;
    }
}
