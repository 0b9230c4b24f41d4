package dev.muster.core.snapshot;

import dev.muster.core.framework.NodeInfo;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Each node's whole label set numbered, with and without its hostname label: nodes with equal label sets share a
 * number. Labels never change within a snapshot, so it is numbered once per snapshot (lazily) and handed on to the
 * snapshots derived from it while their nodes keep their labels. Numbers compare only within one snapshot.
 */
public final class LabelSets {
    public static final String HOSTNAME = "kubernetes.io/hostname";

    private final int[] all;
    private final int[] sansHost;
    private final int count;

    private LabelSets(int[] all, int[] sansHost, int count) {
        this.all = all;
        this.sansHost = sansHost;
        this.count = count;
    }

    static LabelSets of(NodeInfo[] nodes) {
        Map<Key, Integer> ids = new HashMap<>(nodes.length * 4);
        int[] all = new int[nodes.length];
        int[] sans = new int[nodes.length];
        for (int i = 0; i < nodes.length; i++) {
            Map<String, String> labels = nodes[i].node().labels();
            all[i] = ids.computeIfAbsent(new Key(labels, false), k -> ids.size());
            sans[i] = labels.containsKey(HOSTNAME) ? ids.computeIfAbsent(new Key(labels, true), k -> ids.size())
                    : all[i];
        }
        return new LabelSets(all, sans, ids.size());
    }

    /** The number of the node's whole label set. */
    public int all(int node) {
        return all[node];
    }

    /** The number of the node's label set without {@value #HOSTNAME}. */
    public int sansHost(int node) {
        return sansHost[node];
    }

    /** Numbers are below this. */
    public int count() {
        return count;
    }

    /**
     * A label set as a key: the whole map, or the map without {@value #HOSTNAME} ({@code skipsHost}). Keys of either
     * kind are equal when they stand for the same set, so a node without a hostname label shares its number with the
     * hostless set of a node that has one.
     */
    private record Key(Map<String, String> labels, boolean skipsHost) {
        private int size() {
            return labels.size() - (skipsHost && labels.containsKey(HOSTNAME) ? 1 : 0);
        }

        @Override
        public boolean equals(Object other) {
            if (!(other instanceof Key o) || size() != o.size()) {
                return false;
            }
            for (Map.Entry<String, String> e : labels.entrySet()) {
                if (e.getKey().equals(HOSTNAME)) {
                    if (skipsHost) {
                        continue;
                    }
                    if (o.skipsHost) {
                        return false;
                    }
                }
                if (!Objects.equals(e.getValue(), o.labels.get(e.getKey()))
                        || (e.getValue() == null && !o.labels.containsKey(e.getKey()))) {
                    return false;
                }
            }
            return true;
        }

        /** {@link Map#hashCode()} of the set the key stands for (an entry's hash is key ^ value). */
        @Override
        public int hashCode() {
            int h = labels.hashCode();
            if (skipsHost && labels.containsKey(HOSTNAME)) {
                h -= HOSTNAME.hashCode() ^ Objects.hashCode(labels.get(HOSTNAME));
            }
            return h;
        }
    }
}
