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

    private final String[] names;
    private final long[] values;
    /** The map view, built on first use ({@link #amounts()} is not on any hot path). */
    private volatile Map<String, Long> amounts;

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

    /** Takes ownership of two parallel arrays already sorted by name, without duplicates. */
    private ResourceList(String[] names, long[] values) {
        this.names = names;
        this.values = values;
    }

    public static ResourceList of(Map<String, Long> amounts) {
        return amounts.isEmpty() ? EMPTY : new ResourceList(amounts);
    }

    /**
     * The first {@code size} names and amounts of two parallel arrays, in any order (copied, then sorted by name:
     * pods and nodes name a handful of resources, so no map is built). Same result as {@link #of(Map)} on the
     * equivalent map.
     *
     * @throws IllegalArgumentException when a name is null or appears twice
     */
    public static ResourceList of(String[] names, long[] values, int size) {
        if (size == 0) {
            return EMPTY;
        }
        String[] n = Arrays.copyOf(names, size);
        long[] v = Arrays.copyOf(values, size);
        // insertion sort: a handful of entries, often already sorted
        for (int i = 1; i < size; i++) {
            String key = n[i];
            long val = v[i];
            int j = i - 1;
            while (j >= 0 && n[j].compareTo(key) > 0) {
                n[j + 1] = n[j];
                v[j + 1] = v[j];
                j--;
            }
            n[j + 1] = key;
            v[j + 1] = val;
        }
        for (int i = 1; i < size; i++) {
            if (n[i].equals(n[i - 1])) {
                throw new IllegalArgumentException("resource named twice: " + n[i]);
            }
        }
        return new ResourceList(n, v);
    }

    /** The amounts by name, sorted by name. */
    public Map<String, Long> amounts() {
        Map<String, Long> m = amounts;
        if (m == null) {
            TreeMap<String, Long> sorted = new TreeMap<>();
            for (int i = 0; i < names.length; i++) {
                sorted.put(names[i], values[i]);
            }
            m = Collections.unmodifiableMap(sorted);
            amounts = m;
        }
        return m;
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
        return "ResourceList" + amounts();
    }
}
