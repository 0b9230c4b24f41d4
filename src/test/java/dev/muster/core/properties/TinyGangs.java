package dev.muster.core.properties;

import dev.muster.core.model.ClusterState;
import dev.muster.core.model.HostPort;
import dev.muster.core.model.Node;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodAffinityTerm;
import dev.muster.core.model.PodGroup;
import dev.muster.core.model.Taint;
import dev.muster.core.model.TaintEffect;
import dev.muster.core.model.Toleration;
import dev.muster.core.testing.Groups;
import dev.muster.core.testing.Nodes;
import dev.muster.core.testing.Pods;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static dev.muster.core.testing.Pods.affinityTerm;
import static dev.muster.core.testing.Pods.labels;
import static dev.muster.core.testing.Pods.pod;

/**
 * Tiny instances for the exhaustive oracle: 2–5 nodes, one gang of 2–5 pending members, no topology constraint,
 * and an {@link #feasible exhaustive search} over every assignment of members to nodes or "unplaced" that says
 * whether bound + placed can reach {@code minCount}. The search checks exactly the filters the instances use
 * (capacity, pod slots, cordon, taints, nodeSelector, host ports, required anti-affinity on the hostname), written
 * here without engine code.
 */
final class TinyGangs {
    static final String GROUP = "gang";
    static final String ZONE = ClusterGen.ZONE;
    static final String HOST = ClusterGen.HOST;

    private TinyGangs() {
    }

    /**
     * @param homogeneous identical members (equal requests, labels, selectors, tolerations, ports) and no pod
     *                    affinity among them; otherwise requests differ and some members repel each other
     */
    static ClusterState instance(long seed, boolean homogeneous) {
        SplittableRandom r = new SplittableRandom(seed * 2 + (homogeneous ? 0 : 1));
        List<Node> nodes = new ArrayList<>();
        List<Pod> pods = new ArrayList<>();
        int n = 2 + r.nextInt(4);
        for (int i = 0; i < n; i++) {
            String name = "node-" + i;
            Nodes b = Nodes.node(name).label(HOST, name).label(ZONE, "z" + r.nextInt(2))
                    .allocatable("cpu", ClusterGen.pick(r, 2, 3, 4, 6) + "")
                    .allocatable("memory", ClusterGen.pick(r, 4, 8) + "Gi")
                    .allocatable("pods", (r.nextInt(5) == 0 ? 1 + r.nextInt(3) : 110) + "");
            if (r.nextInt(5) == 0) {
                b.taint("dedicated", "infra", TaintEffect.NoSchedule);
            }
            if (r.nextInt(10) == 0) {
                b.unschedulable();
            }
            nodes.add(b.build());
            if (r.nextInt(3) == 0) {
                Pods bound = pod("busy-" + i).on(name).label("app", "web")
                        .requests("cpu", (500 * (1 + r.nextInt(3))) + "m").requests("memory", "1Gi");
                if (r.nextInt(6) == 0) {
                    bound.hostPort("", "TCP", 7000);
                }
                pods.add(bound.build());
            }
        }
        int m = 2 + r.nextInt(4);
        int minCount = r.nextInt(3) == 0 ? 1 + r.nextInt(m) : m;
        if (homogeneous) {
            long cpu = 500L * (1 + r.nextInt(6));
            long memMi = 1024L * (1 + r.nextInt(4));
            String zone = r.nextInt(5) == 0 ? "z" + r.nextInt(2) : null;
            boolean tolerate = r.nextInt(3) == 0;
            boolean port = r.nextInt(6) == 0;
            for (int i = 0; i < m; i++) {
                Pods p = pod("m-" + i).label("grp", GROUP).requests("cpu", cpu + "m").requests("memory", memMi + "Mi");
                if (zone != null) {
                    p.nodeSelector(ZONE, zone);
                }
                if (tolerate) {
                    p.toleration("dedicated", Toleration.Operator.Equal, "infra", TaintEffect.NoSchedule);
                }
                if (port) {
                    p.hostPort("", "TCP", 7000);
                }
                pods.add(Groups.member(p.build(), GROUP));
            }
        } else {
            int anti = r.nextInt(5); // 0: all members repel each other, 1-2: the "ps" members do, else none
            for (int i = 0; i < m; i++) {
                Pods p = pod("m-" + i).label("grp", GROUP)
                        .requests("cpu", (500L * (1 + r.nextInt(6))) + "m")
                        .requests("memory", (512L * (1 + r.nextInt(8))) + "Mi");
                boolean ps = r.nextBoolean();
                p.label("role", ps ? "ps" : "worker");
                if (anti == 0) {
                    p.podAntiAffinity(affinityTerm(labels("grp", GROUP), HOST));
                } else if (anti <= 2 && ps) {
                    p.podAntiAffinity(affinityTerm(labels("role", "ps"), HOST));
                }
                if (r.nextInt(6) == 0) {
                    p.nodeSelector(ZONE, "z" + r.nextInt(2));
                }
                if (r.nextInt(4) == 0) {
                    p.toleration("dedicated", Toleration.Operator.Equal, "infra", TaintEffect.NoSchedule);
                }
                pods.add(Groups.member(p.build(), GROUP));
            }
        }
        PodGroup g = Groups.gang(GROUP, minCount).build();
        return new ClusterState(nodes, pods, List.of(g), List.of(), List.of());
    }

