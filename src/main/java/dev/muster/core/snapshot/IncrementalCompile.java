package dev.muster.core.snapshot;

import dev.muster.core.dra.DraObjects;
import dev.muster.core.dra.ExtendedResourceClaim;
import dev.muster.core.framework.NodeInfo;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.framework.ResourceIndex;
import dev.muster.core.model.ClusterState;
import dev.muster.core.model.CompositePodGroup;
import dev.muster.core.model.GroupRef;
import dev.muster.core.model.Node;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodRef;
import dev.muster.core.model.ResourceList;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Compiles a {@link ClusterSnapshot} incrementally, derived from the previous one ({@link ClusterSnapshot#next})
 * rather than from scratch: a watched cluster changes a few objects between views, and compiling 1,000,000 pods
 * again would allocate (and make the collector copy) a whole new set of pod entries and indexes each time.
 * <p>
 * A pod entry ({@link PodInfo}) is reused when its {@code Pod} is the same instance and its priorities resolve the
 * same; others get fresh entries with ordinals above the previous ones (ordinals only index per-pod tables, so they
 * need not be dense). A node entry is reused when its {@code Node} is the same instance and no pod came to it or
 * left it; others are rebuilt with their pods in state order, as the full compile adds them. The pod index is the
 * full compile's map, shared, plus the references whose entry differs. What cannot be derived exactly, or no longer
 * pays (nodes added or removed, other PriorityClasses or scalar resources, ordinals or the index delta grown past
 * the pods), compiles from scratch.
 */
final class IncrementalCompile {
    private IncrementalCompile() {
    }

    static ClusterSnapshot derive(ClusterSnapshot prev, ClusterState state, DraObjects dra) {
        List<Node> sorted = state.nodes();
        int n = sorted.size();
        if (n != prev.nodeCount() || !state.priorityClasses().equals(prev.priorityClassList())) {
            return new ClusterSnapshot(state, dra);
        }
        if (!sameNames(sorted, prev)) {
            sorted = new ArrayList<>(sorted); // not listed in name order: sort as the full compile does
            sorted.sort((a, b) -> a.name().compareTo(b.name()));
            if (!sameNames(sorted, prev)) {
                return new ClusterSnapshot(state, dra);
            }
        }
        java.util.Set<String> served = ExtendedResourceClaim.servedResources(dra.deviceClasses());
        if (!served.equals(prev.servedResources())) {
            return new ClusterSnapshot(state, dra); // other extended resources are served by devices
        }
        ResourceIndex resources = prev.resources();
        // Whether an object that left held a scalar resource: then the index may have to shrink (checked in full).
        boolean scalarsMayShrink = false;
        Priorities priorities = new Priorities(state.priorityClasses());
        Map<GroupRef, CompositePodGroup> composites = new java.util.TreeMap<>();
        for (CompositePodGroup c : state.compositePodGroups()) {
            composites.put(c.ref(), c);
        }
        Map<GroupRef, Integer> groupPriorities = priorities.groupPriorities(state.podGroups(), composites);
        boolean sameGroupPriorities = groupPriorities.equals(prev.groupPriorityMap());
        PodTable before = prev.podTable();
        List<PodInfo> prevPods = prev.podList();
        int[] prevOrdinals = prev.listOrdinals();
        int limit = prev.ordinalLimit();
        int next = limit;
        boolean[] reused = new boolean[limit];
        boolean[] dirty = new boolean[n];
        List<Pod> listedPods = state.pods();
        List<PodInfo> pods = new ArrayList<>(listedPods.size());
        int[] ordinals = new int[listedPods.size()];
        PodTable table = new PodTable(before, limit + listedPods.size() / 16 + 16);
        // Both pod lists are in the state's order, which a view store keeps (its key order): an unchanged pod is
        // found at the cursor by identity alone, reading neither the pod nor its entry (ordinals come from arrays);
        // a pod added, removed or replaced costs a lookup and moves the cursor.
        int cursor = 0;
        for (int i = 0; i < ordinals.length; i++) {
            Pod listed = listedPods.get(i);
            PodInfo old = null;
            int o = -1;
            if (cursor < prevOrdinals.length && before.listed[prevOrdinals[cursor]] == listed) {
                o = prevOrdinals[cursor];
                old = prevPods.get(cursor++);
            } else {
                PodInfo found = prev.pod(listed.ref());
                if (found != null) {
                    for (int k = 0; k < 8 && cursor + k < prevPods.size(); k++) {
                        if (prevPods.get(cursor + k) == found) {
                            cursor += k + 1;
                            break;
                        }
                    }
                    if (before.listed[found.ordinal()] == listed) {
                        old = found;
                        o = found.ordinal();
                    }
                }
            }
            if (old != null && !reused[o] && (sameGroupPriorities || samePriority(old, groupPriorities, before))) {
                // The same object under the same PriorityClasses, served resources and group priorities: its entry,
                // node and traits hold as they are.
                reused[o] = true;
                ordinals[i] = o;
                pods.add(old);
                continue;
            }
            // A pod whose unserved extended requests are dropped is compiled from the listed object.
            Pod p = ExtendedResourceClaim.servedOnly(listed, served);
            if (!scalarsKnown(p.requests(), resources)) {
                return new ClusterSnapshot(state, dra); // a new scalar resource: the index grows
            }
            int own = priorities.resolve(p.priority(), p.priorityClassName());
            GroupRef g = p.groupRef();
            Integer gp = g == null ? null : groupPriorities.get(g);
            ResourceList r = p.requests();
            PodInfo info = new PodInfo(p, prev.compileVector(r),
                    ClusterSnapshot.nonZero(r, ResourceList.CPU, PodInfo.DEFAULT_MILLI_CPU_REQUEST),
                    ClusterSnapshot.nonZero(r, ResourceList.MEMORY, PodInfo.DEFAULT_MEMORY_REQUEST), own,
                    gp == null ? own : gp, next++);
            int at = p.isBound() && !p.isTerminal() ? prev.nodeIndex(p.nodeName()) : -1;
            table.put(info.ordinal(), listed, p, at);
            if (at >= 0) {
                dirty[at] = true;
            }
            ordinals[i] = info.ordinal();
            pods.add(info);
        }
        if (next > 2 * listedPods.size() + 1024) {
            return new ClusterSnapshot(state, dra); // too sparse: renumber
        }
        for (int o : prevOrdinals) {
            if (!reused[o]) {
                if (before.nodeOf[o] >= 0) {
                    dirty[before.nodeOf[o]] = true;
                }
                scalarsMayShrink |= hasScalars(before.listed[o].requests());
                table.clear(o);
            }
        }
        Map<PodRef, PodInfo> changed = new HashMap<>();
        int baseLimit = prev.baseLimit();
        boolean[] live = new boolean[next];
        for (int i = 0; i < ordinals.length; i++) {
            live[ordinals[i]] = true;
            if (ordinals[i] >= baseLimit) {
                PodInfo info = pods.get(i);
                changed.put(info.ref(), info); // not the base index's entry for its reference
            }
        }
        if (changed.size() > listedPods.size() / 4 + 1024) {
            return new ClusterSnapshot(state, dra); // the shared index no longer pays
        }
        NodeInfo[] nodes = new NodeInfo[n];
        boolean nodesChanged = false;
        boolean labelsKept = true;
        for (int i = 0; i < n; i++) {
            Node node = sorted.get(i);
            NodeInfo old = prev.compiledNode(i);
            if (old.node() != node) {
                labelsKept &= old.node().labels().equals(node.labels());
                if (!scalarsKnown(node.allocatable(), resources)) {
                    return new ClusterSnapshot(state, dra);
                }
                scalarsMayShrink |= hasScalars(old.node().allocatable());
                dirty[i] = true;
                nodesChanged = true;
            }
            nodes[i] = !dirty[i] ? old : new NodeInfo(i, node, prev.compileVector(node.allocatable()),
                    node.allocatable().get(ResourceList.PODS));
        }
        if (scalarsMayShrink && !sameScalars(resources, state)) {
            return new ClusterSnapshot(state, dra);
        }
        for (int i = 0; i < ordinals.length; i++) {
            int at = table.nodeOf[ordinals[i]];
            if (at >= 0 && dirty[at]) {
                nodes[at].add(pods.get(i)); // in state order, as the full compile adds them
            }
        }
        return new ClusterSnapshot(prev, state, dra, nodes, pods, ordinals, changed, live, table, next,
                groupPriorities, nodesChanged, labelsKept);
    }

    /** Whether the nodes are the previous snapshot's by name, position by position. */
    private static boolean sameNames(List<Node> nodes, ClusterSnapshot prev) {
        for (int i = 0; i < nodes.size(); i++) {
            Node now = nodes.get(i);
            Node was = prev.nodeObject(i);
            if (now != was && !now.name().equals(was.name())) {
                return false;
            }
        }
        return true;
    }

    /** Whether a pod's effective priority resolves as its entry says under the new group priorities. */
    private static boolean samePriority(PodInfo old, Map<GroupRef, Integer> groupPriorities, PodTable table) {
        if (!table.has(old.ordinal(), PodTable.GROUP)) {
            return true; // no group: effective is its own priority, unchanged
        }
        Integer gp = groupPriorities.get(old.pod().groupRef());
        return (gp == null ? old.priority() : gp) == old.effectivePriority();
    }

    private static boolean scalarsKnown(ResourceList list, ResourceIndex index) {
        for (int i = 0; i < list.size(); i++) {
            if (ResourceList.isScalar(list.name(i)) && index.indexOf(list.name(i)) < 0) {
                return false;
            }
        }
        return true;
    }

    private static boolean hasScalars(ResourceList list) {
        for (int i = 0; i < list.size(); i++) {
            if (ResourceList.isScalar(list.name(i))) {
                return true;
            }
        }
        return false;
    }

    /** Whether the state names exactly the scalar resources the previous snapshot indexed. */
    private static boolean sameScalars(ResourceIndex index, ClusterState state) {
        TreeSet<String> scalars = new TreeSet<>();
        for (Node node : state.nodes()) {
            collect(node.allocatable(), scalars);
        }
        for (Pod p : state.pods()) {
            collect(p.requests(), scalars);
        }
        return Arrays.equals(new ResourceIndex(scalars).names(), index.names());
    }

    private static void collect(ResourceList list, TreeSet<String> into) {
        for (int i = 0; i < list.size(); i++) {
            if (ResourceList.isScalar(list.name(i))) {
                into.add(list.name(i));
            }
        }
    }
}
