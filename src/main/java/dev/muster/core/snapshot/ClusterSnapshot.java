package dev.muster.core.snapshot;

import dev.muster.core.dra.Allocator;
import dev.muster.core.dra.ClaimCatalog;
import dev.muster.core.dra.DraObjects;
import dev.muster.core.dra.ExtendedResourceClaim;
import dev.muster.core.framework.NodeField;
import dev.muster.core.framework.NodeInfo;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.framework.ResourceIndex;
import dev.muster.core.model.ClusterState;
import dev.muster.core.model.CompositePodGroup;
import dev.muster.core.model.GroupRef;
import dev.muster.core.model.Node;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodDisruptionBudget;
import dev.muster.core.model.PodGroup;
import dev.muster.core.model.PodRef;
import dev.muster.core.model.ResourceList;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.Set;

/**
 * One request's cluster, compiled once and never changed afterwards: nodes in a dense table (sorted by name, so index
 * order is name order) holding their bound pods, pods with dense request vectors and resolved priorities, PodGroups
 * with resolved priorities and their members, topology domains per label key, and the DRA catalog.
 * <p>
 * A decision never changes it: each run opens a {@link SnapshotOverlay} ({@link #overlay()}), which copies the node
 * table and holds everything the run assumes, evicts, reserves and logs. One compiled snapshot can therefore be
 * decided again and again (the benchmarks time the engine that way). Lazily built parts (topology domains, the DRA
 * catalog's memoised selector verdicts) are pure functions of the snapshot.
 */
public final class ClusterSnapshot {
    private final ResourceIndex resources;
    private final NodeInfo[] nodes;
    private final Map<String, Integer> nodeIndex;
    private final List<PodInfo> pods;
    // The ordinal of each entry of pods, position by position (read without touching the entries).
    private final int[] listOrdinals;
    private final List<PodInfo> gatedPending = new ArrayList<>();
    private final List<PodInfo> pending = new ArrayList<>();
    // Pods by reference: a full compile's index (built on first use), shared by the snapshots derived from it,
    // plus what differs here; a base entry counts only while its ordinal is live (see pod(PodRef)).
    private final PodIndex podsByRef;
    private final Map<PodRef, PodInfo> changedByRef;
    private final boolean[] live;
    private final int ordinalLimit;
    private final Map<GroupRef, PodGroup> groups;
    private final Map<GroupRef, Integer> groupPriorities;
    private final Map<GroupRef, CompositePodGroup> composites = new TreeMap<>();
    private final Priorities compositePriorities;
    private final List<dev.muster.core.model.PriorityClass> priorityClasses;
    private final Map<GroupRef, List<PodInfo>> membersByGroup;
    private final List<PodDisruptionBudget> pdbs;
    private final ClaimCatalog claims;
    private final PodTable table;
    private final Map<String, java.util.SortedMap<String, int[]>> domains;
    private volatile LabelSets labelSets;
    /** Node looks per field set, built on first use (or ahead) and shared with {@link #withDra}'s snapshot. */
    private final java.util.concurrent.ConcurrentHashMap<Set<NodeField>, NodeLooks> nodeLooks;
    private int podsWithAffinity;
    private final Set<String> served;
    private int podsWithRequiredAnti;
    /** Whether some pod has claims or DRA-backed extended resources (it needs the DRA catalog even without objects). */
    private final boolean anyDevices;

    public ClusterSnapshot(ClusterState state) {
        this(state, DraObjects.NONE);
    }

    /** @param dra the request's DRA objects; claims are tracked per decision run by the overlay */
    public ClusterSnapshot(ClusterState state, DraObjects dra) {
        this(state, dra, () -> new ClaimCatalog(dra));
    }

    /**
     * As {@link #ClusterSnapshot(ClusterState, DraObjects)} with the DRA catalog built elsewhere (another thread may
     * still be building it: it is asked for last, and only when the request has DRA objects or pods using devices).
     *
     * @param catalog the catalog of {@code dra} itself
     * @throws IllegalArgumentException when the catalog was built from other DRA objects
     */
    public ClusterSnapshot(ClusterState state, DraObjects dra, java.util.function.Supplier<ClaimCatalog> catalog) {
        this(state, dra, catalog, false);
    }

