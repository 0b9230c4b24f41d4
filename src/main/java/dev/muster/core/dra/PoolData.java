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

/** A pool at its highest generation. */
final class PoolData {
    final String driver;
    final String name;
    final List<ResourceSlice> slices;
    final boolean incomplete;
    final String invalidReason;
    final boolean hasBindingConditions;
    /** counter set → counter → total. */
    final Map<String, Map<String, BigDecimal>> counterSets;
    /** Each slice's devices, aligned with {@link #slices} and with the slice's {@code devices}. */
    final List<DraIndex.PoolDevice[]> sliceDevices;
    /** By name, built on first lookup: most pools are only walked, never looked up by name. */
    private volatile Map<String, DraIndex.PoolDevice> devicesByName;
    /** Position in the index's pool order (set once the pools are sorted). */
    int ordinal;
    /** A number per driver name, the same for pools of one driver (set once the pools are sorted). */
    int driverId;
    /** Per slice, the number of its device list ({@link #devicesLook}); -1 until first asked. */
    final int[] sliceLooks;

    PoolData(String driver, String name, List<ResourceSlice> slices, boolean incomplete) {
        this.driver = driver;
        this.name = name;
        this.slices = slices;
        this.incomplete = incomplete;
        boolean binding = false;
        int total = 0;
        Map<String, Map<String, BigDecimal>> sets = null; // most pools have no shared counters
        List<DraIndex.PoolDevice[]> perSlice = new ArrayList<>(slices.size());
        for (ResourceSlice s : slices) {
            for (ResourceSlice.CounterSet cs : s.sharedCounters()) {
                if (sets == null) {
                    sets = new LinkedHashMap<>();
                }
                Map<String, BigDecimal> counters = sets.computeIfAbsent(cs.name(), k -> new LinkedHashMap<>());
                cs.counters().forEach((k, v) -> counters.put(k, Quantity.exact(v)));
            }
            List<Device> devices = s.devices();
            DraIndex.PoolDevice[] pds = new DraIndex.PoolDevice[devices.size()];
            for (int i = 0; i < pds.length; i++) {
                Device d = devices.get(i);
                binding |= !d.bindingConditions().isEmpty();
                pds[i] = new DraIndex.PoolDevice(new AllocatedDevice(driver, name, d.name()), d, s, this);
            }
            perSlice.add(pds);
            total += pds.length;
        }
        this.sliceDevices = List.copyOf(perSlice);
        this.sliceLooks = new int[slices.size()];
        java.util.Arrays.fill(sliceLooks, -1);
        String duplicate = duplicateName(perSlice, total);
        this.invalidReason = duplicate == null ? null : "duplicate device name " + duplicate;
        this.hasBindingConditions = binding;
        this.counterSets = sets == null ? Map.of() : sets;
    }

    /** The first device name seen twice in the pool, or null. */
    private static String duplicateName(List<DraIndex.PoolDevice[]> perSlice, int total) {
        if (perSlice.size() == 1 && total <= 16) { // one node's handful of devices: pairwise, nothing allocated
            DraIndex.PoolDevice[] a = perSlice.get(0);
            for (int i = 1; i < a.length; i++) {
                for (int j = 0; j < i; j++) {
                    if (a[i].device().name().equals(a[j].device().name())) {
                        return a[i].device().name();
                    }
                }
            }
            return null;
        }
        Set<String> seen = new HashSet<>(total * 2);
        for (DraIndex.PoolDevice[] a : perSlice) {
            for (DraIndex.PoolDevice pd : a) {
                if (!seen.add(pd.device().name())) {
                    return pd.device().name();
                }
            }
        }
        return null;
    }

    /** The pool's device of this name (the first one, should the pool repeat a name), or null. */
    DraIndex.PoolDevice device(String deviceName) {
        Map<String, DraIndex.PoolDevice> byName = devicesByName;
        if (byName == null) {
            byName = new HashMap<>();
            for (DraIndex.PoolDevice[] a : sliceDevices) {
                for (DraIndex.PoolDevice pd : a) {
                    byName.putIfAbsent(pd.device().name(), pd);
                }
            }
            devicesByName = byName;
        }
        return byName.get(deviceName);
    }

    boolean invalid() {
        return invalidReason != null;
    }

    String id() {
        return driver + "/" + name;
    }
}
