package dev.muster.core.framework;

import dev.muster.core.model.PodGroup;
import dev.muster.core.model.GroupRef;

/**
 * What PreFilter and PreScore plugins may read of the whole cluster: every node (with bound and assumed pods)
 * of the current placement. Filter and Score see one node at a time.
 */
public interface ClusterView {
    /** Nodes of the current placement (all nodes unless a placement restricts them), in name order. */
    int nodeCount();

    NodeInfo node(int i);

    /** Every node of the snapshot, whatever the placement: existing pods elsewhere still count for spreading. */
    int allNodeCount();

    NodeInfo anyNode(int i);

    /** Snapshot index of the node with this name (for {@link #anyNode(int)}), or -1. */
    int nodeIndex(String name);

    ResourceIndex resources();

    /** The PodGroup a reference names, or null. */
    PodGroup podGroup(GroupRef ref);

    /**
     * Every node of the snapshot grouped by the value of a label (nodes without it left out), values in order,
     * node indices ascending. Computed once per key and snapshot.
     */
    java.util.SortedMap<String, int[]> topologyDomains(String key);

    /** Pods on nodes (bound or assumed) that carry pod affinity or anti-affinity terms of any kind, cluster-wide. */
    int podsWithAffinity();

    /** Pods on nodes that carry required pod anti-affinity terms, cluster-wide. */
    int podsWithRequiredAntiAffinity();

    /**
     * The snapshot's index under {@code key}: created with {@code empty}, fed every pod on a node, then kept current
     * as pods come and go; the same object for the rest of the run.
     */
    <T extends PodIndex> T podIndex(StateKey<T> key, java.util.function.Supplier<T> empty);

    /** The request's ResourceClaims with what this decision allocated and reserved, or null without any. */
    default dev.muster.core.dra.ClaimBook claims() {
        return null;
    }
}