    /**
     * The snapshot of a cluster whose DRA objects are not known yet (a helper compiles it while the rest of the request
     * is decoded), to be completed by {@link #withDra}; null when a pod asks for an extended resource, the one thing
     * of a cluster's compilation that its DeviceClasses change ({@link ExtendedResourceClaim#servedOnly}). Not for
     * deciding until completed. Its {@linkplain #nodeLooks node looks} are shared with the completed snapshot, so a
     * helper may work them out ahead, off the decision's path.
     */
    public static ClusterSnapshot withoutDra(ClusterState state) {
        for (Pod p : state.pods()) {
            if (!p.extendedRequests().isEmpty()) {
                return null;
            }
        }
        return new ClusterSnapshot(state, DraObjects.NONE, () -> null, true);
    }

    /**
     * This snapshot of {@link #withoutDra} completed with the request's DRA objects: equal in every decision to
     * {@code new ClusterSnapshot(state, dra, catalog)}. Shares everything else with this one.
     *
     * @param catalog the catalog of {@code dra} itself (asked for only when the request has DRA objects or pods using
     *                devices)
     */
    public ClusterSnapshot withDra(DraObjects dra, java.util.function.Supplier<ClaimCatalog> catalog) {
        return new ClusterSnapshot(this, dra, dra.isEmpty() && !anyDevices ? null : catalogOf(dra, catalog.get()));
    }

    /** @param deferred the DRA objects come later ({@link #withDra}): no catalog now */
    private ClusterSnapshot(ClusterState state, DraObjects dra, java.util.function.Supplier<ClaimCatalog> catalog,
                            boolean deferred) {
        this.nodeLooks = new java.util.concurrent.ConcurrentHashMap<>();
        List<ResourceList> lists = new ArrayList<>(state.nodes().size() + state.pods().size());
        for (Node n : state.nodes()) {
            lists.add(n.allocatable());
        }
        for (Pod p : state.pods()) {
            lists.add(p.requests());
        }
        this.resources = ResourceIndex.of(lists);

        List<Node> sorted = new ArrayList<>(state.nodes());
        sorted.sort((a, b) -> a.name().compareTo(b.name()));
        this.nodes = new NodeInfo[sorted.size()];
        this.nodeIndex = new HashMap<>(sorted.size() * 2);
        for (int i = 0; i < nodes.length; i++) {
            Node n = sorted.get(i);
            long[] alloc = vector(n.allocatable());
            nodes[i] = new NodeInfo(i, n, alloc, n.allocatable().get(ResourceList.PODS));
            nodeIndex.put(n.name(), i);
        }

        Priorities priorities = new Priorities(state.priorityClasses());
        this.compositePriorities = priorities;
        this.groups = new TreeMap<>();
        for (CompositePodGroup c : state.compositePodGroups()) {
            composites.put(c.ref(), c);
        }
        for (PodGroup g : state.podGroups()) {
            groups.put(g.ref(), g);
        }
        this.groupPriorities = priorities.groupPriorities(state.podGroups(), composites);

        this.pods = new ArrayList<>(state.pods().size());
        this.listOrdinals = new int[state.pods().size()];
        Map<GroupRef, List<PodInfo>> members = new TreeMap<>();
        this.table = new PodTable(state.pods().size());
        int ordinal = 0;
        Set<String> served = ExtendedResourceClaim.servedResources(dra.deviceClasses());
        boolean anyDevices = false;
        Map<ResourceList, long[]> vectors = new java.util.IdentityHashMap<>();
        for (Pod listed : state.pods()) {
            Pod p = ExtendedResourceClaim.servedOnly(listed, served);
            anyDevices |= p.usesDevices();
            int own = priorities.resolve(p.priority(), p.priorityClassName());
            GroupRef g = p.groupRef();
            Integer gp = g == null ? null : groupPriorities.get(g);
            // the replicas of a workload share one requests object (the mapper's): one vector for all of them
            long[] v = vectors.get(p.requests());
            if (v == null) {
                v = vector(p.requests());
                if (vectors.size() < SHARED_VECTORS) {
                    vectors.put(p.requests(), v);
                }
            }
            PodInfo info = new PodInfo(p, v, nonZero(p.requests(), ResourceList.CPU,
                    PodInfo.DEFAULT_MILLI_CPU_REQUEST), nonZero(p.requests(), ResourceList.MEMORY,
                    PodInfo.DEFAULT_MEMORY_REQUEST), own, gp == null ? own : gp, ordinal++);
            listOrdinals[pods.size()] = info.ordinal();
            pods.add(info);
            Integer at = p.isBound() && !p.isTerminal() ? nodeIndex.get(p.nodeName()) : null;
            table.put(info.ordinal(), listed, p, at == null ? -1 : at);
            if (g != null) {
                members.computeIfAbsent(g, k -> new ArrayList<>()).add(info);
            }
            if (table.has(info.ordinal(), PodTable.PENDING)) {
                pending.add(info);
            }
            if (table.has(info.ordinal(), PodTable.GATED_PENDING)) {
                gatedPending.add(info);
            }
            if (at != null) {
                nodes[at].add(info);
                count(info.ordinal());
            }
        }
        members.replaceAll((k, v) -> Collections.unmodifiableList(v));
        this.membersByGroup = members;
        this.pdbs = state.podDisruptionBudgets();
        this.anyDevices = anyDevices;
        this.claims = deferred || dra.isEmpty() && !anyDevices ? null : catalogOf(dra, catalog.get());
        this.served = served;
        this.priorityClasses = state.priorityClasses();
        this.changedByRef = Map.of();
        this.live = null;
        this.ordinalLimit = ordinal;
        this.podsByRef = new PodIndex(pods);
        this.domains = new java.util.concurrent.ConcurrentHashMap<>();
    }

