package dev.muster.core.dra;

import dev.muster.core.model.Quantity;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReferenceArray;

/** A pool at its highest generation. */
final class PoolData {
    final String driver;
    final String name;
    final List<ResourceSlice> slices;
    final boolean incomplete;
    /** Devices in the pool: what {@link #invalid()} checks for repeated names. */
    private final int total;
    /**
     * The first device name that repeats, {@link #NONE} when none does, null until asked: worked out on first use (a
     * decision's warm-up, shared by two threads, asks for every node's pools), not while the index is built on one.
     */
    private volatile String repeated;
    private static final String NONE = new String("");
    final boolean hasBindingConditions;
    /** counter set → counter → total. */
    final Map<String, Map<String, BigDecimal>> counterSets;
    /**
     * Each slice's devices, aligned with {@link #slices} and with the slice's {@code devices}; made on first use
     * ({@link #devices(int)}): a decision walks the devices of the nodes it tries, not of all 5,000.
     */
    private final AtomicReferenceArray<PoolDevice[]> sliceDevices;
    /**
     * Whether the snapshot's allocated claims hold some device of the pool (set while the index is built): until a
     * decision takes or gives back one of its devices, a pool without holders has every device free.
     */
    boolean heldInSnapshot;
    /** By name, built on first lookup: most pools are only walked, never looked up by name. */
    private volatile Map<String, PoolDevice> devicesByName;
    /** Position in the index's pool order (set once the pools are sorted). */
    int ordinal;
    /** A number per driver name, the same for pools of one driver (set once the pools are sorted). */
    int driverId;
    /** Per slice, the number of its device list ({@link #devicesLook}); -1 until first asked. */
    final int[] sliceLooks;
    /** The number of the pool's counter totals ({@link DraIndex#countersLook}), or 0 before first asked. */
    int countersLook;
    /** Per slice, the number in the pool of its first device (devices are numbered in slice order). */
    private final int[] sliceStart;

    PoolData(String driver, String name, List<ResourceSlice> slices, boolean incomplete) {
        this.driver = driver;
        this.name = name;
        this.slices = slices;
        this.incomplete = incomplete;
        boolean binding = false;
        int total = 0;
        Map<String, Map<String, BigDecimal>> sets = null; // most pools have no shared counters
        this.sliceStart = new int[slices.size()];
        int slice = 0;
        for (ResourceSlice s : slices) {
            sliceStart[slice++] = total;
            for (ResourceSlice.CounterSet cs : s.sharedCounters()) {
                if (sets == null) {
                    sets = new LinkedHashMap<>();
                }
                Map<String, BigDecimal> counters = sets.computeIfAbsent(cs.name(), k -> new LinkedHashMap<>());
                cs.counters().forEach((k, v) -> counters.put(k, Quantity.exact(v)));
            }
            for (Device d : s.devices()) {
                binding |= !d.bindingConditions().isEmpty();
            }
            total += s.devices().size();
        }
        this.sliceDevices = new AtomicReferenceArray<>(slices.size());
        this.sliceLooks = new int[slices.size()];
        java.util.Arrays.fill(sliceLooks, -1);
        this.total = total;
        this.hasBindingConditions = binding;
        this.counterSets = sets == null ? Map.of() : sets;
    }

    /** Slice {@code k}'s devices, aligned with its {@code devices}: made once, the same objects for every caller. */
    PoolDevice[] devices(int k) {
        PoolDevice[] a = sliceDevices.get(k);
        if (a != null) {
            return a;
        }
        ResourceSlice s = slices.get(k);
        List<Device> devices = s.devices();
        a = new PoolDevice[devices.size()];
        int first = invalid() ? -1 : sliceStart[k]; // a repeated name: one id, two devices, so held by id
        for (int i = 0; i < a.length; i++) {
            Device d = devices.get(i);
            a[i] = new PoolDevice(new AllocatedDevice(driver, name, d.name()), d, s, this, first < 0 ? -1 : first + i);
        }
        return sliceDevices.compareAndSet(k, null, a) ? a : sliceDevices.get(k); // a racing thread's, if it won
    }

    /** The first device name seen twice in the pool, or null. */
    private static String duplicateName(List<ResourceSlice> slices, int total) {
        if (slices.size() == 1 && total <= 16) { // one node's handful of devices: pairwise, nothing allocated
            List<Device> a = slices.get(0).devices();
            for (int i = 1; i < a.size(); i++) {
                String name = a.get(i).name();
                int hash = name.hashCode(); // names repeat from node to node (one string each): hashed once
                for (int j = 0; j < i; j++) {
                    String other = a.get(j).name();
                    if (other.hashCode() == hash && other.equals(name)) {
                        return name;
                    }
                }
            }
            return null;
        }
        Set<String> seen = new HashSet<>(total * 2);
        for (ResourceSlice s : slices) {
            for (Device d : s.devices()) {
                if (!seen.add(d.name())) {
                    return d.name();
                }
            }
        }
        return null;
    }

    /** How many devices the pool's slices list (the numbers of its devices run below it). */
    int deviceCount() {
        return total;
    }

    /** The pool's device of this name (the first one, should the pool repeat a name), or null. */
    PoolDevice device(String deviceName) {
        Map<String, PoolDevice> byName = devicesByName;
        if (byName == null) {
            byName = new HashMap<>();
            for (int k = 0; k < slices.size(); k++) {
                for (PoolDevice pd : devices(k)) {
                    byName.putIfAbsent(pd.device().name(), pd);
                }
            }
            devicesByName = byName;
        }
        return byName.get(deviceName);
    }

    /** Whether the pool is invalid: a device name repeats in it (then no device of it is allocated). */
    boolean invalid() {
        return repeatedName() != NONE;
    }

    /** Why the pool is invalid, or null when it is not. */
    String invalidReason() {
        String r = repeatedName();
        return r == NONE ? null : "duplicate device name " + r;
    }

    private String repeatedName() {
        String r = repeated;
        if (r == null) { // two threads may both work it out: the same answer
            String duplicate = duplicateName(slices, total);
            r = duplicate == null ? NONE : duplicate;
            repeated = r;
        }
        return r;
    }

    String id() {
        return driver + "/" + name;
    }
}
