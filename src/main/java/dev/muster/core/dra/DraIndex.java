package dev.muster.core.dra;

import dev.muster.core.model.Node;
import dev.muster.core.model.NodeSelectors;
import dev.muster.core.model.Quantity;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Everything one decision request knows about devices, built once and immutable afterwards (its memo tables are
 * thread-safe and only cache pure results):
 * <ul>
 *   <li>device classes by name;</li>
 *   <li>pools grouped by (driver, pool name) at their highest generation, with their slices sorted by name; a
 *       pool is <em>incomplete</em> when the number of slices at that generation differs from
 *       {@code resourceSliceCount} and <em>invalid</em> when a device name repeats; pools are ordered by driver, then
 *       pool name, pools having devices with binding conditions last;</li>
 *   <li>node-local slices indexed by node name; all other slices are matched per node ({@link #poolsFor});</li>
 *   <li>the allocated state of the snapshot's claims: devices taken (admin-access results excluded), shares of
 *       devices allowing multiple allocations with the capacity they consume, and the shared counters consumed.</li>
 * </ul>
 * Known divergence: a node sees a pool only at the pool's cluster-wide highest generation (upstream may keep using an
 * older, complete generation on a node none of whose newer slices is relevant to it).
 */
public final class DraIndex {
    /** A counter of a pool's counter set. */
    record CounterKey(String driver, String pool, String counterSet, String counter) {
    }

    private final Map<String, DeviceClass> classes;
    private final Map<String, DeviceClass> byExtendedResource;
    private final List<PoolData> pools;
    private final Map<PoolRef, PoolData> poolsByKey; // (driver, pool) → its pool, for lookups by device id

    /** Per node, the pools with a slice local to it, ascending. */
    private final Map<String, int[]> localPoolsByNode;
    private final List<Integer> sharedPools;
    private final Map<String, NodeDevices> nodePools = new ConcurrentHashMap<>();
    private final Map<DeviceList, Integer> deviceListIds = new ConcurrentHashMap<>();

    private final Map<CapacityKey, Map<String, Capacities.Resolved>> resolvedCapacities = new ConcurrentHashMap<>();

    private record CapacityKey(String driver, Map<String, Device.Capacity> capacity) {
    }
    private final java.util.concurrent.atomic.AtomicInteger nextDeviceListId = new java.util.concurrent.atomic.AtomicInteger();
    private final DeviceLedger.State allocated;

    /** Selector verdicts on this index's devices, memoised ({@link SelectorVerdicts}). */
    private final SelectorVerdicts verdicts = new SelectorVerdicts();
    /** What claim specs can reach among this index's devices ({@link SpecReach}). */
    private final SpecReach reach = new SpecReach(this);

    private DraIndex(Collection<DeviceClass> classes, Collection<ResourceSlice> slices,
                     Collection<AllocationResult> allocations) {
        Map<String, DeviceClass> byName = new HashMap<>();
        for (DeviceClass c : classes) {
            byName.put(c.name(), c);
        }
        this.classes = Collections.unmodifiableMap(byName);
        Map<String, DeviceClass> extended = new HashMap<>();
        for (DeviceClass c : classes) {
            extended.merge(DeviceClass.IMPLICIT_PREFIX + c.name(), c, DraIndex::servingClass);
            if (c.extendedResourceName() != null) {
                extended.merge(c.extendedResourceName(), c, DraIndex::servingClass);
            }
        }
        this.byExtendedResource = extended;

        Map<PoolRef, List<ResourceSlice>> grouped = new java.util.LinkedHashMap<>(); // pools as listed: mostly sorted
        for (ResourceSlice s : slices) {
            List<ResourceSlice> current = grouped.computeIfAbsent(new PoolRef(s.driver(), s.pool().name()), k -> new ArrayList<>());
            if (!current.isEmpty()) {
                long have = current.get(0).pool().generation();
                if (s.pool().generation() < have) {
                    continue;
                }
                if (s.pool().generation() > have) {
                    current.clear();
                }
            }
            current.add(s);
        }
        List<PoolData> list = new ArrayList<>();
        for (Map.Entry<PoolRef, List<ResourceSlice>> e : grouped.entrySet()) {
            List<ResourceSlice> sorted = e.getValue();
            if (sorted.size() > 1) {
                sorted = new ArrayList<>(sorted);
                sorted.sort(Comparator.comparing(ResourceSlice::name));
            }
            boolean incomplete = sorted.size() != sorted.get(0).pool().resourceSliceCount();
            list.add(new PoolData(e.getKey().driver(), e.getKey().pool(), List.copyOf(sorted), incomplete));
        }
        list.sort((a, b) -> { // pools with binding conditions last, then by driver and name
            int c = Boolean.compare(a.hasBindingConditions, b.hasBindingConditions);
            if (c == 0 && a.driver != b.driver) { // one driver's pools share its name (decoded once)
                c = a.driver.compareTo(b.driver);
            }
            return c != 0 ? c : a.name.compareTo(b.name);
        });
        this.pools = List.copyOf(list);
        Map<String, Integer> drivers = new HashMap<>();
        for (int i = 0; i < pools.size(); i++) {
            PoolData p = pools.get(i);
            p.ordinal = i;
            p.driverId = drivers.computeIfAbsent(p.driver, d -> drivers.size());
        }
        Map<PoolRef, PoolData> byKey = new java.util.HashMap<>(list.size() * 2);
        for (PoolData p : this.pools) {
            byKey.putIfAbsent(new PoolRef(p.driver, p.name), p);
        }
        this.poolsByKey = byKey;

        Map<String, int[]> local = new HashMap<>();
        List<Integer> shared = new ArrayList<>();
        for (int i = 0; i < pools.size(); i++) {
            if (sharedPool(pools.get(i))) {
                shared.add(i);
            }
            for (ResourceSlice s : pools.get(i).slices) {
                if (s.nodeName() != null && !s.devices().isEmpty()) {
                    local.merge(s.nodeName(), new int[] {i}, DraIndex::withPool);
                }
            }
        }
        this.localPoolsByNode = local;
        this.sharedPools = shared;

        DeviceLedger.State state = new DeviceLedger.State(this.pools.size());
        for (AllocationResult r : allocations) {
            state.apply(devicesIn(r), r, +1, null);
            for (AllocationResult.DeviceResult d : r.devices()) {
                PoolData p = poolsByKey.get(new PoolRef(d.id().driver(), d.id().pool()));
                if (p != null) {
                    p.heldInSnapshot = true;
                }
            }
        }
        state.freeze(); // read by every run, copied by each: never written again
        this.allocated = state;
    }

    /**
     * Builds the index.
     *
     * @param classes     every DeviceClass
     * @param slices      every ResourceSlice (all generations; older ones are dropped here)
     * @param allocations the {@code status.allocation} of every allocated claim in the snapshot
     */
    public static DraIndex build(Collection<DeviceClass> classes, Collection<ResourceSlice> slices,
                                 Collection<AllocationResult> allocations) {
        return new DraIndex(classes, slices, allocations);
    }

    /**
     * The attributes, by fully qualified name, that the request's selectors and constraints read; null (all of them)
     * until set, or when some selector cannot say what it reads. Set once, by the catalog, before any device list is
     * looked at ({@link #devicesLook}).
     */
    private volatile Set<String> readAttributes;
    /** {@link #readAttributes} as each driver's devices may publish them: qualified, and unqualified in its domain. */
    private final Map<String, DeviceList.Reads> readKeys = new ConcurrentHashMap<>();

    void readAttributes(Set<String> qualified) {
        this.readAttributes = qualified == null ? null : Set.copyOf(qualified);
    }

    private DeviceList.Reads readKeys(String driver) {
        Set<String> read = readAttributes;
        if (read == null) {
            return null;
        }
        DeviceList.Reads known = readKeys.get(driver); // the common case: no lambda, no bin lock
        return known != null ? known
                : readKeys.computeIfAbsent(driver, d -> new DeviceList.Reads(DeviceList.keys(read, d)));
    }

    /** How many pools the index holds (ordinals run below it). */
    int poolCount() {
        return pools.size();
    }

    /**
     * Whether what one node's pods take of the pool can matter to another node: a slice with devices is not local to
     * one node (a node selector, all nodes, per-device selection), or the pool's counters are shared by devices on
     * several nodes. Slices that only declare counters belong to the pool, wherever they say they are.
     */
    private static boolean sharedPool(PoolData pool) {
        String onlyNode = null;
        boolean severalNodes = false;
        for (ResourceSlice s : pool.slices) {
            if (s.devices().isEmpty()) {
                continue;
            }
            if (s.nodeName() == null) {
                return true;
            }
            if (onlyNode == null) {
                onlyNode = s.nodeName();
            } else if (!onlyNode.equals(s.nodeName())) {
                severalNodes = true;
            }
        }
        return severalNodes && !pool.counterSets.isEmpty();
    }

    /** Pools' counter totals, a number per distinct set: part of how a node's devices look. */
    private final Map<Map<String, Map<String, java.math.BigDecimal>>, Integer> counterLooks = new ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.AtomicInteger nextCounterLook = new java.util.concurrent.atomic.AtomicInteger(1);

    /** The number of the pool's counter totals (0: none), kept on the pool (a race works out the same number twice). */
    int countersLook(PoolData pool) {
        if (pool.counterSets.isEmpty()) {
            return 0;
        }
        if (pool.countersLook == 0) {
            pool.countersLook = counterLooks.computeIfAbsent(pool.counterSets, k -> nextCounterLook.getAndIncrement());
        }
        return pool.countersLook;
    }

    /** Whether every slice is local to one node (no shared counters, no node selectors, no per-device selection). */
    public boolean allNodeLocal() {
        return sharedPools.isEmpty();
    }

    /**
     * Whether some request of the spec could take a device of a pool that is not local to one node
     * ({@link SpecReach#reachesSharedPools}).
     */
    public boolean reachesSharedPools(ResourceClaimSpec spec) {
        return reach.reachesSharedPools(spec);
    }

    /**
     * Whether the allocator's first fit of claims of this spec is never worse than another choice for the next
     * ({@link SpecReach#firstFitComplete}).
     */
    public boolean firstFitComplete(ResourceClaimSpec spec) {
        return reach.firstFitComplete(spec);
    }

    /** The pools not local to one node, by ordinal. */
    List<Integer> sharedPools() {
        return sharedPools;
    }

    /** The pools, in allocation order. */
    List<PoolData> pools() {
        return pools;
    }

    /**
     * The DeviceClass whose devices serve an extended resource ({@code spec.extendedResourceName}, or the implicit
     * {@code deviceclass.resource.kubernetes.io/<name>}), or null.
     */
    public DeviceClass extendedResourceClass(String resource) {
        return byExtendedResource.get(resource);
    }

    /** Of two classes naming one extended resource, the later created serves it; at the same time, the first name. */
    private static DeviceClass servingClass(DeviceClass a, DeviceClass b) {
        if (a.creationEpochSec() != b.creationEpochSec()) {
            return a.creationEpochSec() > b.creationEpochSec() ? a : b;
        }
        return a.name().compareTo(b.name()) <= 0 ? a : b;
    }

    /** The class of that name, or null. */
    public DeviceClass deviceClass(String name) {
        return classes.get(name);
    }

    /** A new ledger holding the snapshot's allocated state. */
    public DeviceLedger newLedger() {
        return new DeviceLedger(this, allocated.copy());
    }

    private volatile DeviceLedger untouched;

    /** A ledger over the snapshot's allocated state itself (no copy), only read, by any thread: one per index. */
    DeviceLedger untouchedLedger() {
        DeviceLedger l = untouched;
        if (l == null) { // two threads may both make one: equal, and only read
            untouched = l = new DeviceLedger(this, allocated);
        }
        return l;
    }

    /** Whether a snapshot claim holds the device (exclusively or as a share). */
    public boolean isAllocated(AllocatedDevice id) {
        PoolDevice d = numbered(id);
        return d != null ? allocated.inUse(d) : allocated.unknownInUse(id);
    }

    /** {@link #device} when the ledger keeps the device's holders by number (null: by id). */
    PoolDevice numbered(AllocatedDevice id) {
        PoolDevice d = device(id);
        return d != null && d.number() >= 0 ? d : null;
    }

    /** The device at its pool's highest generation, or null when the index does not know it. */
    PoolDevice device(AllocatedDevice id) {
        PoolData p = poolsByKey.get(new PoolRef(id.driver(), id.pool()));
        return p == null ? null : p.device(id.device());
    }

    /** {@link #device} of each of the allocation's results, in order (null where the index has none). */
    PoolDevice[] devicesIn(AllocationResult allocation) {
        List<AllocationResult.DeviceResult> results = allocation.devices();
        PoolDevice[] out = new PoolDevice[results.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = device(results.get(i).id());
        }
        return out;
    }

    /**
     * A number for slice {@code slice} of {@code pool}'s device list, the same for equal lists across the index (the
     * devices of 5,000 identical nodes are a handful of numbers). Computed once per slice, kept for every run.
     */
    int devicesLook(PoolData pool, int slice) {
        int id = pool.sliceLooks[slice];
        if (id < 0) { // a race computes the same number twice
            id = deviceListIds.computeIfAbsent(DeviceList.of(pool.slices.get(slice).devices(), readKeys(pool.driver)),
                    k -> nextDeviceListId.getAndIncrement());
            pool.sliceLooks[slice] = id;
        }
        return id;
    }

    /**
     * {@link Capacities#resolveDevice} of the device: a pure function of its driver and capacity map, so computed once
     * per distinct pair (devices that look alike share their capacity map) and then kept on the device.
     */
    Map<String, Capacities.Resolved> capacities(PoolDevice d) {
        Map<String, Capacities.Resolved> c = d.capacities;
        if (c == null) {
            c = resolvedCapacities.computeIfAbsent(new CapacityKey(d.id().driver(), d.device().capacity()),
                    k -> Collections.unmodifiableMap(Capacities.resolveDevice(d.device(), k.driver())));
            d.capacities = c;
        }
        return c;
    }

    /** The pool's counter totals, or an empty map. */
    Map<String, Map<String, BigDecimal>> counterSets(String driver, String pool) {
        PoolData p = poolsByKey.get(new PoolRef(driver, pool));
        return p == null ? Map.of() : p.counterSets;
    }

    /**
     * The pools a node can use, in allocation order: a slice is relevant when it is local to the node, has shared
     * counters, is reachable from every node, has a matching node selector, or (per-device selection) has a device
     * reachable from the node. Pools without a relevant slice with devices are left out.
     */
    List<NodePool> poolsFor(Node node) {
        return devicesOf(node).pools;
    }

    /**
     * {@link #devicesOf(Node)} of the node at position {@code position} of the nodes the index was warmed for
     * ({@link #warmNodes}): read from an array, not looked up by name, when {@code node} is the one warmed there.
     */
    NodeDevices devicesOf(int position, Node node) {
        Aligned a = aligned;
        if (a != null && position < a.devices.length && a.nodes.get(position) == node) {
            NodeDevices known = a.devices[position];
            if (known != null) {
                return known;
            }
        }
        return devicesOf(node);
    }

    /** The node's pools ({@link #poolsFor}) with what is remembered about them. */
    NodeDevices devicesOf(Node node) {
        NodeDevices known = nodePools.get(node.name()); // the common case: no lambda, no bin lock
        return known != null ? known : nodePools.computeIfAbsent(node.name(), n -> new NodeDevices(computePools(node)));
    }

    /**
     * Computes, for every node a slice names, the pools it sees ({@link #poolsFor}) and, for every slice, the number of
     * its device list ({@link #devicesLook}), in pool order. Only when every slice is local to one node: then a
     * node's pools depend on its name alone. Both are memos that runs otherwise fill on first use, so the decisions
     * are the same whether or not this ran.
     */
    void warmNodePools() {
        warmNodePools(0, pools.size());
    }

    /**
     * {@link #warmNodePools()} for the pools at positions {@code from} (inclusive) to {@code to} and the nodes their
     * slices name. Ranges may be warmed on several threads at once.
     *
     * @return the nodes whose pools this call worked out (a node named by slices of two ranges: by one of them)
     */
    List<NodeDevices> warmNodePools(int from, int to) {
        if (!sharedPools.isEmpty()) {
            return List.of();
        }
        List<NodeDevices> made = new ArrayList<>();
        for (int i = from; i < to; i++) {
            PoolData p = pools.get(i);
            for (int k = 0; k < p.slices.size(); k++) {
                String node = p.slices.get(k).nodeName();
                if (node == null || p.slices.get(k).devices().isEmpty()) {
                    continue; // a slice that only declares the pool's counters
                }
                if (!nodePools.containsKey(node)) {
                    NodeDevices devices = new NodeDevices(computePools(node, null));
                    if (nodePools.putIfAbsent(node, devices) == null) {
                        made.add(devices);
                    }
                }
                devicesLook(p, k);
            }
        }
        return made;
    }

    /**
     * As {@link #warmNodePools(int, int)}, node by node for the nodes at positions {@code from} to {@code to} of
     * {@code nodes} (a snapshot's, in its order; the same list for every range), each node's pools kept at its
     * position too, so a run asks for them by position.
     */
    List<NodeDevices> warmNodes(List<Node> nodes, int from, int to) {
        if (!sharedPools.isEmpty()) {
            return List.of();
        }
        Aligned a = alignTo(nodes);
        List<NodeDevices> out = new ArrayList<>();
        for (int i = from; i < to; i++) {
            NodeDevices devices = devicesOf(nodes.get(i));
            a.onePool[i] = devices.pools.isEmpty() ? NO_POOL : devices.pools.size() == 1
                    ? devices.pools.get(0).pool().ordinal : MANY_POOLS;
            a.devices[i] = devices;
            out.add(devices);
        }
        return out;
    }

    /**
     * The untouched device state ({@link NodeDevices#untouched}) of the node at {@code position} of the nodes the index
     * was warmed for, when {@code node} is the one warmed there and the ledger has not touched its only pool; else
     * null. Read from arrays by position: no walk of the node's pools.
     */
    Object untouchedAt(int position, Node node, DeviceLedger ledger) {
        Aligned a = aligned;
        if (a == null || position >= a.devices.length || a.nodes.get(position) != node) {
            return null;
        }
        int pool = a.onePool[position];
        if (pool == MANY_POOLS || pool >= 0 && ledger.poolVersion(pool) != 0) {
            return null;
        }
        NodeDevices devices = a.devices[position];
        return devices == null ? null : devices.untouched;
    }

    private static final int NO_POOL = -2;
    private static final int MANY_POOLS = -1;

    /**
     * The nodes a warming was for and, by position, each one's devices and the ordinal of its only pool
     * ({@code NO_POOL}, {@code MANY_POOLS} otherwise); filled as the parts of the warming run.
     */
    private record Aligned(List<Node> nodes, NodeDevices[] devices, int[] onePool) {
    }

    private volatile Aligned aligned;

    private synchronized Aligned alignTo(List<Node> nodes) {
        Aligned a = aligned;
        if (a == null || a.nodes != nodes) {
            a = new Aligned(nodes, new NodeDevices[nodes.size()], new int[nodes.size()]);
            aligned = a;
        }
        return a;
    }

    /** {@code pools} with the pool of {@code one} added: pools come in ascending order, a repeat last. */
    private static int[] withPool(int[] pools, int[] one) {
        if (pools[pools.length - 1] == one[0]) {
            return pools;
        }
        int[] out = java.util.Arrays.copyOf(pools, pools.length + 1);
        out[pools.length] = one[0];
        return out;
    }

    private static final int[] FIRST_SLICE = {0};
    private static final int[] NO_POOLS = {};

    private List<NodePool> computePools(Node node) {
        return computePools(node.name(), node);
    }

    /** @param node null only when no pool is shared: then the name decides alone */
    private List<NodePool> computePools(String nodeName, Node node) {
        int[] local = localPoolsByNode.getOrDefault(nodeName, NO_POOLS);
        int[] candidates = local; // ascending, distinct
        if (!sharedPools.isEmpty()) {
            candidates = new int[sharedPools.size() + local.length];
            int k = 0;
            for (int i : sharedPools) {
                candidates[k++] = i;
            }
            for (int i : local) {
                candidates[k++] = i;
            }
            java.util.Arrays.sort(candidates); // allocation order; a pool may be both local and shared
        }
        if (node == null && candidates.length == 1) {
            PoolData p = pools.get(candidates[0]);
            if (p.slices.size() == 1 && !p.slices.get(0).devices().isEmpty()) {
                // the common case: one node-local slice, the whole pool
                return List.of(new NodePool(p, p.slices, FIRST_SLICE));
            }
        }
        List<NodePool> result = new ArrayList<>();
        for (int c = 0; c < candidates.length; c++) {
            if (c > 0 && candidates[c] == candidates[c - 1]) {
                continue;
            }
            PoolData p = pools.get(candidates[c]);
            List<ResourceSlice> relevant = new ArrayList<>();
            int[] indexes = new int[p.slices.size()];
            for (int i = 0; i < p.slices.size(); i++) {
                ResourceSlice s = p.slices.get(i);
                if (!s.devices().isEmpty() && (node == null ? nodeName.equals(s.nodeName()) : sliceRelevant(s, node))) {
                    indexes[relevant.size()] = i;
                    relevant.add(s);
                }
            }
            if (!relevant.isEmpty()) {
                result.add(new NodePool(p, List.copyOf(relevant), java.util.Arrays.copyOf(indexes, relevant.size())));
            }
        }
        return List.copyOf(result);
    }

    private static boolean sliceRelevant(ResourceSlice s, Node node) {
        if (s.nodeName() != null) {
            return s.nodeName().equals(node.name());
        }
        if (s.allNodes() || !s.sharedCounters().isEmpty() && s.nodeSelector() == null && !s.perDeviceNodeSelection()) {
            return true;
        }
        if (s.nodeSelector() != null) {
            return NodeSelectors.anyTermMatches(s.nodeSelector(), node);
        }
        if (s.perDeviceNodeSelection()) {
            for (Device d : s.devices()) {
                if (deviceOnNode(d, node)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Per-device node selection: nodeName, else allNodes, else the node selector; nothing set = no node. */
    static boolean deviceOnNode(Device d, Node node) {
        if (d.nodeName() != null) {
            return d.nodeName().equals(node.name());
        }
        if (d.allNodes()) {
            return true;
        }
        return d.nodeSelector() != null && NodeSelectors.anyTermMatches(d.nodeSelector(), node);
    }

    /** Whether the selector selects the device ({@link SelectorVerdicts#selects}). */
    boolean selects(DeviceSelector selector, PoolDevice d) {
        return verdicts.selects(selector, d);
    }

    /** What selectors see of a device ({@link SelectorVerdicts#selectorDevice}). */
    SelectorDevice selectorDevice(PoolDevice d) {
        return verdicts.selectorDevice(d);
    }
}