    /**
     * The snapshot of {@code state}, reusing what {@code previous} compiled for the objects that did not change (the
     * same {@code Node} and {@code Pod} instances): their {@link PodInfo}s, the node entries no pod came to or left,
     * the pod index, the topology domains when no node changed. Equal in every decision to
     * {@code new ClusterSnapshot(state, dra)} provided the pods both states hold keep their relative order (a view
     * store's key order does). Compiles from scratch when reuse does not pay or cannot be exact: nodes added,
     * removed or renamed, other PriorityClasses or scalar resources, or the reused indexes grown too sparse.
     */
    public static ClusterSnapshot next(ClusterSnapshot previous, ClusterState state, DraObjects dra) {
        if (previous == null) {
            return new ClusterSnapshot(state, dra);
        }
        return IncrementalCompile.derive(previous, state, dra);
    }

    /** The derived snapshot (see {@link #next}); its arguments are what {@link IncrementalCompile} worked out. */
    ClusterSnapshot(ClusterSnapshot prev, ClusterState state, DraObjects dra, NodeInfo[] nodes,
                    List<PodInfo> pods, int[] listOrdinals, Map<PodRef, PodInfo> changedByRef, boolean[] live,
                    PodTable table,
                    int ordinalLimit, Map<GroupRef, Integer> groupPriorities, boolean nodesChanged,
                    boolean labelsKept) {
        this.resources = prev.resources;
        this.nodes = nodes;
        this.nodeIndex = prev.nodeIndex;
        this.pods = pods;
        this.listOrdinals = listOrdinals;
        this.podsByRef = prev.podsByRef;
        this.changedByRef = changedByRef;
        this.live = live;
        this.table = table;
        this.ordinalLimit = ordinalLimit;
        this.compositePriorities = new Priorities(state.priorityClasses());
        this.priorityClasses = state.priorityClasses();
        for (CompositePodGroup c : state.compositePodGroups()) {
            composites.put(c.ref(), c);
        }
        this.groups = new TreeMap<>();
        for (PodGroup g : state.podGroups()) {
            groups.put(g.ref(), g);
        }
        this.groupPriorities = groupPriorities;
        // From the table, so that pods reused from the previous snapshot are not read again.
        Map<GroupRef, List<PodInfo>> members = new TreeMap<>();
        boolean anyDevices = false;
        for (int i = 0; i < listOrdinals.length; i++) {
            int o = listOrdinals[i];
            byte t = table.traits[o];
            if (t == 0) {
                continue;
            }
            if ((t & PodTable.GROUP) != 0) {
                PodInfo info = pods.get(i);
                members.computeIfAbsent(info.pod().groupRef(), k -> new ArrayList<>()).add(info);
            }
            if ((t & PodTable.PENDING) != 0) {
                pending.add(pods.get(i));
            }
            if ((t & PodTable.GATED_PENDING) != 0) {
                gatedPending.add(pods.get(i));
            }
            anyDevices |= (t & PodTable.DEVICES) != 0;
            if (table.nodeOf[o] >= 0) {
                count(o);
            }
        }
        members.replaceAll((k, v) -> Collections.unmodifiableList(v));
        this.membersByGroup = members;
        this.pdbs = state.podDisruptionBudgets();
        this.anyDevices = anyDevices;
        this.claims = dra.isEmpty() && !anyDevices ? null : new ClaimCatalog(dra);
        this.served = prev.served;
        this.domains = nodesChanged ? new java.util.concurrent.ConcurrentHashMap<>() : prev.domains;
        this.labelSets = labelsKept ? prev.labelSets : null;
        this.nodeLooks = new java.util.concurrent.ConcurrentHashMap<>(); // the pods on the nodes may have changed
    }

