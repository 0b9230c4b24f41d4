package dev.muster.core.snapshot;

import dev.muster.core.dra.DraObjects;
import dev.muster.core.dra.ExtendedResourceClaim;
import dev.muster.core.framework.NodeInfo;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.framework.ResourceIndex;
import dev.muster.core.model.ClusterState;
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
 * Derives a {@link ClusterSnapshot} from the previous one ({@link ClusterSnapshot#next}): a watched cluster changes a
 * few objects between views, and compiling 1,000,000 pods again would allocate (and make the collector copy) a
 * whole new set of pod entries and indexes each time.
 * <p>
 * A pod entry ({@link PodInfo}) is reused when its {@code Pod} is the same instance and its priorities resolve the
 * same; others get fresh entries with ordinals above the previous ones (ordinals only index per-pod tables, so they
 * need not be dense). A node entry is reused when its {@code Node} is the same instance and no pod came to it or
 * left it; others are rebuilt with their pods in state order, as the full compile adds them. The pod index is the
 * full compile's map, shared, plus the references whose entry differs. What cannot be derived exactly, or no longer
 * pays (nodes added or removed, other PriorityClasses or scalar resources, ordinals or the index delta grown past
 * the pods), compiles from scratch.
 */
final class Incremental {
    private Incremental() {
    }

    static ClusterSnapshot derive(ClusterSnapshot prev, ClusterState state, DraObjects dra) {
        List<Node> sorted = new ArrayList<>(state.nodes());
        sorted.sort((a, b) -> a.name().compareTo(b.name()));
        int n = sorted.size();
        if (n != prev.nodeCount() || !state.priorityClasses().equals(prev.priorityClassList())) {
            return new ClusterSnapshot(state, dra);
        }
        for (int i = 0; i < n; i++) {
            if (!sorted.get(i).name().equals(prev.nodeObject(i).name())) {
                return new ClusterSnapshot(state, dra);
            }
        }
        if (!sameScalars(prev.resources(), state)) {
            return new ClusterSnapshot(state, dra);
        }
        java.util.Set<String> served = ExtendedResourceClaim.servedResources(dra.deviceClasses());
        if (!served.equals(prev.servedResources())) {
            return new ClusterSnapshot(state, dra); // other extended resources are served by devices
        }
        Priorities priorities = new Priorities(state.priorityClasses());
        Map<GroupRef, Integer> groupPriorities = prev.resolveGroupPriorities(state, priorities);
        int limit = prev.ordinalLimit();
        int next = limit;
        boolean[] reused = new boolean[limit];
        boolean[] dirty = new boolean[n];
        List<PodInfo> pods = new ArrayList<>(state.pods().size());
        for (Pod listed : state.pods()) {
            // A pod whose unserved extended requests were dropped is a new object every time: it is rebuilt.
            Pod p = ExtendedResourceClaim.servedOnly(listed, served);
            int own = priorities.resolve(p.priority(), p.priorityClassName());
            GroupRef g = p.groupRef();
            Integer gp = g == null ? null : groupPriorities.get(g);
            int effective = gp == null ? own : gp;
            PodInfo old = prev.pod(p.ref());
            PodInfo info;
            if (old != null && old.pod() == p && old.priority() == own && old.effectivePriority() == effective
                    && !reused[old.ordinal()]) {
                info = old;
                reused[old.ordinal()] = true;
            } else {
                ResourceList r = p.requests();
                info = new PodInfo(p, prev.compileVector(r),
                        ClusterSnapshot.nonZero(r, ResourceList.CPU, PodInfo.DEFAULT_MILLI_CPU_REQUEST),
                        ClusterSnapshot.nonZero(r, ResourceList.MEMORY, PodInfo.DEFAULT_MEMORY_REQUEST), own,
                        effective, next++);
                markNode(prev, p, dirty);
            }
            pods.add(info);
        }
        if (next > 2 * state.pods().size() + 1024) {
            return new ClusterSnapshot(state, dra); // too sparse: renumber
        }
        boolean[] prevOnNode = prev.onNodeTable();
        for (PodInfo old : prev.podList()) {
            if (!reused[old.ordinal()] && prevOnNode[old.ordinal()]) {
                markNode(prev, old.pod(), dirty);
            }
        }
        Map<PodRef, PodInfo> base = prev.baseIndex();
        Map<PodRef, PodInfo> changed = new HashMap<>();
        boolean[] live = new boolean[next];
        for (PodInfo info : pods) {
            live[info.ordinal()] = true;
            if (base.get(info.ref()) != info) {
                changed.put(info.ref(), info);
            }
        }
        if (changed.size() > state.pods().size() / 4 + 1024) {
            return new ClusterSnapshot(state, dra); // the shared index no longer pays
        }
        NodeInfo[] table = new NodeInfo[n];
        boolean nodesChanged = false;
        for (int i = 0; i < n; i++) {
            Node node = sorted.get(i);
            NodeInfo old = prev.compiledNode(i);
            if (old.node() != node) {
                dirty[i] = true;
                nodesChanged = true;
            }
            table[i] = !dirty[i] ? old : new NodeInfo(i, node, prev.compileVector(node.allocatable()),
                    node.allocatable().get(ResourceList.PODS));
        }
        boolean[] onNode = new boolean[next];
        for (PodInfo info : pods) {
            Pod p = info.pod();
            if (p.isBound() && !p.isTerminal()) {
                int at = prev.nodeIndex(p.nodeName());
                if (at >= 0) {
                    onNode[info.ordinal()] = true;
                    if (dirty[at]) {
                        table[at].add(info);
                    }
                }
            }
        }
        return new ClusterSnapshot(prev, state, dra, table, pods, changed, live, onNode, next, groupPriorities,
                nodesChanged);
    }

    private static void markNode(ClusterSnapshot prev, Pod p, boolean[] dirty) {
        if (p.isBound() && !p.isTerminal()) {
            int at = prev.nodeIndex(p.nodeName());
            if (at >= 0) {
                dirty[at] = true;
            }
        }
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
