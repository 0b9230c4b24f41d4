package dev.muster.core.dra;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A slice's device list as a key: equal when the lists are, hashed from what tells devices apart cheaply (names,
 * and the attribute and capacity maps, whose hashes are kept) instead of every field of every device.
 * <p>
 * With {@code read} (the attribute keys, as this driver's devices may publish them, that some selector or constraint
 * of the request reads), attributes outside it are left out: a GPU's {@code uuid} then no longer tells two nodes
 * apart for a request that never reads it. Every other field of a device still counts. A key published in another
 * form than the one read is compared as a different attribute, so lists are never found equal wrongly.
 */
record DeviceList(List<Device> devices, Set<String> read, int hash) {
    /** @param read the attribute keys that count, or null for all of them */
    static DeviceList of(List<Device> devices, Set<String> read) {
        int h = 1;
        for (Device d : devices) {
            int attributes = read == null ? d.attributes().hashCode() : readHash(d.attributes(), read);
            h = 31 * h + (d.name().hashCode() * 31 + attributes) * 31 + d.capacity().hashCode();
        }
        return new DeviceList(devices, read, h);
    }

    /** The keys under which a device of {@code driver} may publish these fully qualified attributes. */
    static Set<String> keys(Set<String> qualified, String driver) {
        Set<String> keys = new java.util.HashSet<>(qualified);
        for (String q : qualified) {
            int slash = q.indexOf('/');
            if (slash > 0 && q.substring(0, slash).equals(driver)) {
                keys.add(q.substring(slash + 1));
            }
        }
        return Set.copyOf(keys);
    }

    private static int readHash(Map<String, DeviceAttribute> attributes, Set<String> read) {
        int h = 0;
        for (String key : read) {
            DeviceAttribute v = attributes.get(key);
            if (v != null) {
                h += key.hashCode() ^ v.hashCode();
            }
        }
        return h;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof DeviceList l) || l.hash != hash || !Objects.equals(read, l.read)) {
            return false;
        }
        if (read == null) {
            return devices.equals(l.devices);
        }
        if (devices.size() != l.devices.size()) {
            return false;
        }
        for (int i = 0; i < devices.size(); i++) {
            if (!sameRead(devices.get(i), l.devices.get(i))) {
                return false;
            }
        }
        return true;
    }

    /** Equal in every field but the attributes, and in the attributes that are read. */
    private boolean sameRead(Device a, Device b) {
        for (String key : read) {
            if (!Objects.equals(a.attributes().get(key), b.attributes().get(key))) {
                return false;
            }
        }
        return a.name().equals(b.name()) && a.capacity().equals(b.capacity())
                && a.consumesCounters().equals(b.consumesCounters()) && a.taints().equals(b.taints())
                && a.allowMultipleAllocations() == b.allowMultipleAllocations() && a.bindsToNode() == b.bindsToNode()
                && a.bindingConditions().equals(b.bindingConditions())
                && a.bindingFailureConditions().equals(b.bindingFailureConditions())
                && Objects.equals(a.nodeName(), b.nodeName()) && Objects.equals(a.nodeSelector(), b.nodeSelector())
                && a.allNodes() == b.allNodes();
    }

    @Override
    public int hashCode() {
        return hash;
    }
}