    /** {@code base} with the DRA objects' catalog ({@link #withDra}): no pod's compilation depends on them. */
    private ClusterSnapshot(ClusterSnapshot base, DraObjects dra, ClaimCatalog claims) {
        this.resources = base.resources;
        this.nodes = base.nodes;
        this.nodeIndex = base.nodeIndex;
        this.pods = base.pods;
        this.listOrdinals = base.listOrdinals;
        this.gatedPending.addAll(base.gatedPending);
        this.pending.addAll(base.pending);
        this.podsByRef = base.podsByRef;
        this.changedByRef = base.changedByRef;
        this.live = base.live;
        this.ordinalLimit = base.ordinalLimit;
        this.groups = base.groups;
        this.groupPriorities = base.groupPriorities;
        this.composites.putAll(base.composites);
        this.compositePriorities = base.compositePriorities;
        this.priorityClasses = base.priorityClasses;
        this.membersByGroup = base.membersByGroup;
        this.pdbs = base.pdbs;
        this.table = base.table;
        this.domains = base.domains;
        this.labelSets = base.labelSets;
        this.nodeLooks = base.nodeLooks; // the same nodes
        this.podsWithAffinity = base.podsWithAffinity;
        this.podsWithRequiredAnti = base.podsWithRequiredAnti;
        this.anyDevices = base.anyDevices;
        this.served = ExtendedResourceClaim.servedResources(dra.deviceClasses());
        this.claims = claims;
    }

    // Package-private views for IncrementalCompile.
    List<dev.muster.core.model.PriorityClass> priorityClassList() {
        return priorityClasses;
    }

    int ordinalLimit() {
        return ordinalLimit;
    }

    PodTable podTable() {
        return table;
    }

    /**
     * Ordinals below this belong to entries of the base index ({@link #baseIndex()}, the full compile's map): a pod
     * entry with a smaller ordinal is the base's entry for its reference. 0 when the full compile saw a reference
     * twice (no shortcut then).
     */
    int baseLimit() {
        return podsByRef.limit();
    }

    Map<GroupRef, Integer> groupPriorityMap() {
        return groupPriorities;
    }

    Map<PodRef, PodInfo> baseIndex() {
        return podsByRef.byRef();
    }

