package dev.muster.core.dra;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * An immutable map in insertion order that remembers its hash. Devices hold their attributes and capacities in
 * one: thousands of devices that look alike can share one instance (the request mapping shares equal ones), and
 * comparing or hashing devices then costs a reference check and a field read instead of a walk over the entries.
 * <p>
 * Keys and values sit in one array, found by a scan while the map is small, through an index (made at the first
 * look-up) beyond that: a request maps one per device, and a device with a unique attribute (a GPU's uuid) gets its
 * own, so building one allocates the array and nothing per entry. The index is one {@code int[]} of positions by key
 * hash (open addressing), not a hash map: a decision looks up the attributes of every device it considers, and a
 * hash map per device (a node and a boxed position per entry) was a tenth of the objects a decision on 40,000 such
 * devices kept alive while it ran.
 */
public final class FrozenMap<K, V> extends AbstractMap<K, V> {
    private static final FrozenMap<?, ?> EMPTY = new FrozenMap<>(new Object[0]);
    /** Up to this many entries a scan finds a key; beyond it an index does. */
    private static final int SCAN = 12;

    /** k0, v0, k1, v1, ... in insertion order; no key twice. */
    private final Object[] kv;
    /**
     * For maps beyond {@link #SCAN} entries, made at their first look-up: a power-of-two table of entry numbers plus
     * one (0 = a free slot), each at its key's hash, probing forward on a collision.
     */
    private volatile int[] index;
    /** The entries' hash once computed; 0 = not yet (a map whose hash is 0 computes it each time). */
    private int hash;

    private FrozenMap(Object[] kv) {
        this.kv = kv;
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
        Builder<K, V> b = new Builder<>(map.size());
        map.forEach(b::append); // a map's keys are distinct
        return b.build();
    }

    /** A builder for {@code size} entries, put in the order the map iterates them. */
    public static <K, V> Builder<K, V> builder(int size) {
        return new Builder<>(size);
    }

    /** Entries in insertion order; a key put twice keeps its first position and its last value, as a map's put. */
    public static final class Builder<K, V> {
        private Object[] kv;
        private int n;

        private Builder(int size) {
            kv = new Object[2 * Math.max(size, 0)];
        }

        public Builder<K, V> put(K key, V value) {
            for (int i = 0; i < n; i += 2) {
                if (Objects.equals(kv[i], key)) {
                    kv[i + 1] = value;
                    return this;
                }
            }
            return append(key, value);
        }

        /** Appends an entry whose key was not put before (as when copying a map's entries): no look-up. */
        public Builder<K, V> putDistinct(K key, V value) {
            return append(key, value);
        }

        private Builder<K, V> append(K key, V value) {
            if (n == kv.length) {
                kv = java.util.Arrays.copyOf(kv, Math.max(4, 2 * kv.length));
            }
            kv[n++] = key;
            kv[n++] = value;
            return this;
        }

        /** The map; its hash is computed when first asked for. */
        public FrozenMap<K, V> build() {
            return build(false);
        }

        /**
         * The map with its hash computed now, while its entries are in cache: for maps that will be hashed anyway (a
         * device's attributes and capacities key its slice's device list), saving a second walk over them later.
         */
        public FrozenMap<K, V> buildHashed() {
            return build(true);
        }

        @SuppressWarnings("unchecked")
        private FrozenMap<K, V> build(boolean hashed) {
            if (n == 0) {
                return (FrozenMap<K, V>) EMPTY;
            }
            Object[] entries = n == kv.length ? kv : java.util.Arrays.copyOf(kv, n);
            kv = null; // built once
            FrozenMap<K, V> map = new FrozenMap<>(entries);
            if (hashed) {
                map.hash = hash(entries);
            }
            return map;
        }
    }

    private int position(Object key) {
        Object[] a = kv;
        if (a.length > 2 * SCAN) {
            int[] at = index;
            if (at == null) {
                at = index(a);
                index = at; // a race makes an equal one
            }
            int mask = at.length - 1;
            for (int s = slot(key, mask), e; (e = at[s]) != 0; s = (s + 1) & mask) {
                Object k = a[2 * (e - 1)];
                if (k == key || key != null && key.equals(k)) {
                    return 2 * (e - 1);
                }
            }
            return -1;
        }
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

    /** The index of {@code kv}: a table at least twice the entries, so a probe meets a free slot soon. */
    private static int[] index(Object[] kv) {
        int entries = kv.length >> 1;
        int[] at = new int[Integer.highestOneBit(2 * entries - 1) << 1];
        int mask = at.length - 1;
        for (int e = 0; e < entries; e++) {
            int s = slot(kv[2 * e], mask);
            while (at[s] != 0) {
                s = (s + 1) & mask;
            }
            at[s] = e + 1;
        }
        return at;
    }

    private static int slot(Object key, int mask) {
        int h = Objects.hashCode(key);
        return (h ^ (h >>> 16)) & mask;
    }

    @Override
    @SuppressWarnings("unchecked")
    public V get(Object key) {
        int at = position(key);
        return at < 0 ? null : (V) kv[at + 1];
    }

    @Override
    public boolean containsKey(Object key) {
        return position(key) >= 0;
    }

    @Override
    public int size() {
        return kv.length >> 1;
    }

    @Override
    public boolean isEmpty() {
        return kv.length == 0;
    }

    @Override
    @SuppressWarnings("unchecked")
    public void forEach(BiConsumer<? super K, ? super V> action) {
        Object[] a = kv;
        for (int i = 0; i < a.length; i += 2) {
            action.accept((K) a[i], (V) a[i + 1]);
        }
    }

    @Override
    public Set<Entry<K, V>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public int size() {
                return kv.length >> 1;
            }

            @Override
            public Iterator<Entry<K, V>> iterator() {
                return new Iterator<>() {
                    private int i;

                    @Override
                    public boolean hasNext() {
                        return i < kv.length;
                    }

                    @Override
                    @SuppressWarnings("unchecked")
                    public Entry<K, V> next() {
                        if (i >= kv.length) {
                            throw new NoSuchElementException();
                        }
                        Entry<K, V> e = new SimpleImmutableEntry<>((K) kv[i], (V) kv[i + 1]);
                        i += 2;
                        return e;
                    }
                };
            }
        };
    }

    /** The key of entry {@code i}, in insertion order. */
    K keyAt(int i) {
        @SuppressWarnings("unchecked")
        K k = (K) kv[2 * i];
        return k;
    }

    /** The value of entry {@code i}, in insertion order. */
    V valueAt(int i) {
        @SuppressWarnings("unchecked")
        V v = (V) kv[2 * i + 1];
        return v;
    }

    @Override
    public boolean equals(Object o) {
        if (o == this) {
            return true;
        }
        if (o instanceof FrozenMap<?, ?> f) {
            if (f.kv.length != kv.length || f.hashCode() != hashCode()) {
                return false;
            }
            for (int i = 0; i < kv.length; i += 2) {
                int at = f.position(kv[i]);
                if (at < 0 || !Objects.equals(kv[i + 1], f.kv[at + 1])) {
                    return false;
                }
            }
            return true;
        }
        return super.equals(o);
    }

    @Override
    public int hashCode() {
        int h = hash;
        if (h == 0) {
            h = hash(kv);
            hash = h; // a benign race, as String's: every thread computes the same value
        }
        return h;
    }

    private static int hash(Object[] kv) {
        int h = 0;
        for (int i = 0; i < kv.length; i += 2) {
            h += Objects.hashCode(kv[i]) ^ Objects.hashCode(kv[i + 1]); // Map's hash: the sum of its entries'
        }
        return h;
    }
}
