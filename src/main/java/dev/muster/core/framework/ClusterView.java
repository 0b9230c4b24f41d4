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

    ResourceIndex resources();

    /** The PodGroup a reference names, or null. */
    PodGroup podGroup(GroupRef ref);
}
