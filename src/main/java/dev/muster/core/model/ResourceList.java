package dev.muster.core.model;

import java.util.Arrays;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * Amounts of named resources in the units kube-scheduler compares them in: {@code cpu} in millicores,
 * every other resource (memory, ephemeral-storage, pods, extended resources) in whole units rounded up,
 * as {@code resource.Quantity.Value()} does. Names are kept sorted so iteration is deterministic.
 * <p>
 * Immutable. Besides the map view, the names and amounts are kept in two parallel sorted arrays, so compiling
 * a 50,000-pod snapshot walks arrays instead of map iterators.
 */
public final class ResourceList {
    public static final String CPU = "cpu";
    public static final String MEMORY = "memory";
    public static final String EPHEMERAL_STORAGE = "ephemeral-storage";
    public static final String PODS = "pods";
    public static final ResourceList EMPTY = new ResourceList(Map.of());

    private final Map<String, Long> amounts;
    private final String[] names;
    private final long[] values;

    public ResourceList(Map<String, Long> amounts) {
        TreeMap<String, Long> sorted = new TreeMap<>(amounts);
        this.amounts = Collections.unmodifiableMap(sorted);
        this.names = new String[sorted.size()];
        this.values = new long[sorted.size()];
        int i = 0;
        for (Map.Entry<String, Long> e : sorted.entrySet()) {
            names[i] = e.getKey();
            values[i++] = e.getValue();
        }
    }

    public static ResourceList of(Map<String, Long> amounts) {
        return amounts.isEmpty() ? EMPTY : new ResourceList(amounts);
    }

    /** The amounts by name, sorted by name. */
    public Map<String, Long> amounts() {
        return amounts;
    }

    /** Number of named resources. */
    public int size() {
        return names.length;
    }

    /** The i-th resource name in name order. */
    public String name(int i) {
        return names[i];
    }

    /** The i-th amount in name order. */
    public long value(int i) {
        return values[i];
    }

    public long get(String name) {
        int i = Arrays.binarySearch(names, name);
        return i < 0 ? 0L : values[i];
    }

    /** Whether the resource is named at all (an explicit 0 counts). */
    public boolean has(String name) {
        return Arrays.binarySearch(names, name) >= 0;
    }

    public boolean isEmpty() {
        return names.length == 0;
    }

    /** Whether a name is a resource kube-scheduler treats as "scalar" (extended, hugepages, attachable volumes). */
    public static boolean isScalar(String name) {
        return !CPU.equals(name) && !MEMORY.equals(name) && !EPHEMERAL_STORAGE.equals(name) && !PODS.equals(name);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ResourceList r && Arrays.equals(names, r.names) && Arrays.equals(values, r.values);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(names) + Arrays.hashCode(values);
    }

    @Override
    public String toString() {
        return "ResourceList" + amounts;
    }
}
