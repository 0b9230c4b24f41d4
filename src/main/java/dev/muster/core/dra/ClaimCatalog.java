package dev.muster.core.dra;

import dev.muster.core.model.Node;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What a request's DRA objects say before any decision: claims and templates by {@code namespace/name}, and the
 * device index with the devices snapshot claims already hold. Built once per request; every decision run opens its
 * own {@link ClaimBook} on it.
 */
public final class ClaimCatalog {
    private final DraObjects objects;
    final DraIndex index;
    final Map<String, ResourceClaim> claims = new HashMap<>();
    final Map<String, ResourceClaimTemplate> templates = new HashMap<>();
    /** Claims made for a pod's extended resources, by that pod (the first such claim in request order). */
    final Map<ResourceClaim.MadeFor, ResourceClaim> madeFor = new HashMap<>();
    /** Nodes' untouched device states, one object per distinct state ({@link #warm}): compared by reference. */
    private final Map<Object, Object> states = new java.util.concurrent.ConcurrentHashMap<>();

    public ClaimCatalog(DraObjects objects) {
        this.objects = objects;
        List<AllocationResult> allocations = new ArrayList<>();
        for (ResourceClaim c : objects.resourceClaims()) {
            claims.put(c.key(), c);
            if (c.madeFor() != null) {
                madeFor.putIfAbsent(c.madeFor(), c);
            }
            if (c.allocation() != null) {
                allocations.add(c.allocation());
            }
        }
        for (ResourceClaimTemplate t : objects.resourceClaimTemplates()) {
            templates.put(t.namespace() + "/" + t.name(), t);
        }
        this.index = DraIndex.build(objects.deviceClasses(), objects.resourceSlices(), allocations);
    }

    /** Whether this is the catalog of exactly these objects. */
    public boolean isOf(DraObjects dra) {
        return objects == dra;
    }

    /**
     * Works out now what decision runs would otherwise work out on first use, node by node: which pools each node sees,
     * a number per slice's device list, and how each node's devices are held before anything is decided (what
     * placement symmetry compares nodes by; nodes whose states are equal share one state object). Pure memos, so
     * decisions are the same either way; worth it off the request's thread (a helper compiling a large request), and
     * only when the request has claims or claim templates for pods to use.
     *
     * @return this catalog
     */
    public ClaimCatalog warm() {
        return warm(0, 1);
    }

    /**
     * Part {@code part} of {@code parts} of {@link #warm()}: the pools whose position in the index's order is
     * {@code part} modulo {@code parts}, and the nodes they are local to. Parts may run on several threads at once (a
     * compile helper and the request's thread once it has validated); all parts together do what {@link #warm()}
     * does.
     *
     * @return this catalog
     */
    public ClaimCatalog warm(int part, int parts) {
        return warm(part, parts, null);
    }

    /**
     * As {@link #warm(int, int)} for the nodes of the snapshot the catalog will serve, in the snapshot's order (null:
     * every node a slice names): a decision run then finds each node's devices by its position.
     */
    public ClaimCatalog warm(int part, int parts, List<Node> snapshotNodes) {
        if (!objects.resourceClaimTemplates().isEmpty() || !objects.resourceClaims().isEmpty()) {
            List<DraIndex.NodeDevices> nodes = snapshotNodes == null ? index.warmNodePools(part, parts)
                    : index.warmNodes(snapshotNodes, part, parts);
            if (index.allNodeLocal()) {
                DeviceLedger untouched = index.newLedger();
                for (DraIndex.NodeDevices node : nodes) {
                    node.untouched = states.computeIfAbsent(ClaimBook.deviceState(untouched, node.pools), s -> s);
                }
            }
        }
        return this;
    }
}
