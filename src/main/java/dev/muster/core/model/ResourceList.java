package dev.muster.core.model;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * Amounts of named resources in the units kube-scheduler compares them in: {@code cpu} in millicores,
 * every other resource (memory, ephemeral-storage, pods, extended resources) in whole units rounded up,
 * as {@code resource.Quantity.Value()} does. Names are kept sorted so iteration is deterministic.
 */
public record ResourceList(Map<String, Long> amounts) {
    public static final String CPU = "cpu";
    public static final String MEMORY = "memory";
    public static final String EPHEMERAL_STORAGE = "ephemeral-storage";
    public static final String PODS = "pods";
    public static final ResourceList EMPTY = new ResourceList(Map.of());

    public ResourceList {
        amounts = Collections.unmodifiableMap(new TreeMap<>(amounts));
    }

    public static ResourceList of(Map<String, Long> amounts) {
        return amounts.isEmpty() ? EMPTY : new ResourceList(amounts);
    }

    public long get(String name) {
        Long v = amounts.get(name);
        return v == null ? 0L : v;
    }

    public boolean isEmpty() {
        return amounts.isEmpty();
    }

    /** Whether a name is a resource kube-scheduler treats as "scalar" (extended, hugepages, attachable volumes). */
    public static boolean isScalar(String name) {
        return !CPU.equals(name) && !MEMORY.equals(name) && !EPHEMERAL_STORAGE.equals(name) && !PODS.equals(name);
    }
}