    List<PodInfo> podList() {
        return pods;
    }

    /** The ordinal of each entry of {@link #podList()}, position by position. */
    int[] listOrdinals() {
        return listOrdinals;
    }

    long[] compileVector(ResourceList list) {
        return vector(list);
    }

    /** The extended resources the snapshot's DeviceClasses serve (see {@link ExtendedResourceClaim#servedOnly}). */
    Set<String> servedResources() {
        return served;
    }

    /** The CompositePodGroup a PodGroup is a child of, or null (none named, or not in the snapshot). */
    public CompositePodGroup parentOf(PodGroup g) {
        return g.parentComposite() == null ? null
                : composites.get(new GroupRef(g.ref().namespace(), g.parentComposite()));
    }

    /** The snapshot's CompositePodGroups by reference, in reference order. */
    public Map<GroupRef, CompositePodGroup> compositePodGroups() {
        return Collections.unmodifiableMap(composites);
    }

    /** The resolved priority of a composite that sets one, else null. */
    public Integer compositePriority(GroupRef ref) {
        CompositePodGroup c = composites.get(ref);
        return c == null || !c.setsPriority() ? null : compositePriorities.resolve(c.priority(), c.priorityClassName());
    }

    /** A new decision run on this snapshot, nothing assumed yet: it copies a node only when it first changes it. */
    public SnapshotOverlay overlay() {
        return new SnapshotOverlay(this);
    }

    /** {@link #overlay()}, with the speed-ups a run may take on or off ({@link SnapshotOverlay}). */
    public SnapshotOverlay overlay(boolean speedups) {
        return new SnapshotOverlay(this, speedups);
    }

    /** Per pod ordinal: on a node as compiled (bound, not terminal, on a known node). A new array. */
    boolean[] compiledOnNode() {
        boolean[] on = new boolean[ordinalLimit];
        int[] nodeOf = table.nodeOf;
        for (int i = 0; i < ordinalLimit; i++) {
            on[i] = nodeOf[i] >= 0;
        }
        return on;
    }

    /** Bound pods carrying pod (anti-)affinity terms of any kind. */
    int compiledPodsWithAffinity() {
        return podsWithAffinity;
    }

    /** Bound pods carrying required pod anti-affinity terms. */
    int compiledPodsWithRequiredAntiAffinity() {
        return podsWithRequiredAnti;
    }

    /** The request's DRA catalog, or null when the request has neither DRA objects nor pods with claims. */
    private static ClaimCatalog catalogOf(DraObjects dra, ClaimCatalog catalog) {
        if (!catalog.isOf(dra)) {
            throw new IllegalArgumentException("the DRA catalog was built from other DRA objects");
        }
        return catalog;
    }

    ClaimCatalog claimCatalog() {
        return claims;
    }

    /** Requests objects whose vector is shared by the pods holding them (a bound on the table, not on correctness). */
    private static final int SHARED_VECTORS = 4096;

    private long[] vector(ResourceList list) {
        long[] v = new long[resources.size()];
        for (int k = 0; k < list.size(); k++) {
            int i = resources.indexOf(list.name(k));
            if (i >= 0) {
                v[i] = list.value(k);
            }
        }
        return v;
    }

    static long nonZero(ResourceList list, String name, long dflt) {
        return list.has(name) ? list.get(name) : dflt;
    }

    public ResourceIndex resources() {
        return resources;
    }

    public int nodeCount() {
        return nodes.length;
    }

    /** The node as compiled: its bound pods only (a run reads its overlay's nodes instead). */
    NodeInfo compiledNode(int index) {
        return nodes[index];
    }

    /** The node object (labels, allocatable, taints: what no run changes). */
    public Node nodeObject(int index) {
        return nodes[index].node();
    }

    /** Index of a node by name, or -1. */
    public int nodeIndex(String name) {
        Integer i = nodeIndex.get(name);
        return i == null ? -1 : i;
    }

    /** All pods of the request, in request order. */
    public List<PodInfo> pods() {
        return Collections.unmodifiableList(pods);
    }

