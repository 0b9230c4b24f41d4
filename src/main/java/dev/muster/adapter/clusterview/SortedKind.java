package dev.muster.adapter.clusterview;

import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One kind of object a {@link ViewStore} keeps: sorted by key, with the list last handed out, so the next list is that
 * one with the keys changed since merged in (array copies between them) rather than a walk of the whole tree. On a
 * million pods the walk chases a pointer per entry; a few changes then cost a copy of two arrays. Not thread-safe:
 * the store synchronises.
 */
final class SortedKind<V> {
    /** Past this share of changed keys, the list is rebuilt from the tree. */
    private static final int MERGE_LIMIT_DIVISOR = 64;

    private final TreeMap<String, V> map = new TreeMap<>();
    private final TreeSet<String> changed = new TreeSet<>();
    private String[] keys;
    private Object[] values;

    /** Whether the value changed (a new object or a new key). */
    boolean put(String key, V value) {
        V old = map.put(key, value);
        if (old == value) {
            return false;
        }
        changed.add(key);
        return true;
    }

    boolean remove(String key) {
        if (map.remove(key) == null) {
            return false;
        }
        changed.add(key);
        return true;
    }

    int size() {
        return map.size();
    }

    /** The values in key order, as they are now: an array list of its own, never changed afterwards. */
    @SuppressWarnings("unchecked")
    List<V> list() {
        if (keys == null || changed.size() > Math.max(64, keys.length / MERGE_LIMIT_DIVISOR)) {
            rebuild();
        } else if (!changed.isEmpty()) {
            merge();
        }
        changed.clear();
        return (List<V>) Arrays.asList(values);
    }

    private void rebuild() {
        int n = map.size();
        keys = new String[n];
        values = new Object[n];
        int i = 0;
        for (var e : map.entrySet()) {
            keys[i] = e.getKey();
            values[i++] = e.getValue();
        }
    }

    private void merge() {
        int n = map.size();
        String[] k = new String[n];
        Object[] v = new Object[n];
        int from = 0; // next unread position of the last list
        int to = 0;
        for (String key : changed) {
            int at = Arrays.binarySearch(keys, from, keys.length, key);
            int stop = at >= 0 ? at : -at - 1;
            System.arraycopy(keys, from, k, to, stop - from);
            System.arraycopy(values, from, v, to, stop - from);
            to += stop - from;
            from = at >= 0 ? at + 1 : stop; // the old entry of a changed key is dropped
            V now = map.get(key);
            if (now != null) {
                k[to] = key;
                v[to++] = now;
            }
        }
        System.arraycopy(keys, from, k, to, keys.length - from);
        System.arraycopy(values, from, v, to, keys.length - from);
        keys = k;
        values = v;
    }
}