    /** The same instance with the gang constrained to one zone ({@code spec.schedulingConstraints.topology}). */
    static ClusterState zoneConstrained(long seed, boolean homogeneous) {
        ClusterState s = instance(seed, homogeneous);
        PodGroup g = Groups.gang(GROUP, s.podGroups().get(0).policy().minCount()).topology(ZONE).build();
        return new ClusterState(s.nodes(), s.pods(), List.of(g), List.of(), List.of());
    }

    /**
     * Exhaustive, for a gang constrained to one domain of {@code key}: is there a domain whose nodes alone admit an
     * assignment reaching minCount? (No member is bound in these instances, so no domain is pinned.)
     */
    static boolean feasibleInSomeDomain(ClusterState state, String key) {
        java.util.Set<String> values = new java.util.TreeSet<>();
        for (Node n : state.nodes()) {
            if (n.labels().containsKey(key)) {
                values.add(n.labels().get(key));
            }
        }
        for (String v : values) {
            List<Node> domain = new ArrayList<>();
            java.util.Set<String> names = new java.util.HashSet<>();
            for (Node n : state.nodes()) {
                if (v.equals(n.labels().get(key))) {
                    domain.add(n);
                    names.add(n.name());
                }
            }
            List<Pod> pods = new ArrayList<>();
            for (Pod p : state.pods()) {
                if (p.nodeName() == null || names.contains(p.nodeName())) {
                    pods.add(p);
                }
            }
            if (feasible(new ClusterState(domain, pods, state.podGroups(), List.of(), List.of()))) {
                return true;
            }
        }
        return false;
    }

    /** Exhaustive: is there an assignment of pending members to nodes (or none) with bound + placed ≥ minCount? */
    static boolean feasible(ClusterState state) {
        return new Search(state).run();
    }

    /** Exhaustive: the most pending members any assignment places together (minCount aside). */
    static int maxPlaced(ClusterState state) {
        return new Search(state).max();
    }

    /** The same instance as a basic-policy group (no minCount). */
    static ClusterState basic(long seed) {
        ClusterState s = instance(seed, false);
        return new ClusterState(s.nodes(), s.pods(), List.of(Groups.basic(GROUP).build()), List.of(), List.of());
    }

    private static final class Search {
        private final List<Node> nodes;
        private final List<Pod> members = new ArrayList<>();
        private final List<List<Pod>> onNode = new ArrayList<>();
        private final long[][] free;
        private final int[] slots;
        private final int need;

