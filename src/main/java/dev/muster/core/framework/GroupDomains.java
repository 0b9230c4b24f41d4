package dev.muster.core.framework;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The domains of a topology key a group may be placed in, one rule for the topology placement generator, preemption
 * inside a domain and a CompositePodGroup's tree: the snapshot's nodes grouped by the key's value ({@link
 * ClusterView#topologyDomains}; a node without the label is in none), in value order, each cut down to the parent
 * placement's nodes with empty ones left out, and only the domain the group's bound members pin it to.
 */
public final class GroupDomains {
    private GroupDomains() {
    }

    /** One domain of {@code key}: its label value and its nodes (snapshot indices, ascending; not to be modified). */
    public record Domain(String key, String value, int[] nodes) {
        /** {@code key=value}: the name candidate placements and messages give the domain. */
        public String name() {
            return key + "=" + value;
        }
    }

    /**
     * Where a group's bound members sit under one key, read in their order up to the first conflict: {@code value}
     * the domain of the first that has one (null when none pins the group); {@code split} when a later one sits in
     * another domain; {@code outside} the first that sits in no domain (on a node without the label, or on no node of
     * the snapshot), when such a member conflicts.
     */
    public record Pin(String value, boolean split, PodInfo outside) {
        /** No bound member pins the group: every domain is open to it. */
        public static final Pin NONE = new Pin(null, false, null);

        /** Whether the bound members leave the group no domain of the key. */
        public boolean conflict() {
            return split || outside != null;
        }

        /** Whether the group may use the domain with this label value. */
        public boolean admits(String domain) {
            return !conflict() && (value == null || value.equals(domain));
        }
    }

    /**
     * Where bound members pin a group that needs all its members in one domain: a member that sits in no domain is
     * a conflict, as members in two domains are.
     */
    public static Pin pin(Iterable<PodInfo> bound, String key, ClusterView cluster) {
        return pin(bound, key, cluster, true);
    }

    /**
     * Where bound members pin a group when only those that sit in a domain count: a member on a node without the
     * label pins nothing; members in two domains still conflict.
     */
    public static Pin pinSkippingOutside(Iterable<PodInfo> bound, String key, ClusterView cluster) {
        return pin(bound, key, cluster, false);
    }

    private static Pin pin(Iterable<PodInfo> bound, String key, ClusterView cluster, boolean outsideConflicts) {
        String pinned = null;
        for (PodInfo b : bound) {
            int at = cluster.nodeIndex(b.pod().nodeName());
            String v = at < 0 ? null : cluster.anyNode(at).node().labels().get(key);
            if (v == null) {
                if (outsideConflicts) {
                    return new Pin(pinned, false, b);
                }
                continue;
            }
            if (pinned == null) {
                pinned = v;
            } else if (!pinned.equals(v)) {
                return new Pin(pinned, true, null);
            }
        }
        return pinned == null ? Pin.NONE : new Pin(pinned, false, null);
    }

    /**
     * The domains of {@code key} the pin admits, in value order, each cut down to the parent's nodes (ascending
     * snapshot indices; null for every node) and left out when nothing of it is in the parent. None when the pin
     * is a conflict.
     */
    public static List<Domain> domains(ClusterView cluster, String key, Pin pin, int[] parent) {
        List<Domain> out = new ArrayList<>();
        if (pin.conflict()) {
            return out;
        }
        int allNodes = cluster.allNodeCount();
        for (Map.Entry<String, int[]> e : cluster.topologyDomains(key).entrySet()) {
            if (!pin.admits(e.getKey())) {
                continue;
            }
            int[] nodes = nodesIn(e.getValue(), parent, allNodes);
            if (nodes.length > 0) {
                out.add(new Domain(key, e.getKey(), nodes));
            }
        }
        return out;
    }

    /**
     * The domain's nodes that are also in the parent (both ascending snapshot indices, of a snapshot of {@code
     * allNodes} nodes; a null parent is every node); the domain itself when the parent is every node. A parent of the
     * snapshot's first few nodes only (a composite's domain) is not every node: its length tells them apart.
     */
    static int[] nodesIn(int[] domain, int[] parent, int allNodes) {
        if (parent == null || parent.length == allNodes) {
            return domain; // ascending distinct indices below allNodes, as many as there are nodes: every node
        }
        int[] out = new int[domain.length];
        int k = 0;
        for (int d : domain) {
            if (Arrays.binarySearch(parent, d) >= 0) {
                out[k++] = d;
            }
        }
        return Arrays.copyOf(out, k);
    }
}
