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
        Map<Object, Integer> ids = new HashMap<>(nodes.length * 4);
        int[] all = new int[nodes.length];
        int[] sans = new int[nodes.length];
        for (int i = 0; i < nodes.length; i++) {
            Map<String, String> labels = nodes[i].node().labels();
            all[i] = ids.computeIfAbsent(new Whole(labels), k -> ids.size());
            sans[i] = labels.containsKey(HOSTNAME) ? ids.computeIfAbsent(new SansHost(labels), k -> ids.size())
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

    /** A label set as a key; equal to a {@link SansHost} of a map that holds these labels plus a hostname. */
    private interface Key {
        Map<String, String> labels();

        boolean skipsHost();

        default int size() {
            return labels().size() - (skipsHost() && labels().containsKey(HOSTNAME) ? 1 : 0);
        }

        default boolean sameAs(Key o) {
            if (size() != o.size()) {
                return false;
            }
            for (Map.Entry<String, String> e : labels().entrySet()) {
                if (skipsHost() && e.getKey().equals(HOSTNAME)) {
                    continue;
                }
                if (o.skipsHost() && e.getKey().equals(HOSTNAME)) {
                    return false;
                }
                if (!Objects.equals(e.getValue(), o.labels().get(e.getKey()))
                        || (e.getValue() == null && !o.labels().containsKey(e.getKey()))) {
                    return false;
                }
            }
            return true;
        }

        /** {@link Map#hashCode()} of the set the key stands for (an entry's hash is key ^ value). */
        default int hash() {
            int h = labels().hashCode();
            if (skipsHost()) {
                String host = labels().get(HOSTNAME);
                if (host != null || labels().containsKey(HOSTNAME)) {
                    h -= HOSTNAME.hashCode() ^ Objects.hashCode(host);
                }
            }
            return h;
        }
    }

    private record Whole(Map<String, String> labels) implements Key {
        @Override
        public boolean skipsHost() {
            return false;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && sameAs(k);
        }

        @Override
        public int hashCode() {
            return hash();
        }
    }

    private record SansHost(Map<String, String> labels) implements Key {
        @Override
        public boolean skipsHost() {
            return true;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && sameAs(k);
        }

        @Override
        public int hashCode() {
            return hash();
        }
    }
}
