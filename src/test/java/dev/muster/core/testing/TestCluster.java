package dev.muster.core.testing;

import dev.muster.core.framework.ClusterView;
import dev.muster.core.framework.CycleState;
import dev.muster.core.framework.FilterPlugin;
import dev.muster.core.framework.NodeInfo;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.framework.PreFilterPlugin;
import dev.muster.core.framework.PreScorePlugin;
import dev.muster.core.framework.ResourceIndex;
import dev.muster.core.framework.ScorePlugin;
import dev.muster.core.framework.Status;
import dev.muster.core.model.ClusterState;
import dev.muster.core.model.GroupRef;
import dev.muster.core.model.Node;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodGroup;
import dev.muster.core.model.PodRef;
import dev.muster.core.snapshot.SnapshotOverlay;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A compiled snapshot of nodes and pods plus a {@link ClusterView} over all its nodes, and helpers that run one
 * plugin the way the engine does: PreFilter then Filter on every node; PreScore, Score and normalize on the
 * feasible ones.
 */
public final class TestCluster implements ClusterView {
    private final SnapshotOverlay snapshot;

    private TestCluster(SnapshotOverlay snapshot) {
        this.snapshot = snapshot;
    }

    public static TestCluster of(List<Node> nodes, List<Pod> pods) {
        return new TestCluster(new SnapshotOverlay(new ClusterState(nodes, pods, List.of(), List.of(), List.of())));
    }

    /** A cluster with PodGroups and PodDisruptionBudgets (group priorities resolve into members' effective priority). */
    public static TestCluster of(List<Node> nodes, List<Pod> pods, List<PodGroup> groups,
                                 List<dev.muster.core.model.PodDisruptionBudget> pdbs) {
        return new TestCluster(new SnapshotOverlay(new ClusterState(nodes, pods, groups, List.of(), pdbs)));
    }

    public SnapshotOverlay snapshot() {
        return snapshot;
    }

    /** The pod of that name in "default", else the only pod of that name in any namespace. */
    public PodInfo pod(String name) {
        PodInfo p = snapshot.pod(new PodRef("default", name));
        if (p != null) {
            return p;
        }
        List<PodInfo> named = snapshot.pods().stream().filter(i -> i.ref().name().equals(name)).toList();
        return named.size() == 1 ? named.get(0) : pod("default", name);
    }

    public PodInfo pod(String namespace, String name) {
        PodInfo p = snapshot.pod(new PodRef(namespace, name));
        if (p == null) {
            throw new IllegalArgumentException("no pod " + namespace + "/" + name + " in the test cluster");
        }
        return p;
    }

    public NodeInfo node(String name) {
        int i = snapshot.nodeIndex(name);
        if (i < 0) {
            throw new IllegalArgumentException("no node " + name + " in the test cluster");
        }
        return snapshot.node(i);
    }

    /** Assumes a pending pod onto a node, as the cycle does for earlier members. */
    public TestCluster assume(String pod, String node) {
        snapshot.assume(pod(pod), snapshot.nodeIndex(node));
        return this;
    }

    @Override
    public int nodeCount() {
        return snapshot.nodeCount();
    }

    @Override
    public NodeInfo node(int i) {
        return snapshot.node(i);
    }

    @Override
    public int allNodeCount() {
        return snapshot.nodeCount();
    }

    @Override
    public NodeInfo anyNode(int i) {
        return snapshot.node(i);
    }

    @Override
    public ResourceIndex resources() {
        return snapshot.resources();
    }

    @Override
    public PodGroup podGroup(GroupRef ref) {
        return snapshot.podGroups().get(ref);
    }

    @Override
    public java.util.SortedMap<String, int[]> topologyDomains(String key) {
        return snapshot().topologyDomains(key);
    }

    @Override
    public int nodeIndex(String name) {
        return snapshot().nodeIndex(name);
    }

    @Override
    public int podsWithAffinity() {
        return snapshot().podsWithAffinity();
    }

    @Override
    public int podsWithRequiredAntiAffinity() {
        return snapshot().podsWithRequiredAntiAffinity();
    }

    @Override
    public <T extends dev.muster.core.framework.PodIndex> T podIndex(dev.muster.core.framework.StateKey<T> key,
                                                                     java.util.function.Supplier<T> empty) {
        return snapshot().podIndex(key, empty);
    }

    /** PreFilter (if any) then Filter per node, by node name in name order. A PreFilter Skip yields Success everywhere. */
    public Map<String, Status> filter(Object plugin, String podName) {
        PodInfo pod = pod(podName);
        CycleState state = new CycleState();
        Map<String, Status> out = new LinkedHashMap<>();
        if (plugin instanceof PreFilterPlugin pf) {
            Status s = pf.preFilter(state, pod, this);
            if (s.code() == dev.muster.core.framework.Code.Skip) {
                for (int i = 0; i < nodeCount(); i++) {
                    out.put(node(i).name(), Status.SUCCESS);
                }
                return out;
            }
            if (!s.isSuccess()) {
                for (int i = 0; i < nodeCount(); i++) {
                    out.put(node(i).name(), s);
                }
                return out;
            }
        }
        FilterPlugin f = (FilterPlugin) plugin;
        for (int i = 0; i < nodeCount(); i++) {
            out.put(node(i).name(), f.filter(state, pod, node(i)));
        }
        return out;
    }

    /** Names of nodes passing {@link #filter}. */
    public List<String> feasible(Object plugin, String podName) {
        List<String> ok = new ArrayList<>();
        filter(plugin, podName).forEach((n, s) -> {
            if (s.isSuccess()) {
                ok.add(n);
            }
        });
        return ok;
    }

    /** Normalized scores of the given nodes (all nodes when none given). A PreScore Skip yields an empty map. */
    public Map<String, Long> score(ScorePlugin plugin, String podName, String... nodeNames) {
        PodInfo pod = pod(podName);
        List<NodeInfo> nodes = new ArrayList<>();
        if (nodeNames.length == 0) {
            for (int i = 0; i < nodeCount(); i++) {
                nodes.add(node(i));
            }
        } else {
            for (String n : nodeNames) {
                nodes.add(node(n));
            }
        }
        int[] feasible = new int[nodes.size()];
        for (int i = 0; i < feasible.length; i++) {
            feasible[i] = nodes.get(i).index();
        }
        CycleState state = new CycleState();
        if (plugin instanceof PreScorePlugin ps) {
            Status s = ps.preScore(state, pod, this, feasible);
            if (s.code() == dev.muster.core.framework.Code.Skip) {
                return Map.of();
            }
            if (!s.isSuccess()) {
                throw new AssertionError("PreScore failed: " + s);
            }
        }
        long[] scores = new long[nodes.size()];
        for (int i = 0; i < scores.length; i++) {
            scores[i] = plugin.score(state, pod, nodes.get(i));
        }
        plugin.normalize(state, pod, scores);
        Map<String, Long> out = new LinkedHashMap<>();
        for (int i = 0; i < scores.length; i++) {
            out.put(nodes.get(i).name(), scores[i]);
        }
        return out;
    }

    /** Raw (not normalized) score of one node after PreScore over the given feasible nodes (all when none given). */
    public long rawScore(ScorePlugin plugin, String podName, String nodeName) {
        PodInfo pod = pod(podName);
        int[] feasible = new int[nodeCount()];
        for (int i = 0; i < feasible.length; i++) {
            feasible[i] = i;
        }
        CycleState state = new CycleState();
        if (plugin instanceof PreScorePlugin ps) {
            ps.preScore(state, pod, this, feasible);
        }
        return plugin.score(state, pod, node(nodeName));
    }
}
