package dev.muster.core.snapshot;

import dev.muster.core.framework.NodeInfo;
import dev.muster.core.framework.PodIndex;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.framework.ResourceIndex;
import dev.muster.core.framework.StateKey;
import dev.muster.core.model.ClusterState;
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
import java.util.TreeSet;

/**
 * One request's cluster, compiled once: nodes in a dense table (sorted by name, so index order is name order),
 * pods with dense request vectors and resolved priorities, PodGroups with resolved priorities and their members.
 * <p>
 * The snapshot is owned by one decision run. Pods are assumed onto nodes and forgotten again through
 * {@link #assume}/{@link #forget}, or in bulk through {@link #mark()}/{@link #rollbackTo(int)}; what plugins
 * reserve beside a member joins the same journal through {@link #recordUndo}. Everything else is immutable after
 * construction.
 */
public final class ClusterSnapshot {
    private final ResourceIndex resources;
    private final NodeInfo[] nodes;
    private final Map<String, Integer> nodeIndex;
    private final List<PodInfo> pods;
    private final List<PodInfo> gatedPending = new ArrayList<>();
    private final Map<PodRef, PodInfo> podsByRef;
    private final Map<GroupRef, PodGroup> groups;
    private final Map<GroupRef, Integer> groupPriorities;
    private final Map<GroupRef, List<PodInfo>> membersByGroup;
    private final List<PodDisruptionBudget> pdbs;
    private final int[] nodeVersion;
    private final boolean[] onNode;
    private final Map<String, java.util.SortedMap<String, int[]>> domains = new HashMap<>();
    private int podsWithAffinity;
    private int podsWithRequiredAnti;
    private final List<Change> journal = new ArrayList<>();
    private final Map<StateKey<?>, PodIndex> indexes = new HashMap<>();
    private PodIndex[] indexList = new PodIndex[0];
    // Every change of a node's pods in order, undo included (rollback appends too): lets a caller that cached
    // per-node results visit only the nodes changed since, instead of comparing every node's version.
    private int[] changedNodes = new int[256];
    private PodInfo[] changedPods = new PodInfo[256];
    private int[] affinityPrefix = new int[257]; // affinityPrefix[i]: changes before i by pods with pod (anti-)affinity
    private int changes;

    /**
     * One journal entry: a pod added to ({@code added}) or removed from a node, or (with {@code undo} set) what a
     * plugin reserved for a member, given back by running {@code undo}.
     */
    private record Change(boolean added, PodInfo pod, int node, Runnable undo) {
    }

    public ClusterSnapshot(ClusterState state) {
        TreeSet<String> scalars = new TreeSet<>();
        for (Node n : state.nodes()) {
            collectScalars(n.allocatable(), scalars);
        }
        for (Pod p : state.pods()) {
            collectScalars(p.requests(), scalars);
        }
        this.resources = new ResourceIndex(scalars);

        List<Node> sorted = new ArrayList<>(state.nodes());
        sorted.sort((a, b) -> a.name().compareTo(b.name()));
        this.nodes = new NodeInfo[sorted.size()];
        this.nodeIndex = new HashMap<>(sorted.size() * 2);
        this.nodeVersion = new int[sorted.size()];
        for (int i = 0; i < nodes.length; i++) {
            Node n = sorted.get(i);
            long[] alloc = vector(n.allocatable());
            nodes[i] = new NodeInfo(i, n, alloc, n.allocatable().get(ResourceList.PODS));
            nodeIndex.put(n.name(), i);
        }

        PriorityResolver priorities = new PriorityResolver(state.priorityClasses());
        this.groups = new TreeMap<>();
        this.groupPriorities = new HashMap<>();
        for (PodGroup g : state.podGroups()) {
            groups.put(g.ref(), g);
            groupPriorities.put(g.ref(), priorities.resolve(g.priority(), g.priorityClassName()));
        }

        this.pods = new ArrayList<>(state.pods().size());
        this.podsByRef = new HashMap<>(state.pods().size() * 2);
        Map<GroupRef, List<PodInfo>> members = new TreeMap<>();
        this.onNode = new boolean[state.pods().size()];
        int ordinal = 0;
        for (Pod p : state.pods()) {
            int own = priorities.resolve(p.priority(), p.priorityClassName());
            GroupRef g = p.groupRef();
            Integer gp = g == null ? null : groupPriorities.get(g);
            PodInfo info = new PodInfo(p, vector(p.requests()), nonZero(p.requests(), ResourceList.CPU,
                    PodInfo.DEFAULT_MILLI_CPU_REQUEST), nonZero(p.requests(), ResourceList.MEMORY,
                    PodInfo.DEFAULT_MEMORY_REQUEST), own, gp == null ? own : gp, ordinal++);
            pods.add(info);
            podsByRef.put(p.ref(), info);
            if (g != null) {
                members.computeIfAbsent(g, k -> new ArrayList<>()).add(info);
            }
            if (!p.isBound() && !p.isTerminal() && p.isGated()) {
                gatedPending.add(info);
            }
            if (p.isBound() && !p.isTerminal()) {
                Integer at = nodeIndex.get(p.nodeName());
                if (at != null) {
                    nodes[at].add(info);
                    onNode[info.ordinal()] = true;
                    count(info, 1);
                }
            }
        }
        members.replaceAll((k, v) -> Collections.unmodifiableList(v));
        this.membersByGroup = members;
        this.pdbs = state.podDisruptionBudgets();
    }

