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
    final Map<String, ResourceClaim> claims;
    /**
     * Each claim with its key in {@link #claims}, by namespace and name: a pod's claim is found without making its key
     * again, and the maps of a decision then look up that one key object (its hash kept, compared by reference).
     */
    private final Map<String, Map<String, Keyed>> keys = new HashMap<>();

    /** A claim of the request with its key in {@link #claims}. */
    record Keyed(String key, ResourceClaim claim) {
    }
    final Map<String, ResourceClaimTemplate> templates = new HashMap<>();
    /**
     * Every distinct claim spec of the request, one object each: the claims the controller generated from one
     * template share their template's spec object, so allocations remembered per spec reach every such claim.
     */
    private final Map<ResourceClaimSpec, ResourceClaimSpec> specs = new HashMap<>();
    /** Each claim's and template's spec object to its {@link #specs} one: found by identity, no deep hash per look-up. */
    private final Map<ResourceClaimSpec, ResourceClaimSpec> canonicalOf = new java.util.IdentityHashMap<>();
    /** Claims made for a pod's extended resources, by that pod (the first such claim in request order). */
    final Map<ResourceClaim.MadeFor, ResourceClaim> madeFor = new HashMap<>();
    /** Nodes' untouched device states, one object per distinct state ({@link #warm}): compared by reference. */
    private final Map<Object, Object> states = new java.util.concurrent.ConcurrentHashMap<>();
    /** The next chunk of a shared warm-up ({@link #warmShare}). */
    private final java.util.concurrent.atomic.AtomicInteger cursor = new java.util.concurrent.atomic.AtomicInteger();

    public ClaimCatalog(DraObjects objects) {
        this.objects = objects;
        this.claims = new HashMap<>(objects.resourceClaims().size() * 4 / 3 + 1);
        List<AllocationResult> allocations = new ArrayList<>();
        for (ResourceClaimTemplate t : objects.resourceClaimTemplates()) {
            keep(t.spec());
        }
        for (ResourceClaim c : objects.resourceClaims()) {
            String key = c.key();
            claims.put(key, c);
            keys.computeIfAbsent(c.namespace(), n -> new HashMap<>()).put(c.name(), new Keyed(key, c));
            keep(c.spec());
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
        index.readAttributes(readAttributes(objects.deviceClasses(), specs.keySet()));
    }

    /** The request's claim of that namespace and name with its key (as {@link #claims} has it), or null. */
    Keyed find(String namespace, String name) {
        Map<String, Keyed> named = keys.get(namespace);
        return named == null ? null : named.get(name);
    }

    /**
     * The attributes, fully qualified, that the classes' and specs' selectors and constraints read: all a decision
     * can learn of a device's attributes (how alike nodes look to placement symmetry); null when a selector cannot say.
     */
    public static java.util.Set<String> readAttributes(java.util.Collection<DeviceClass> classes,
                                                       java.util.Collection<ResourceClaimSpec> specs) {
        java.util.Set<String> out = new java.util.HashSet<>();
        for (DeviceClass c : classes) {
            if (!addReads(out, c.selectors())) {
                return null;
            }
        }
        for (ResourceClaimSpec spec : specs) {
            for (ResourceClaimSpec.Request r : spec.requests()) {
                if (r.exactly() != null && !addReads(out, r.exactly().selectors())) {
                    return null;
                }
                for (ResourceClaimSpec.SubRequest sub : r.firstAvailable()) {
                    if (!addReads(out, sub.selectors())) {
                        return null;
                    }
                }
            }
            for (ResourceClaimSpec.Constraint c : spec.constraints()) {
                out.add(c.matchAttribute() != null ? c.matchAttribute() : c.distinctAttribute());
            }
        }
        return out;
    }

    /**
     * The keys under which a device of {@code driver} may publish the fully qualified attributes {@code qualified}
     * ({@link #readAttributes}): each as it is, and those of the driver's own domain by their bare name.
     */
    public static java.util.Set<String> keys(java.util.Set<String> qualified, String driver) {
        return DeviceList.keys(qualified, driver);
    }

    private static boolean addReads(java.util.Set<String> out, List<DeviceSelector> selectors) {
        for (DeviceSelector s : selectors) {
            SelectorReads reads = s.reads();
            if (reads == null) {
                return false;
            }
            for (SelectorReads.Name n : reads.attributes()) {
                out.add(n.qualified());
            }
        }
        return true;
    }

    private void keep(ResourceClaimSpec spec) {
        if (canonicalOf.containsKey(spec)) {
            return; // this very object again (the claims of one template share it): no deep hash
        }
        ResourceClaimSpec first = specs.putIfAbsent(spec, spec);
        canonicalOf.put(spec, first == null ? spec : first);
    }

    /** The one object of the request's specs equal to {@code spec} (the spec of a claim or template of the request). */
    ResourceClaimSpec canonical(ResourceClaimSpec spec) {
        ResourceClaimSpec c = canonicalOf.get(spec);
        if (c == null) {
            c = specs.get(spec);
        }
        return c == null ? spec : c;
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
        if (warmsSomething()) {
            int n = index.poolCount();
            keepUntouched(index.warmNodePools(0, n));
        }
        return this;
    }

    /**
     * A share of {@link #warm()}, for the nodes of the snapshot the catalog will serve, in the snapshot's order (then a
     * decision run finds each node's devices by position; null: every node a slice names): takes chunks nobody has
     * taken yet until none are left. Several threads may call it at once, with the same list, to share one warm-up (a
     * compile helper and the request's thread once it has validated); together they do what {@link #warm()} does.
     *
     * @return this catalog
     */
    public ClaimCatalog warmShare(List<Node> snapshotNodes) {
        return warmShare(snapshotNodes, WARM_CHUNK);
    }

    /** {@link #warmShare(List)} in chunks of {@code chunk} nodes or pools. */
    ClaimCatalog warmShare(List<Node> snapshotNodes, int chunk) {
        if (!warmsSomething()) {
            return this;
        }
        int n = snapshotNodes == null ? index.poolCount() : snapshotNodes.size();
        for (int from = cursor.getAndAdd(chunk); from < n; from = cursor.getAndAdd(chunk)) {
            int to = Math.min(n, from + chunk);
            keepUntouched(snapshotNodes == null ? index.warmNodePools(from, to)
                    : index.warmNodes(snapshotNodes, from, to));
        }
        return this;
    }

    /** Nodes or pools per share of a warm-up taken at once: small enough for two threads to end together. */
    static final int WARM_CHUNK = 128;

    private boolean warmsSomething() {
        return !objects.resourceClaimTemplates().isEmpty() || !objects.resourceClaims().isEmpty();
    }

    /** Works out the untouched device state of these nodes, equal states shared (when every pool is node-local). */
    private void keepUntouched(List<NodeDevices> nodes) {
        if (index.allNodeLocal() && !nodes.isEmpty()) {
            DeviceLedger untouched = index.untouchedLedger(); // only read: no copy of the held devices per share
            for (NodeDevices node : nodes) {
                node.untouched = states.computeIfAbsent(DeviceStates.of(untouched, node.pools), s -> s);
            }
        }
    }
}
