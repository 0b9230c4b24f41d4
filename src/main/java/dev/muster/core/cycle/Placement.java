package dev.muster.core.cycle;

import dev.muster.core.framework.ClusterView;
import dev.muster.core.framework.NodeInfo;
import dev.muster.core.framework.ResourceIndex;
import dev.muster.core.model.GroupRef;
import dev.muster.core.model.PodGroup;
import dev.muster.core.snapshot.SnapshotOverlay;

/**
 * A set of nodes a PodGroup cycle may use (upstream's Placement): all nodes, or one topology domain. Node indices
 * are ascending, so iteration order is node-name order.
 *
 * @param name the domain value for a topology placement, or null for "all nodes"
 */
public final class Placement implements ClusterView {
    private final String name;
    private final SnapshotOverlay snapshot;
    private final int[] nodes;

    public Placement(String name, SnapshotOverlay snapshot, int[] nodes) {
        this.name = name;
        this.snapshot = snapshot;
        this.nodes = nodes;
    }

    public static Placement allNodes(SnapshotOverlay snapshot) {
        int[] all = new int[snapshot.nodeCount()];
        for (int i = 0; i < all.length; i++) {
            all[i] = i;
        }
        return new Placement(null, snapshot, all);
    }

    public String name() {
        return name;
    }

    /** The snapshot indices of this placement's nodes, ascending; callers must not modify them. */
    int[] nodeIndices() {
        return nodes;
    }

    /** The position of snapshot node {@code snapshotIndex} in this placement, or -1 when it is not in it. */
    int localIndex(int snapshotIndex) {
        if (nodes.length == snapshot.nodeCount()) {
            return snapshotIndex; // every node: ascending distinct indices below nodeCount are the identity
        }
        int at = java.util.Arrays.binarySearch(nodes, snapshotIndex);
        return at >= 0 ? at : -1;
    }

    /** Snapshot index of the i-th node of this placement. */
    public int nodeIndex(int i) {
        return nodes[i];
    }

    @Override
    public int nodeCount() {
        return nodes.length;
    }

    @Override
    public NodeInfo node(int i) {
        return snapshot.node(nodes[i]);
    }

    @Override
    public int allNodeCount() {
        return snapshot.nodeCount();
    }

    @Override
    public NodeInfo anyNode(int i) {
        return snapshot.node(i);
    }

    @Override
    public int nodeIndex(String name) {
        return snapshot.nodeIndex(name);
    }

    @Override
    public ResourceIndex resources() {
        return snapshot.resources();
    }

    @Override
    public PodGroup podGroup(GroupRef ref) {
        return snapshot.podGroups().get(ref);
    }

    @Override
    public java.util.SortedMap<String, int[]> topologyDomains(String key) {
        return snapshot.topologyDomains(key);
    }

    @Override
    public int podsWithAffinity() {
        return snapshot.podsWithAffinity();
    }

    @Override
    public int podsWithRequiredAntiAffinity() {
        return snapshot.podsWithRequiredAntiAffinity();
    }

    @Override
    public <T extends dev.muster.core.framework.PodIndex> T podIndex(dev.muster.core.framework.StateKey<T> key,
                                                                     java.util.function.Supplier<T> empty) {
        return snapshot.podIndex(key, empty);
    }

    @Override
    public dev.muster.core.dra.ClaimBook claims() {
        return snapshot.claims();
    }

    public SnapshotOverlay snapshot() {
        return snapshot;
    }
}