    /** Unbound, not terminal pods with scheduling gates, in request order (no cycle considers them). */
    public List<PodInfo> gatedPendingPods() {
        return Collections.unmodifiableList(gatedPending);
    }

    /**
     * Unbound, not terminal pods (gated ones and those being deleted among them), in request order: the pods a
     * response accounts for, listed once per snapshot so a run need not read every bound pod to find them.
     */
    public List<PodInfo> pendingPods() {
        return Collections.unmodifiableList(pending);
    }

    public PodInfo pod(PodRef ref) {
        PodInfo p = changedByRef.get(ref);
        if (p != null) {
            return p;
        }
        p = podsByRef.byRef().get(ref);
        return p == null || (live != null && !live[p.ordinal()]) ? null : p;
    }

    /** The pod object with that reference, or null. */
    public Pod podObject(PodRef ref) {
        PodInfo p = pod(ref);
        return p == null ? null : p.pod();
    }

    /** PodGroups of the snapshot by reference, in reference order. */
    public Map<GroupRef, PodGroup> podGroups() {
        return Collections.unmodifiableMap(groups);
    }

    /** The group's resolved priority: spec.priority, else its class, else the global default, else 0. */
    public int groupPriority(GroupRef ref) {
        Integer p = groupPriorities.get(ref);
        return p == null ? 0 : p;
    }

    /** Pods naming each group (whether or not the group exists), in request order; groups in reference order. */
    public Map<GroupRef, List<PodInfo>> membersByGroup() {
        return Collections.unmodifiableMap(membersByGroup);
    }

    public List<PodInfo> members(GroupRef ref) {
        return membersByGroup.getOrDefault(ref, List.of());
    }

    public List<PodDisruptionBudget> podDisruptionBudgets() {
        return pdbs;
    }

    /** Counts a pod on a node into the affinity totals. */
    private void count(int ordinal) {
        if (table.has(ordinal, PodTable.AFFINITY)) {
            podsWithAffinity++;
        }
        if (table.has(ordinal, PodTable.REQUIRED_ANTI)) {
            podsWithRequiredAnti++;
        }
    }

    /** Every node's label set numbered (see {@link LabelSets}); built on first use, shared by derived snapshots. */
    public LabelSets labelSets() {
        LabelSets l = labelSets;
        if (l == null) {
            l = LabelSets.of(nodes); // a pure function of the nodes: a race builds an equal one
            labelSets = l;
        }
        return l;
    }

    /**
     * Each compiled node's look over {@code fields} ({@link NodeLooks}); built once per field set on first use or
     * ahead, shared by {@link #withDra}.
     */
    public NodeLooks nodeLooks(Set<NodeField> fields) {
        NodeLooks l = nodeLooks.get(fields);
        return l != null ? l
                : nodeLooks.computeIfAbsent(Set.copyOf(fields), f -> NodeLooks.of(nodes, resources.size(), f));
    }

    /**
     * Works out now the topology domains of every key the snapshot's PodGroups name (what the cycle would otherwise
     * group on first use): a pure memo, worth it on a helper thread while the request is still arriving.
     *
     * @return this snapshot
     */
    public ClusterSnapshot warmTopology() {
        for (PodGroup g : groups.values()) {
            for (String key : g.topologyKeys()) {
                topologyDomains(key);
            }
        }
        return this;
    }

    /** The label keys grouped so far (tests). */
    java.util.Set<String> groupedKeys() {
        return java.util.Set.copyOf(domains.keySet());
    }

    /**
     * Nodes grouped by the value of label {@code key} (nodes without it left out), in value order, indices
     * ascending. Labels never change in a run, so each key is grouped once.
     */
    public java.util.SortedMap<String, int[]> topologyDomains(String key) {
        java.util.SortedMap<String, int[]> cached = domains.get(key);
        if (cached != null) {
            return cached;
        }
        return domains.computeIfAbsent(key, k -> TopologyDomains.group(nodes, k));
    }
}
