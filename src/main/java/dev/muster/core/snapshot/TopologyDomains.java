package dev.muster.core.snapshot;

import dev.muster.core.framework.NodeInfo;

import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/** A snapshot's nodes grouped into topology domains by one label key. */
final class TopologyDomains {
    private TopologyDomains() {
    }

    /**
     * The nodes grouped by the value of label {@code key} (nodes without it left out), in value order, indices
     * ascending.
     */
    static SortedMap<String, int[]> group(NodeInfo[] nodes, String key) {
        // one label lookup per node: each node's value numbered in order of first sight, then filled in by number
        Map<String, Integer> numbers = new HashMap<>();
        int[] numberOf = new int[nodes.length];
        int[] sizes = new int[Math.min(nodes.length, 16)];
        for (int i = 0; i < nodes.length; i++) {
            String v = nodes[i].node().labels().get(key);
            if (v == null) {
                numberOf[i] = -1;
                continue;
            }
            int n = numbers.computeIfAbsent(v, k -> numbers.size());
            if (n == sizes.length) {
                sizes = Arrays.copyOf(sizes, n * 2);
            }
            sizes[n]++;
            numberOf[i] = n;
        }
        int[][] domains = new int[numbers.size()][];
        TreeMap<String, int[]> out = new TreeMap<>();
        for (Map.Entry<String, Integer> e : numbers.entrySet()) {
            domains[e.getValue()] = new int[sizes[e.getValue()]];
            out.put(e.getKey(), domains[e.getValue()]);
        }
        int[] filled = new int[domains.length];
        for (int i = 0; i < numberOf.length; i++) {
            int n = numberOf[i];
            if (n >= 0) {
                domains[n][filled[n]++] = i;
            }
        }
        return Collections.unmodifiableSortedMap(out);
    }
}
