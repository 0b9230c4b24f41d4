package dev.muster.core.model;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * An immutable string-to-string map kept as two parallel arrays sorted by key: what labels, node selectors and
 * {@code matchLabels} are copied into. Iterates in key order and looks keys up by binary search, like the
 * {@code TreeMap} copies it replaces, but a copy is two arrays (and usually no sorting: Kubernetes writes map keys
 * sorted) instead of one tree node per entry, which matters for the 55,000 objects of a large snapshot.
 * Equality and hash code are {@link Map}'s. Null keys are rejected as {@code TreeMap} rejects them.
 */
public final class SortedStringMap extends AbstractMap<String, String> {
    private final String[] keys;
    private final String[] values;

    private SortedStringMap(String[] keys, String[] values) {
        this.keys = keys;
        this.values = values;
    }

    /** An immutable, key-ordered copy; {@code Map.of()} for null or empty; the map itself when already one. */
    public static Map<String, String> copyOf(Map<String, String> m) {
        if (m == null || m.isEmpty()) {
            return Map.of();
        }
        if (m instanceof SortedStringMap s) {
            return s;
        }
        Sorting sorting = new Sorting(m.size());
        m.forEach(sorting); // the map's own forEach: no entry object per entry, as some entry iterators make
        if (sorting.size != sorting.keys.length) {
            throw new IllegalStateException("map changed while being copied");
        }
        return new SortedStringMap(sorting.keys, sorting.values);
    }

    /** Insertion sort of the entries as they come (usually already in key order, so no move). */
    private static final class Sorting implements BiConsumer<String, String> {
        final String[] keys;
        final String[] values;
        int size;

        Sorting(int n) {
            keys = new String[n];
            values = new String[n];
        }

        @Override
        public void accept(String key, String value) {
            Objects.requireNonNull(key, "null key");
            if (size == keys.length) {
                throw new IllegalStateException("map changed while being copied");
            }
            int j = size - 1;
            while (j >= 0 && keys[j].compareTo(key) > 0) {
                keys[j + 1] = keys[j];
                values[j + 1] = values[j];
                j--;
            }
            keys[j + 1] = key;
            values[j + 1] = value;
            size++;
        }
    }

    /**
     * Whether every entry of {@code m} (a map made by {@link #copyOf}, or empty) is in {@code labels} with an equal,
     * non-null value: {@code matchLabels} matching, without iterator or entry objects.
     */
    static boolean containedIn(Map<String, String> m, Map<String, String> labels) {
        if (m instanceof SortedStringMap s) {
            for (int i = 0; i < s.keys.length; i++) {
                String v = labels.get(s.keys[i]);
                if (v == null || !v.equals(s.values[i])) {
                    return false;
                }
            }
            return true;
        }
        for (Map.Entry<String, String> e : m.entrySet()) {
            String v = labels.get(e.getKey());
            if (v == null || !v.equals(e.getValue())) {
                return false;
            }
        }
        return true;
    }

    private int indexOf(Object key) {
        String s = (String) Objects.requireNonNull(key);
        int lo = 0;
        int hi = keys.length - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int cmp = keys[mid].compareTo(s);
            if (cmp < 0) {
                lo = mid + 1;
            } else if (cmp > 0) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -1;
    }

    @Override
    public int size() {
        return keys.length;
    }

    @Override
    public boolean isEmpty() {
        return keys.length == 0;
    }

    @Override
    public String get(Object key) {
        int i = indexOf(key);
        return i < 0 ? null : values[i];
    }

    @Override
    public boolean containsKey(Object key) {
        return indexOf(key) >= 0;
    }

    @Override
    public void forEach(BiConsumer<? super String, ? super String> action) {
        for (int i = 0; i < keys.length; i++) {
            action.accept(keys[i], values[i]);
        }
    }

    @Override
    public boolean equals(Object o) {
        if (o instanceof SortedStringMap m) {
            return Arrays.equals(keys, m.keys) && Arrays.equals(values, m.values);
        }
        return super.equals(o);
    }

    @Override
    public int hashCode() {
        int h = 0;
        for (int i = 0; i < keys.length; i++) {
            h += keys[i].hashCode() ^ Objects.hashCode(values[i]);
        }
        return h;
    }

    @Override
    public Set<Entry<String, String>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public Iterator<Entry<String, String>> iterator() {
                return new Iterator<>() {
                    private int i;

                    @Override
                    public boolean hasNext() {
                        return i < keys.length;
                    }

                    @Override
                    public Entry<String, String> next() {
                        if (i >= keys.length) {
                            throw new NoSuchElementException();
                        }
                        Entry<String, String> e = new SimpleImmutableEntry<>(keys[i], values[i]);
                        i++;
                        return e;
                    }
                };
            }

            @Override
            public int size() {
                return keys.length;
            }
        };
    }
}
