package dev.muster.core.dra;

import java.util.AbstractMap;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * An immutable map in insertion order that remembers its hash. Devices hold their attributes and capacities in
 * one: thousands of devices that look alike can share one instance (the request mapping shares equal ones), and
 * comparing or hashing devices then costs a reference check and a field read instead of a walk over the entries.
 */
public final class FrozenMap<K, V> extends AbstractMap<K, V> {
    private static final FrozenMap<?, ?> EMPTY = new FrozenMap<>(Map.of());

    private final Map<K, V> entries;
    /** The entries' hash once computed; 0 = not yet (a map whose hash is 0 computes it each time). */
    private int hash;

    private FrozenMap(Map<K, V> entries) {
        this.entries = entries;
    }

    /** {@code map} itself when it is already frozen, else a frozen copy (null = empty). */
    @SuppressWarnings("unchecked")
    public static <K, V> FrozenMap<K, V> copyOf(Map<? extends K, ? extends V> map) {
        if (map instanceof FrozenMap<?, ?> f) {
            return (FrozenMap<K, V>) f;
        }
        if (map == null || map.isEmpty()) {
            return (FrozenMap<K, V>) EMPTY;
        }
        return new FrozenMap<>(Collections.unmodifiableMap(new LinkedHashMap<>(map)));
    }

    @Override
    public Set<Entry<K, V>> entrySet() {
        return entries.entrySet();
    }

    @Override
    public V get(Object key) {
        return entries.get(key);
    }

    @Override
    public boolean containsKey(Object key) {
        return entries.containsKey(key);
    }

    @Override
    public int size() {
        return entries.size();
    }

    @Override
    public boolean equals(Object o) {
        if (o == this) {
            return true;
        }
        if (o instanceof FrozenMap<?, ?> f && f.hashCode() != hashCode()) {
            return false;
        }
        return entries.equals(o);
    }

    @Override
    public int hashCode() {
        int h = hash;
        if (h == 0) {
            h = entries.hashCode();
            hash = h; // a benign race, as String's: every thread computes the same value
        }
        return h;
    }
}
