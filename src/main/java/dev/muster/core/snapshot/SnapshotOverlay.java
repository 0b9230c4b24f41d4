package dev.muster.core.snapshot;

import dev.muster.core.dra.ClaimBook;
import dev.muster.core.dra.ClaimCatalog;
import dev.muster.core.dra.DraObjects;
import dev.muster.core.framework.NodeInfo;
import dev.muster.core.framework.PodIndex;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.framework.ResourceIndex;
import dev.muster.core.framework.StateKey;
import dev.muster.core.model.ClusterState;
import dev.muster.core.model.GroupRef;
import dev.muster.core.model.PodDisruptionBudget;
import dev.muster.core.model.PodGroup;
import dev.muster.core.model.PodRef;
import dev.muster.core.model.VictimUnits;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.function.Supplier;

/**
 * One decision run over a {@link ClusterSnapshot}: everything the run changes, kept apart from the snapshot (which
 * never changes). It reads the snapshot's node table and copies a node before changing it; pods are assumed onto
 * nodes and forgotten again through
 * {@link #assume}/{@link #forget}, or in bulk through {@link #mark()}/{@link #rollbackTo(int)}; what plugins reserve
 * beside a member (devices, reservations) joins the same journal through {@link #recordUndo}. It also keeps a log
 * of every node change in order (undo included), so callers that cached per-node results revisit only the changed
 * nodes, the plugins' pod indexes, and the run's {@link ClaimBook}.
 * <p>
 * What the snapshot knows (pods, groups, priorities, topology domains) is read through here too, so a run needs one
 * object. Not thread-safe for writes: a run changes it in the sequential parts of a cycle only.
 */
public final class SnapshotOverlay {
    private final ClusterSnapshot snapshot;
    private final NodeInfo[] nodes;
    /** Whether {@code nodes[i]} is this run's own copy; until then it is the snapshot's, which nobody changes. */
    private final boolean[] own;
    private final boolean[] onNode;
    private final int[] nodeVersion;
    private final ClaimBook claims;
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

    /**
     * A new run on the snapshot, nothing assumed. The run reads the snapshot's compiled nodes until it changes one:
     * that node is copied first ({@link #writable}), so a run that tries one rack of 5,000 nodes copies that rack.
     */
    public SnapshotOverlay(ClusterSnapshot snapshot) {
        this(snapshot, true);
    }

    /**
     * @param speedups whether the run's claims share first fits between nodes that look alike ({@link ClaimBook});
     *                 off for the reference evaluation the speed-ups are checked against
     */
    public SnapshotOverlay(ClusterSnapshot snapshot, boolean speedups) {
        this.snapshot = snapshot;
        this.nodes = new NodeInfo[snapshot.nodeCount()];
        for (int i = 0; i < nodes.length; i++) {
            nodes[i] = snapshot.compiledNode(i);
        }
        this.own = new boolean[nodes.length];
        this.onNode = snapshot.compiledOnNode();
        this.nodeVersion = new int[nodes.length];
        this.podsWithAffinity = snapshot.compiledPodsWithAffinity();
        this.podsWithRequiredAnti = snapshot.compiledPodsWithRequiredAntiAffinity();
        ClaimCatalog catalog = snapshot.claimCatalog();
        this.claims = catalog == null ? null : new ClaimBook(catalog, dev.muster.core.dra.Allocator.DEFAULT_STEP_BUDGET,
                nodes.length, speedups);
    }

    /** A run on a cluster compiled for it alone. */
    public SnapshotOverlay(ClusterState state) {
        this(new ClusterSnapshot(state));
    }

    /** A run on a cluster and its DRA objects compiled for it alone. */
    public SnapshotOverlay(ClusterState state, DraObjects dra) {
        this(new ClusterSnapshot(state, dra));
    }

    /** The compiled snapshot under this run. */
    public ClusterSnapshot snapshot() {
        return snapshot;
    }

    /**
     * The request's ResourceClaims and what this run allocated and reserved, or null when the request has neither
     * DRA objects nor pods with claims.
     */
    public ClaimBook claims() {
        return claims;
    }

    // ---------------------------------------------------------------- what the snapshot knows

    public ResourceIndex resources() {
        return snapshot.resources();
    }

    public int nodeCount() {
        return nodes.length;
    }

    /** The node with the pods bound or assumed there in this run. */
    public NodeInfo node(int index) {
        return nodes[index];
    }

    /** Index of a node by name, or -1. */
    public int nodeIndex(String name) {
        return snapshot.nodeIndex(name);
    }

    /** All pods of the request, in request order. */
    public List<PodInfo> pods() {
        return snapshot.pods();
    }

    /** Unbound, not terminal pods with scheduling gates, in request order (no cycle considers them). */
    public List<PodInfo> gatedPendingPods() {
        return snapshot.gatedPendingPods();
    }

    /** Unbound, not terminal pods, in request order ({@link ClusterSnapshot#pendingPods}). */
    public List<PodInfo> pendingPods() {
        return snapshot.pendingPods();
    }

