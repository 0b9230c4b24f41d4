package dev.muster.core.dra;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A slice's device list as a key: equal when the lists are, hashed from what tells devices apart cheaply (names,
 * and the attribute and capacity maps, whose hashes are kept) instead of every field of every device.
 * <p>
 * With the attribute keys a request reads ({@link Reads}: as this driver's devices may publish them, those some
 * selector or constraint of the request reads), attributes outside them are left out: a GPU's {@code uuid} then no
 * longer tells two nodes apart for a request that never reads it. Every other field of a device still counts. A key
 * published in another form than the one read is compared as a different attribute, so lists are never found equal
 * wrongly.
 * <p>
 * The read attributes are found by position: a driver's devices publish their attributes under the same key objects
 * in the same order (the request mapping shares the names), a handful of layouts in all (a GPU's, a partition's), so
 * where the read keys sit is worked out once per layout ({@link Layout}) and each device's are then array reads, not
 * look-ups by name (on 5,000 nodes of 64 partitions each, those look-ups were a fifth of compiling the request).
 *
 * @param reads what counts of the attributes, or null for all of them
 */
record DeviceList(List<Device> devices, Reads reads, int hash) {
    static DeviceList of(List<Device> devices, Reads reads) {
        int h = 1;
        Layout layout = null;
        for (Device d : devices) {
            int attributes;
            if (reads == null) {
                attributes = d.attributes().hashCode();
            } else {
                FrozenMap<String, DeviceAttribute> m = frozen(d.attributes());
                if (layout == null || !layout.holds(m)) {
                    layout = reads.layout(m);
                }
                attributes = layout.hash(m);
            }
            h = 31 * h + (d.name().hashCode() * 31 + attributes) * 31 + d.capacity().hashCode();
        }
        return new DeviceList(devices, reads, h);
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

    /** A device's attributes: frozen by {@link Device}'s constructor. */
    private static FrozenMap<String, DeviceAttribute> frozen(Map<String, DeviceAttribute> attributes) {
        return (FrozenMap<String, DeviceAttribute>) attributes;
    }

    /**
     * The attribute keys that count for one driver's devices, and the key layouts seen so far with where those keys
     * sit in each. Safe for several threads: the layouts are an immutable array replaced whole (a layout two threads
     * add at once may be kept once, which only costs working it out again).
     */
    static final class Reads {
        /** Layouts kept at most; a driver publishes a few. */
        static final int MAX_LAYOUTS = 8;
        final Set<String> keys;
        private volatile Layout[] layouts = new Layout[0];

        Reads(Set<String> keys) {
            this.keys = Set.copyOf(keys);
        }

        /** The layout of {@code m}, kept or worked out. */
        Layout layout(FrozenMap<String, DeviceAttribute> m) {
            Layout[] known = layouts;
            for (Layout l : known) {
                if (l.holds(m)) {
                    return l;
                }
            }
            Layout l = new Layout(m, keys);
            if (known.length < MAX_LAYOUTS) {
                Layout[] more = java.util.Arrays.copyOf(known, known.length + 1);
                more[known.length] = l;
                layouts = more;
            }
            return l;
        }
    }

    /** A key layout (these key objects, in this order) and the positions in it whose keys are read. */
    static final class Layout {
        private final Object[] keys;
        private final int[] read;

        Layout(FrozenMap<String, DeviceAttribute> m, Set<String> readKeys) {
            keys = new Object[m.size()];
            int[] at = new int[keys.length];
            int n = 0;
            for (int i = 0; i < keys.length; i++) {
                keys[i] = m.keyAt(i);
                if (readKeys.contains(keys[i])) {
                    at[n++] = i;
                }
            }
            read = java.util.Arrays.copyOf(at, n);
        }

        /** Whether the map has exactly this layout: the same key objects at the same positions. */
        boolean holds(FrozenMap<String, DeviceAttribute> m) {
            if (m.size() != keys.length) {
                return false;
            }
            for (int i = 0; i < keys.length; i++) {
                if (m.keyAt(i) != keys[i]) {
                    return false;
                }
            }
            return true;
        }

        /** The read entries' hash (a map's: the sum of key hash xor value hash); a null value counts as absent. */
        int hash(FrozenMap<String, DeviceAttribute> m) {
            int h = 0;
            for (int p : read) {
                DeviceAttribute v = m.valueAt(p);
                if (v != null) {
                    h += keys[p].hashCode() ^ v.hashCode();
                }
            }
            return h;
        }

        /** For two maps of this layout: whether their read entries are equal. */
        boolean sameRead(FrozenMap<String, DeviceAttribute> a, FrozenMap<String, DeviceAttribute> b) {
            for (int p : read) {
                if (!Objects.equals(a.valueAt(p), b.valueAt(p))) {
                    return false;
                }
            }
            return true;
        }
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof DeviceList l) || l.hash != hash || (reads == null) != (l.reads == null)
                || reads != null && reads != l.reads && !reads.keys.equals(l.reads.keys)) {
            return false;
        }
        if (reads == null) {
            return devices.equals(l.devices);
        }
        if (devices.size() != l.devices.size()) {
            return false;
        }
        Layout layout = null;
        for (int i = 0; i < devices.size(); i++) {
            Device a = devices.get(i);
            Device b = l.devices.get(i);
            if (a.attributes() != b.attributes()) {
                FrozenMap<String, DeviceAttribute> ma = frozen(a.attributes());
                FrozenMap<String, DeviceAttribute> mb = frozen(b.attributes());
                if (layout == null || !layout.holds(ma)) {
                    layout = reads.layout(ma);
                }
                if (layout.holds(mb) ? !layout.sameRead(ma, mb) : !sameReadByName(ma, mb)) {
                    return false;
                }
            }
            if (!sameOtherFields(a, b)) {
                return false;
            }
        }
        return true;
    }

    /** Whether the read attributes are equal, looked up by name (maps of different layouts). */
    private boolean sameReadByName(Map<String, DeviceAttribute> a, Map<String, DeviceAttribute> b) {
        for (String key : reads.keys) {
            if (!Objects.equals(a.get(key), b.get(key))) {
                return false;
            }
        }
        return true;
    }

    /** Equal in every field but the attributes. */
    private static boolean sameOtherFields(Device a, Device b) {
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