        Search(ClusterState state) {
            nodes = state.nodes();
            PodGroup g = state.podGroups().get(0);
            int bound = 0;
            for (int j = 0; j < nodes.size(); j++) {
                onNode.add(new ArrayList<>());
            }
            free = new long[nodes.size()][Invariants.RESOURCES.length];
            slots = new int[nodes.size()];
            for (int j = 0; j < nodes.size(); j++) {
                for (int k = 0; k < Invariants.RESOURCES.length; k++) {
                    free[j][k] = nodes.get(j).allocatable().get(Invariants.RESOURCES[k]);
                }
                slots[j] = (int) nodes.get(j).allocatable().get("pods");
            }
            for (Pod p : state.pods()) {
                if (p.nodeName() != null && !Invariants.terminal(p)) {
                    int j = indexOf(p.nodeName());
                    onNode.get(j).add(p);
                    take(j, p, 1);
                    if (GROUP.equals(p.podGroupName())) {
                        bound++;
                    }
                } else if (Invariants.pending(p) && p.schedulingGates().isEmpty()
                        && g.ref().name().equals(p.podGroupName())) {
                    members.add(p);
                }
            }
            need = g.policy().minCount() - bound;
        }

        private int indexOf(String node) {
            for (int j = 0; j < nodes.size(); j++) {
                if (nodes.get(j).name().equals(node)) {
                    return j;
                }
            }
            throw new IllegalArgumentException(node);
        }

        private void take(int j, Pod p, int sign) {
            for (int k = 0; k < Invariants.RESOURCES.length; k++) {
                free[j][k] -= sign * p.requests().get(Invariants.RESOURCES[k]);
            }
            slots[j] -= sign;
        }

        boolean run() {
            return dfs(0, 0);
        }

        int max() {
            return most(0, 0, 0);
        }

        private int most(int i, int placed, int best) {
            if (placed + (members.size() - i) <= best) {
                return best;
            }
            if (i == members.size()) {
                return placed;
            }
            Pod p = members.get(i);
            for (int j = 0; j < nodes.size(); j++) {
                if (fits(p, j)) {
                    onNode.get(j).add(p);
                    take(j, p, 1);
                    best = Math.max(best, most(i + 1, placed + 1, best));
                    take(j, p, -1);
                    onNode.get(j).remove(onNode.get(j).size() - 1);
                }
            }
            return Math.max(best, most(i + 1, placed, best));
        }

        private boolean dfs(int i, int placed) {
            if (placed >= need) {
                return true;
            }
            if (placed + (members.size() - i) < need) {
                return false;
            }
            Pod p = members.get(i);
            for (int j = 0; j < nodes.size(); j++) {
                if (fits(p, j)) {
                    onNode.get(j).add(p);
                    take(j, p, 1);
                    boolean ok = dfs(i + 1, placed + 1);
                    take(j, p, -1);
                    onNode.get(j).remove(onNode.get(j).size() - 1);
                    if (ok) {
                        return true;
                    }
                }
            }
            return dfs(i + 1, placed);
        }

        private boolean fits(Pod p, int j) {
            Node n = nodes.get(j);
            if (slots[j] < 1) {
                return false;
            }
            for (int k = 0; k < Invariants.RESOURCES.length; k++) {
                long req = p.requests().get(Invariants.RESOURCES[k]);
                if (req > 0 && req > free[j][k]) {
                    return false;
                }
            }
            if (n.unschedulable() && !Invariants.tolerates(p.tolerations(),
                    new Taint(ClusterGen.UNSCHEDULABLE_TAINT, "", TaintEffect.NoSchedule))) {
                return false;
            }
            for (Taint t : n.taints()) {
                if (t.effect() != TaintEffect.PreferNoSchedule && !Invariants.tolerates(p.tolerations(), t)) {
                    return false;
                }
            }
            for (Map.Entry<String, String> e : p.nodeSelector().entrySet()) {
                if (!e.getValue().equals(n.labels().get(e.getKey()))) {
                    return false;
                }
            }
            // Every node has its own hostname, so the hostname domain of a node is the node itself.
            for (Pod q : onNode.get(j)) {
                for (HostPort a : p.hostPorts()) {
                    for (HostPort b : q.hostPorts()) {
                        if (Invariants.portsConflict(a, b)) {
                            return false;
                        }
                    }
                }
                for (PodAffinityTerm t : p.affinity().requiredPodAntiAffinity()) {
                    if (HOST.equals(t.topologyKey()) && Invariants.termMatches(t, p, q)) {
                        return false;
                    }
                }
                for (PodAffinityTerm t : q.affinity().requiredPodAntiAffinity()) {
                    if (HOST.equals(t.topologyKey()) && Invariants.termMatches(t, q, p)) {
                        return false;
                    }
                }
            }
            return true;
        }
    }
}
