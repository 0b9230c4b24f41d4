package dev.muster.core.dra;

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
     * placement symmetry compares nodes by). Pure memos, so decisions are the same either way; worth it
     * off the request's thread (a helper compiling a large request), and only when the request has claims or claim
     * templates for pods to use.
     *
     * @return this catalog
     */
    public ClaimCatalog warm() {
        if (!objects.resourceClaimTemplates().isEmpty() || !objects.resourceClaims().isEmpty()) {
            index.warmNodePools();
            if (index.allNodeLocal()) {
                DeviceLedger untouched = index.newLedger();
                index.forEachNode(node -> node.untouched = ClaimBook.deviceState(untouched, node.pools));
            }
        }
        return this;
    }
}
