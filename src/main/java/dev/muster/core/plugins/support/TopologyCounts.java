package dev.muster.core.plugins.support;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Counts per topology domain (topology key, label value). Filled in a sequential PreFilter/PreScore, then only
 * read, so concurrent lookups from Filter/Score are safe. Lookups allocate nothing. Keys are remembered in
 * first-seen order; callers only use them for order-independent checks and sums.
 */
public final class TopologyCounts {
    private final Map<String, Map<String, long[]>> byKey = new HashMap<>();
    private final List<String> keys = new ArrayList<>();

    /** Adds {@code delta} to a domain's count, creating the domain (also with delta 0). */
    public void add(String key, String value, long delta) {
        Map<String, long[]> values = byKey.get(key);
        if (values == null) {
            values = new HashMap<>();
            byKey.put(key, values);
            keys.add(key);
        }
        long[] c = values.get(value);
        if (c == null) {
            values.put(value, new long[] {delta});
        } else {
            c[0] += delta;
        }
    }

    /** The count of a domain; 0 when the domain was never added. */
    public long get(String key, String value) {
        Map<String, long[]> values = byKey.get(key);
        if (values == null) {
            return 0;
        }
        long[] c = values.get(value);
        return c == null ? 0 : c[0];
    }

    public boolean contains(String key, String value) {
        Map<String, long[]> values = byKey.get(key);
        return values != null && values.containsKey(value);
    }

    public boolean isEmpty() {
        return keys.isEmpty();
    }

    /** Topology keys with at least one domain, in first-seen order. */
    public List<String> keys() {
        return Collections.unmodifiableList(keys);
    }

    /** How many domains (distinct values) a key has. */
    public int domainCount(String key) {
        Map<String, long[]> values = byKey.get(key);
        return values == null ? 0 : values.size();
    }

    /** The smallest count among a key's domains, or {@link Long#MAX_VALUE} when it has none. */
    public long min(String key) {
        Map<String, long[]> values = byKey.get(key);
        long min = Long.MAX_VALUE;
        if (values != null) {
            for (long[] c : values.values()) {
                if (c[0] < min) {
                    min = c[0];
                }
            }
        }
        return min;
    }
}