    private static void collectScalars(ResourceList list, TreeSet<String> into) {
        for (int i = 0; i < list.size(); i++) {
            if (ResourceList.isScalar(list.name(i))) {
                into.add(list.name(i));
            }
        }
    }

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

    private static long nonZero(ResourceList list, String name, long dflt) {
        return list.has(name) ? list.get(name) : dflt;
    }

    public ResourceIndex resources() {
        return resources;
    }

    public int nodeCount() {
        return nodes.length;
    }

    public NodeInfo node(int index) {
        return nodes[index];
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

    public PodInfo pod(PodRef ref) {
        return podsByRef.get(ref);
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

    /**
     * A number that changes whenever a pod is added to or removed from the node in this run: lets a caller
     * that cached per-node results tell which nodes changed since.
     */
    public int nodeVersion(int node) {
        return nodeVersion[node];
    }

    private void count(PodInfo pod, int delta) {
        if (pod.pod().affinity().hasPodAffinity()) {
            podsWithAffinity += delta;
        }
        if (!pod.pod().affinity().requiredPodAntiAffinity().isEmpty()) {
            podsWithRequiredAnti += delta;
        }
    }

    /** Pods on nodes with any pod (anti-)affinity terms. */
    public int podsWithAffinity() {
        return podsWithAffinity;
    }

    /** Pods on nodes with required pod anti-affinity terms. */
    public int podsWithRequiredAntiAffinity() {
        return podsWithRequiredAnti;
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
        TreeMap<String, int[]> out = new TreeMap<>();
        Map<String, int[]> counts = new HashMap<>();
        for (NodeInfo n : nodes) {
            String v = n.node().labels().get(key);
            if (v != null) {
                counts.computeIfAbsent(v, k -> new int[1])[0]++;
            }
        }
        Map<String, int[]> fill = new HashMap<>();
        for (Map.Entry<String, int[]> e : counts.entrySet()) {
            out.put(e.getKey(), new int[e.getValue()[0]]);
            fill.put(e.getKey(), new int[1]);
        }
        for (int i = 0; i < nodes.length; i++) {
            String v = nodes[i].node().labels().get(key);
            if (v != null) {
                out.get(v)[fill.get(v)[0]++] = i;
            }
        }
        java.util.SortedMap<String, int[]> result = java.util.Collections.unmodifiableSortedMap(out);
        domains.put(key, result);
        return result;
    }

    /**
     * The index under {@code key}, built on first use from every pod on a node and kept current by
     * {@link #assume}, {@link #forget} and {@link #rollbackTo} from then on (see {@link PodIndex}).
     */
    public <T extends PodIndex> T podIndex(StateKey<T> key, java.util.function.Supplier<T> empty) {
        @SuppressWarnings("unchecked")
        T index = (T) indexes.get(key);
        if (index == null) {
            index = empty.get();
            for (NodeInfo n : nodes) {
                List<PodInfo> on = n.pods();
                for (int i = 0, size = on.size(); i < size; i++) {
                    index.added(on.get(i), n);
                }
            }
            indexes.put(key, index);
            indexList = java.util.Arrays.copyOf(indexList, indexList.length + 1);
            indexList[indexList.length - 1] = index;
        }
        return index;
    }

    private void indexAdded(PodInfo pod, int node) {
        for (PodIndex index : indexList) {
            index.added(pod, nodes[node]);
        }
    }

    private void indexRemoved(PodInfo pod, int node) {
        for (PodIndex index : indexList) {
            index.removed(pod, nodes[node]);
        }
    }

    /** How many node changes this run made so far (assume, forget and their undo each count one). */
    public int changeCount() {
        return changes;
    }

    /** The node of the i-th change ({@code 0 <= i < changeCount()}). */
    public int changedNode(int i) {
        return changedNodes[i];
    }

    /** The pod added or removed by the i-th change. */
    public PodInfo changedPod(int i) {
        return changedPods[i];
    }

    /**
     * Starts a decision run on this snapshot: empties the change log (nothing may hold positions in it from an
     * earlier run). Only allowed while no change is outstanding ({@code mark() == 0}).
     */
    public void startRun() {
        if (!journal.isEmpty()) {
            throw new IllegalStateException("the snapshot carries " + journal.size()
                    + " changes of an earlier run: roll it back to 0 first");
        }
        changes = 0;
        java.util.Arrays.fill(changedPods, null);
    }

    /** How many of the changes {@code from} (inclusive) to {@code to} (exclusive) moved pods with pod (anti-)affinity. */
    public int affinityChangesBetween(int from, int to) {
        return affinityPrefix[to] - affinityPrefix[from];
    }

    private void logChange(PodInfo pod, int node) {
        if (changes == changedNodes.length) {
            changedNodes = java.util.Arrays.copyOf(changedNodes, changes * 2);
            changedPods = java.util.Arrays.copyOf(changedPods, changes * 2);
            affinityPrefix = java.util.Arrays.copyOf(affinityPrefix, changes * 2 + 1);
        }
        changedNodes[changes] = node;
        changedPods[changes] = pod;
        affinityPrefix[changes + 1] = affinityPrefix[changes] + (pod.pod().affinity().hasPodAffinity() ? 1 : 0);
        changes++;
    }

    /** Whether the pod is on a node now: bound and not evicted, or assumed. */
    public boolean isOnNode(PodInfo pod) {
        return onNode[pod.ordinal()];
    }

    /** Places a pod on a node for the rest of the run (until rolled back). */
    public void assume(PodInfo pod, int node) {
        nodes[node].add(pod);
        onNode[pod.ordinal()] = true;
        count(pod, 1);
        nodeVersion[node]++;
        journal.add(new Change(true, pod, node, null));
        logChange(pod, node);
        indexAdded(pod, node);
    }

    /** Takes a pod off a node (a bound pod chosen as a victim, or an assumed one). */
    public void forget(PodInfo pod, int node) {
        nodes[node].remove(pod);
        onNode[pod.ordinal()] = false;
        count(pod, -1);
        nodeVersion[node]++;
        journal.add(new Change(false, pod, node, null));
        logChange(pod, node);
        indexRemoved(pod, node);
    }

    /**
     * Records how to give back something reserved alongside the changes so far (a plugin's per-decision state):
     * {@link #rollbackTo} runs {@code undo} when it passes this point, in journal order like the pod changes.
     */
    public void recordUndo(Runnable undo) {
        journal.add(new Change(false, null, -1, undo));
    }

    /** A point to roll back to. */
    public int mark() {
        return journal.size();
    }

    /** Undoes every assume and forget since {@code mark}, newest first. */
    public void rollbackTo(int mark) {
        for (int i = journal.size() - 1; i >= mark; i--) {
            Change c = journal.remove(i);
            if (c.undo() != null) {
                c.undo().run();
                continue;
            }
            nodeVersion[c.node()]++;
            logChange(c.pod(), c.node());
            onNode[c.pod().ordinal()] = !c.added();
            count(c.pod(), c.added() ? -1 : 1);
            if (c.added()) {
                nodes[c.node()].remove(c.pod());
                indexRemoved(c.pod(), c.node());
            } else {
                nodes[c.node()].add(c.pod());
                indexAdded(c.pod(), c.node());
            }
        }
    }
}
