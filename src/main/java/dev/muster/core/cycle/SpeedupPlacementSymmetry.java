package dev.muster.core.cycle;

import dev.muster.core.framework.ClusterView;
import dev.muster.core.framework.FrameworkRuntime;
import dev.muster.core.framework.GroupContext;
import dev.muster.core.framework.NodeInfo;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.model.NodeSelectorRequirement;
import dev.muster.core.model.NodeSelectorTerm;
import dev.muster.core.model.Pod;
import dev.muster.core.snapshot.LabelSets;
import dev.muster.core.snapshot.NodeLooks;
import dev.muster.core.snapshot.SnapshotOverlay;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Placement symmetry: recognises candidate placements whose cycle must come out exactly like an earlier candidate's,
 * so that {@link SpeedupTwins} runs the cycle once per kind of domain instead of once per domain (32 empty racks are
 * one run, not 32). The nodes' looks ({@link NodeLooks}, worked out once per snapshot) make the comparison cheap.
 * <p>
 * Two candidates are equivalent when their nodes, position by position in name order, look alike to every plugin:
 * equal allocatable and requested resources, pod counts, used host ports, taints, schedulability, the labels the
 * members select nodes by, and what signing plugins read beyond that (devices and how much of each is taken); and
 * when their labels split both candidates' nodes into the same classes (what the bounded search merges; not asked
 * when a member claims devices, as the search then merges no nodes: racks that a zone boundary splits at different
 * positions are then one kind). Filter and
 * Score verdicts then agree node by node, ties break on the same positions, and the members land on the same
 * positions with the same placement scores; the earlier candidate comes first in name order, so it is the one a tie
 * keeps.
 * <p>
 * Only for groups whose verdicts are node-local: no member with pod (anti-)affinity or topology spread constraints,
 * no pod with affinity terms on any node (their terms read other nodes' pods and labels), every member signed
 * node-local and symmetric (see {@link dev.muster.core.framework.SignPlugin}: a member selecting nodes by field is
 * not, the NodeAffinity plugin says).
 */
final class SpeedupPlacementSymmetry {
    private final NodeClasses classes;
    /** Whether the bounded search would merge nodes by labels: false when a member claims devices. */
    private final boolean labelSplits;

    private SpeedupPlacementSymmetry(NodeClasses classes, boolean labelSplits) {
        this.classes = classes;
        this.labelSplits = labelSplits;
    }

    /** The equivalence for a group's candidates, or null when its verdicts are not node-local. */
    static SpeedupPlacementSymmetry of(SchedulingScope scope, GroupContext group) {
        ClusterView cluster = scope.allNodes();
        if (cluster.podsWithAffinity() > 0) {
            return null;
        }
        Set<String> selected = new TreeSet<>();
        FrameworkRuntime runtime = scope.runtime();
        boolean devices = false;
        for (PodInfo p : group.pending()) {
            Pod pod = p.pod();
            if (pod.affinity().hasPodAffinity() || !pod.topologySpreadConstraints().isEmpty()
                    || !runtime.runSymmetric(p, cluster)) {
                return null;
            }
            selectedKeys(pod, selected);
            devices |= BoundedSearch.mergesNoNodes(p);
        }
        return new SpeedupPlacementSymmetry(scope.nodeClasses(List.copyOf(selected)), !devices);
    }

    /**
     * A candidate's nodes as the cycle sees them; equal fingerprints mean equivalent candidates. Per position: the
     * node's class, and (when the bounded search would merge nodes by labels) the first position holding its label
     * set, with and without the hostname.
     */
    Object fingerprint(int[] nodes) {
        int n = nodes.length;
        if (!labelSplits) {
            int[] out = new int[n];
            for (int i = 0; i < n; i++) {
                out[i] = classes.classOf(nodes[i]);
            }
            return new Fingerprint(out);
        }
        int[] out = new int[3 * n];
        LabelSets labels = classes.labels();
        int stamp = classes.nextStamp();
        int[] seen = classes.seen;
        int[] firstAt = classes.firstAt;
        int count = labels.count();
        for (int i = 0; i < n; i++) {
            int node = nodes[i];
            out[i] = classes.classOf(node);
            int id = labels.all(node);
            if (seen[id] != stamp) {
                seen[id] = stamp;
                firstAt[id] = i;
            }
            out[n + i] = firstAt[id];
            id = count + labels.sansHost(node); // the second half of the arrays: sets without the hostname
            if (seen[id] != stamp) {
                seen[id] = stamp;
                firstAt[id] = i;
            }
            out[2 * n + i] = firstAt[id];
        }
        return new Fingerprint(out);
    }

    /**
     * A cycle result of an equivalent candidate carried over to this one: every member on the node at the same
     * position.
     */
    static CycleResult carryOver(CycleResult result, int[] from, int[] to) {
        List<MemberResult> members = new ArrayList<>(result.members().size());
        for (MemberResult m : result.members()) {
            if (!m.placed()) {
                members.add(m);
                continue;
            }
            int node = to[Arrays.binarySearch(from, m.node())];
            members.add(new MemberResult(m.pod(), node, m.diagnosis(), m.rejection(), m.sequence(), m.alternative()));
        }
        return new CycleResult(result.feasible(), members, result.placed(), result.search());
    }

    /**
     * Adds the label keys the pod selects nodes by (a pod selecting them by field, by name, is not symmetric: the
     * NodeAffinity plugin says so).
     */
    private static void selectedKeys(Pod pod, Set<String> keys) {
        keys.addAll(pod.nodeSelector().keySet());
        for (NodeSelectorTerm t : pod.affinity().nodeTerms()) {
            for (NodeSelectorRequirement r : t.matchExpressions()) {
                keys.add(r.key());
            }
        }
    }

    private record Fingerprint(int[] positions) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Fingerprint f && Arrays.equals(positions, f.positions);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(positions);
        }
    }

    /**
     * Each node's class for members selecting nodes by some label keys: nodes that look alike share a class number.
     * Kept for the whole decision and brought up to date by node version, so a node is looked at again only after it
     * changed. Label sets are numbered by the snapshot ({@link LabelSets}: labels never change).
     */
    static final class NodeClasses {
        private final SnapshotOverlay snapshot;
        private final FrameworkRuntime runtime;
        private final ClusterView cluster;
        private final List<String> selected;
        private final int[] version;
        private final int[] classOf;
        private LabelSets labels; // on first use: fingerprints of members claiming devices never split by labels
        // Scratch for fingerprints, indexed by label-set number (then by count + number without the hostname):
        // seen[id] == stamp when the current fingerprint met the set, at position firstAt[id].
        int[] seen;
        int[] firstAt;
        private int stamp;
        private final Map<Look, Integer> ids = new HashMap<>();

        NodeClasses(SnapshotOverlay snapshot, FrameworkRuntime runtime, ClusterView cluster, List<String> selected) {
            this.snapshot = snapshot;
            this.runtime = runtime;
            this.cluster = cluster;
            this.selected = selected;
            int n = snapshot.nodeCount();
            this.version = new int[n];
            this.classOf = new int[n];
            Arrays.fill(version, -1);
        }

        /** The snapshot's label sets, with the scratch arrays sized for them. */
        LabelSets labels() {
            if (labels == null) {
                labels = snapshot.snapshot().labelSets();
                seen = new int[2 * labels.count()];
                firstAt = new int[2 * labels.count()];
            }
            return labels;
        }

        /** A new stamp for the scratch arrays (a stamp is never 0, their initial value). */
        int nextStamp() {
            if (++stamp == Integer.MAX_VALUE) {
                Arrays.fill(seen, 0);
                stamp = 1;
            }
            return stamp;
        }

        int classOf(int node) {
            int v = snapshot.nodeVersion(node);
            if (version[node] != v) {
                Look look = look(node);
                Integer id = ids.get(look);
                if (id == null) {
                    id = ids.size();
                    ids.put(look, id);
                }
                classOf[node] = id;
                version[node] = v;
            }
            return classOf[node];
        }

        private Look look(int node) {
            NodeInfo n = snapshot.node(node);
            Map<String, String> labels = Map.of();
            if (!selected.isEmpty()) {
                Map<String, String> all = n.node().labels();
                labels = new TreeMap<>();
                for (String k : selected) {
                    String v = all.get(k);
                    if (v != null) {
                        labels.put(k, v);
                    }
                }
            }
            return new Look(nodeLook(node, n), labels, runtime.runNodeKey(n, cluster));
        }

        /** The node's look: the snapshot's for a node this run has not changed, else worked out again. */
        private NodeLooks.Look nodeLook(int node, NodeInfo n) {
            return snapshot.isCompiled(node) ? snapshot.snapshot().nodeLooks(runtime.lookedNodeFields()).look(node)
                    : NodeLooks.look(n, snapshot.resources().size(), runtime.lookedNodeFields());
        }
    }

    /**
     * What the plugins see of a node (its name and the labels no member selects by aside): its look
     * ({@link NodeLooks}), the labels members select by, and what signing plugins read.
     */
    private record Look(NodeLooks.Look nodeLook, Map<String, String> labels, Object plugins) {
    }
}
