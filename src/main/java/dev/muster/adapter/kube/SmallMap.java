package dev.muster.adapter.kube;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * An unmodifiable, insertion-ordered map of a few String keys (labels, annotations, resource quantities): keys and
 * values in one array, looked up by a linear scan. The streaming decoders build one per label or quantity map of a
 * request (a {@code large} request has ~300,000 of them, most with 1–3 entries), where a LinkedHashMap costs an
 * entry object per key plus a 16-slot table: fewer, smaller objects to allocate and for the GC to copy.
 * Bigger maps stay LinkedHashMaps ({@link Builder#build()}). Equality and hash code are those of any Map.
 */
final class SmallMap<V> extends AbstractMap<String, V> {
    /** Beyond this many entries a scan is no longer cheaper than hashing. */
    static final int MAX = 16;
    static final SmallMap<Object> EMPTY = new SmallMap<>(new Object[0]);

    /** k0, v0, k1, v1, ... */
    private final Object[] kv;
    /** The hash code once computed (0 before; immutable keys and values, as for String's). */
    private int hash;

    private SmallMap(Object[] kv) {
        this.kv = kv;
    }

    @Override
    public int size() {
        return kv.length >> 1;
    }

    @Override
    public boolean isEmpty() {
        return kv.length == 0;
    }

    private int indexOf(Object key) {
        Object[] a = kv;
        for (int i = 0; i < a.length; i += 2) {
            if (a[i] == key) {
                return i;
            }
        }
        if (key != null) {
            for (int i = 0; i < a.length; i += 2) {
                if (key.equals(a[i])) {
                    return i;
                }
            }
        }
        return -1;
    }

    @Override
    @SuppressWarnings("unchecked")
    public V get(Object key) {
        int i = indexOf(key);
        return i < 0 ? null : (V) kv[i + 1];
    }

    @Override
    public boolean containsKey(Object key) {
        return indexOf(key) >= 0;
    }

    @Override
    public boolean containsValue(Object value) {
        for (int i = 1; i < kv.length; i += 2) {
            if (kv[i].equals(value)) {
                return true;
            }
        }
        return false;
    }

    /** As {@link Map#hashCode()} specifies it, without an entry object per key. */
    @Override
    public int hashCode() {
        int h = hash;
        if (h == 0) {
            for (int i = 0; i < kv.length; i += 2) {
                h += kv[i].hashCode() ^ kv[i + 1].hashCode();
            }
            hash = h;
        }
        return h;
    }

    @Override
    public boolean equals(Object o) {
        if (o == this) {
            return true;
        }
        if (o instanceof Map<?, ?> other) { // as AbstractMap compares, without an entry object per key
            if (other.size() != kv.length >> 1) {
                return false;
            }
            try {
                for (int i = 0; i < kv.length; i += 2) {
                    if (!kv[i + 1].equals(other.get(kv[i]))) {
                        return false;
                    }
                }
            } catch (ClassCastException | NullPointerException unused) {
                return false; // a map that cannot hold these keys
            }
            return true;
        }
        return false;
    }

    @Override
    @SuppressWarnings("unchecked")
    public void forEach(BiConsumer<? super String, ? super V> action) {
        for (int i = 0; i < kv.length; i += 2) {
            action.accept((String) kv[i], (V) kv[i + 1]);
        }
    }

    /** The keys, without an entry object per key (label keys are walked on every node). */
    @Override
    public Set<String> keySet() {
        return new AbstractSet<>() {
            @Override
            public int size() {
                return kv.length >> 1;
            }

            @Override
            public boolean contains(Object key) {
                return indexOf(key) >= 0;
            }

            @Override
            public Iterator<String> iterator() {
                return new Walk<>() {
                    @Override
                    String at(int i) {
                        return (String) kv[i];
                    }
                };
            }
        };
    }

    @Override
    public Set<Entry<String, V>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public int size() {
                return kv.length >> 1;
            }

            @Override
            public Iterator<Entry<String, V>> iterator() {
                return new Walk<>() {
                    @Override
                    @SuppressWarnings("unchecked")
                    Entry<String, V> at(int i) {
                        return new SimpleImmutableEntry<>((String) kv[i], (V) kv[i + 1]);
                    }
                };
            }
        };
    }

    /** Walks the entries in order, giving what {@link #at} makes of the entry at each key index. */
    private abstract class Walk<T> implements Iterator<T> {
        private int i;

        abstract T at(int keyIndex);

        @Override
        public boolean hasNext() {
            return i < kv.length;
        }

        @Override
        public T next() {
            if (i >= kv.length) {
                throw new NoSuchElementException();
            }
            T t = at(i);
            i += 2;
            return t;
        }
    }

    /**
     * Collects one map's entries (reused from map to map: the decoders never read two maps at once). A repeated key
     * keeps its first position and takes the last value, as {@code LinkedHashMap.put} does.
     */
    static final class Builder {
        private Object[] kv = new Object[2 * MAX];
        private int n;
        private LinkedHashMap<String, Object> big;

        void reset() {
            n = 0;
            big = null;
        }

        void put(String key, Object value) {
            if (big != null) {
                big.put(key, value);
                return;
            }
            for (int i = 0; i < n; i += 2) {
                if (kv[i] == key || kv[i].equals(key)) {
                    kv[i + 1] = value;
                    return;
                }
            }
            if (n == kv.length) {
                big = new LinkedHashMap<>();
                for (int i = 0; i < n; i += 2) {
                    big.put((String) kv[i], kv[i + 1]);
                }
                big.put(key, value);
                return;
            }
            kv[n] = key;
            kv[n + 1] = value;
            n += 2;
        }

        @SuppressWarnings("unchecked")
        <V> Map<String, V> build() {
            Map<String, V> m = big != null ? (Map<String, V>) big
                    : n == 0 ? (Map<String, V>) (Map<String, ?>) EMPTY : new SmallMap<>(Arrays.copyOf(kv, n));
            n = 0;
            big = null;
            return m;
        }
    }
}