    public PodInfo pod(PodRef ref) {
        return snapshot.pod(ref);
    }

    /** PodGroups of the snapshot by reference, in reference order. */
    public Map<GroupRef, PodGroup> podGroups() {
        return snapshot.podGroups();
    }

    /** The group's resolved priority: spec.priority, else its class, else the global default, else 0. */
    public int groupPriority(GroupRef ref) {
        return snapshot.groupPriority(ref);
    }

    /** Pods naming each group (whether or not the group exists), in request order; groups in reference order. */
    public Map<GroupRef, List<PodInfo>> membersByGroup() {
        return snapshot.membersByGroup();
    }

    public List<PodInfo> members(GroupRef ref) {
        return snapshot.members(ref);
    }

    public List<PodDisruptionBudget> podDisruptionBudgets() {
        return snapshot.podDisruptionBudgets();
    }

    /**
     * The victim units of the pods running now: {@link VictimUnits#running running} and on a node in this run (the
     * victims of a group decided earlier in the run are not).
     */
    public VictimUnits<PodInfo> victimUnits() {
        List<PodInfo> running = new ArrayList<>();
        for (PodInfo p : snapshot.pods()) {
            if (VictimUnits.running(p.pod()) && isOnNode(p)) {
                running.add(p);
            }
        }
        return new VictimUnits<>(running, PodInfo::pod, PodInfo::effectivePriority, snapshot.podGroups(),
                snapshot.compositePodGroups(), snapshot.podDisruptionBudgets());
    }

    /** Nodes grouped by the value of label {@code key}; see {@link ClusterSnapshot#topologyDomains}. */
    public SortedMap<String, int[]> topologyDomains(String key) {
        return snapshot.topologyDomains(key);
    }

    // ---------------------------------------------------------------- what this run changed

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
     * The index under {@code key}, built on first use from every pod on a node and kept current by
     * {@link #assume}, {@link #forget} and {@link #rollbackTo} from then on (see {@link PodIndex}).
     */
    public <T extends PodIndex> T podIndex(StateKey<T> key, Supplier<T> empty) {
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
            indexList = Arrays.copyOf(indexList, indexList.length + 1);
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

    /** How many of the changes {@code from} (inclusive) to {@code to} (exclusive) moved pods with pod (anti-)affinity. */
    public int affinityChangesBetween(int from, int to) {
        return affinityPrefix[to] - affinityPrefix[from];
    }

    private void logChange(PodInfo pod, int node) {
        if (changes == changedNodes.length) {
            changedNodes = Arrays.copyOf(changedNodes, changes * 2);
            changedPods = Arrays.copyOf(changedPods, changes * 2);
            affinityPrefix = Arrays.copyOf(affinityPrefix, changes * 2 + 1);
        }
        changedNodes[changes] = node;
        changedPods[changes] = pod;
        affinityPrefix[changes + 1] = affinityPrefix[changes] + (pod.pod().affinity().hasPodAffinity() ? 1 : 0);
        changes++;
    }

    /** Whether node {@code node} is still the snapshot's compiled one (this run has not changed it). */
    public boolean isCompiled(int node) {
        return !own[node];
    }

    /** The node, this run's own copy from now on: the snapshot's compiled node is never changed. */
    private NodeInfo writable(int node) {
        if (!own[node]) {
            nodes[node] = nodes[node].copy();
            own[node] = true;
        }
        return nodes[node];
    }

    /** Whether the pod is on a node now: bound and not evicted, or assumed. */
    public boolean isOnNode(PodInfo pod) {
        return onNode[pod.ordinal()];
    }

    /** Places a pod on a node for the rest of the run (until rolled back). */
    public void assume(PodInfo pod, int node) {
        writable(node).add(pod);
        onNode[pod.ordinal()] = true;
        count(pod, 1);
        nodeVersion[node]++;
        journal.add(new Change(true, pod, node, null));
        logChange(pod, node);
        indexAdded(pod, node);
    }

    /** Takes a pod off a node (a bound pod chosen as a victim, or an assumed one). */
    public void forget(PodInfo pod, int node) {
        writable(node).remove(pod);
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

    /**
     * Whether the pod changes since {@code mark} are exactly {@code pods} assumed onto {@code nodes}, in that order, and
     * nothing taken off a node (what plugins reserved beside them aside).
     */
    public boolean assumedExactly(int mark, PodInfo[] pods, int[] nodes) {
        int k = 0;
        for (int i = mark; i < journal.size(); i++) {
            Change c = journal.get(i);
            if (c.undo() != null) {
                continue;
            }
            if (!c.added() || k == pods.length || c.pod() != pods[k] || c.node() != nodes[k]) {
                return false;
            }
            k++;
        }
        return k == pods.length;
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
                writable(c.node()).remove(c.pod());
                indexRemoved(c.pod(), c.node());
            } else {
                writable(c.node()).add(c.pod());
                indexAdded(c.pod(), c.node());
            }
        }
    }
}
