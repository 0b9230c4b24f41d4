package dev.muster.core.properties;

import dev.muster.core.model.ClusterState;
import dev.muster.core.model.Node;
import dev.muster.core.model.NodeSelectorRequirement;
import dev.muster.core.model.NodeSelectorTerm;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodGroup;
import dev.muster.core.model.TaintEffect;
import dev.muster.core.model.Toleration;
import dev.muster.core.model.TopologySpreadConstraint;
import dev.muster.core.testing.Groups;
import dev.muster.core.testing.Nodes;
import dev.muster.core.testing.Pods;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static dev.muster.core.testing.Pods.affinityTerm;
import static dev.muster.core.testing.Pods.labels;
import static dev.muster.core.testing.Pods.pod;

/**
 * Random small clusters for property tests, one per seed, so a failing property names a seed that reproduces it.
 * <p>
 * One generation rule keeps the spread check of {@link Invariants} sound: every pending pod that carries the label
 * {@code grp=<group>} is a member of that group, and when the group uses a topology spread constraint all its pending
 * members carry the same constraint (selector {@code grp=<group>}) and the same node selector. Then the last member
 * placed into a domain bounds that domain's final count, whatever order the engine placed them in.
 */
public final class ClusterGen {
    public static final String ZONE = "topology.kubernetes.io/zone";
    public static final String RACK = "example.com/rack";
    public static final String HOST = "kubernetes.io/hostname";
    public static final String GPU = "example.com/gpu";
    public static final String GEN = "example.com/generation";
    public static final String UNSCHEDULABLE_TAINT = "node.kubernetes.io/unschedulable";
    static final long T0 = 1_700_000_000L;

    private static final String[] APPS = {"web", "db", "cache"};

    private ClusterGen() {
    }

    /** A random cluster: 1–12 nodes, bound pods, 1–4 PodGroups with pending members. */
    public static ClusterState cluster(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        List<Node> nodes = nodes(r);
        List<Pod> pods = new ArrayList<>(boundPods(r, nodes));
        List<PodGroup> groups = new ArrayList<>();
        int groupCount = 1 + r.nextInt(4);
        boolean otherUsed = false;
        for (int g = 0; g < groupCount; g++) {
            // Now and then (once at most) a group in another namespace under a name the default namespace also uses.
            boolean other = g > 0 && !otherUsed && r.nextInt(4) == 0;
            otherUsed |= other;
            groups.add(group(r, other ? "team-b" : "default", other ? "g0" : "g" + g, nodes, pods));
        }
        if (r.nextInt(10) == 0) {
            pods.add(Groups.member(pod("orphan").label("grp", "ghost").requests("cpu", "100m").build(), "ghost"));
        }
        shuffle(r, pods);
        return new ClusterState(nodes, pods, groups, List.of(), List.of());
    }

    static List<Node> nodes(SplittableRandom r) {
        int n = 1 + r.nextInt(12);
        int zones = 1 + r.nextInt(3);
        List<Node> nodes = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String name = String.format("node-%02d", i);
            Nodes b = Nodes.node(name).label(HOST, name);
            if (r.nextInt(20) != 0) {
                String zone = "z" + r.nextInt(zones);
                b.label(ZONE, zone);
                if (r.nextInt(10) != 0) {
                    b.label(RACK, zone + "-r" + r.nextInt(2));
                }
            }
            if (r.nextInt(3) != 0) {
                b.label(GEN, (1 + r.nextInt(4)) + "");
            }
            b.allocatable("cpu", pick(r, 2, 4, 8, 16) + "");
            b.allocatable("memory", pick(r, 4, 8, 16, 32) + "Gi");
            b.allocatable("pods", (r.nextInt(6) == 0 ? 1 + r.nextInt(4) : 110) + "");
            if (r.nextInt(5) == 0) {
                b.allocatable(GPU, (1 + r.nextInt(4)) + "");
            }
            switch (r.nextInt(8)) {
                case 0 -> b.taint("dedicated", "infra", TaintEffect.NoSchedule);
                case 1 -> b.taint("gpu", "true", TaintEffect.NoExecute);
                case 2 -> b.taint("spot", "true", TaintEffect.PreferNoSchedule);
                default -> { }
            }
            if (r.nextInt(10) == 0) {
                b.unschedulable();
            }
            nodes.add(b.build());
        }
        shuffle(r, nodes);
        return nodes;
    }

    /** Bound pods that mostly fit their node; some terminal ones that would overflow it if they counted. */
    static List<Pod> boundPods(SplittableRandom r, List<Node> nodes) {
        List<Pod> out = new ArrayList<>();
        for (Node node : nodes) {
            long cpuLeft = node.allocatable().get("cpu");
            long memLeft = node.allocatable().get("memory");
            long slots = node.allocatable().get("pods");
            int k = r.nextInt(4);
            for (int j = 0; j < k; j++) {
                String name = "b-" + node.name() + "-" + j;
                String app = APPS[r.nextInt(APPS.length)];
                Pods p = pod(name).on(node.name()).label("app", app);
                if (r.nextInt(8) == 0) {
                    // Terminal: holds nothing, even though its requests would fill the node.
                    p.phase(r.nextBoolean() ? "Succeeded" : "Failed")
                            .requests("cpu", node.allocatable().get("cpu") + "m")
                            .requests("memory", node.allocatable().get("memory") + "")
                            .hostPort("", "TCP", 7000)
                            .podAntiAffinity(affinityTerm(labels("grp", "g0"), HOST));
                    out.add(p.build());
                    continue;
                }
                long cpu = 100L * (1 + r.nextInt(20));
                long mem = 256L * 1024 * 1024 * (1 + r.nextInt(8));
                boolean fits = cpu <= cpuLeft && mem <= memLeft && slots > 0;
                if (!fits && r.nextInt(30) != 0) {
                    continue; // rarely, an overcommitted node: the engine must not add to it
                }
                cpuLeft -= cpu;
                memLeft -= mem;
                slots--;
                p.requests("cpu", cpu + "m").requests("memory", mem + "");
                if (r.nextInt(5) == 0) {
                    p.podAntiAffinity(affinityTerm(labels("app", APPS[r.nextInt(APPS.length)]), HOST));
                }
                if (r.nextInt(6) == 0) {
                    p.hostPort(r.nextInt(4) == 0 ? "10.0.0.1" : "", r.nextInt(4) == 0 ? "UDP" : "TCP",
                            pick(r, 8080, 9090, 7000));
                }
                if (r.nextInt(12) == 0) {
                    p.terminating(); // being deleted, still holding its resources
                }
                out.add(p.build());
            }
        }
        return out;
    }

    /** A group and its members (pending, gated, bound, terminal), added to {@code pods}. */
    static PodGroup group(SplittableRandom r, String ns, String name, List<Node> nodes, List<Pod> pods) {
        boolean gang = r.nextInt(10) < 7;
        int pending = 1 + r.nextInt(6);
        String topology = r.nextInt(4) == 0 ? (r.nextBoolean() ? ZONE : RACK) : null;
        long baseCpu = 100L * (1 + r.nextInt(30));
        long baseMem = 128L * 1024 * 1024 * (1 + r.nextInt(16));
        boolean hetero = r.nextBoolean();
        String groupZone = r.nextInt(6) == 0 ? "z" + r.nextInt(4) : null; // z3 never exists
        int tolerate = r.nextInt(6);
        boolean tolerateCordon = r.nextInt(10) == 0;
        int anti = r.nextInt(5); // 0: all members, 1: some members, 2: preferred on zones, else none
        // required anti-affinity per host or, for a third of the groups, per zone: a member placed then reaches every
        // node of its zone, which batched evaluation must see (BatchingEquivalenceTest)
        String antiKey = r.nextInt(3) == 0 ? ZONE : HOST;
        boolean ports = r.nextInt(7) == 0;
        List<TopologySpreadConstraint> spread = new ArrayList<>();
        if (r.nextInt(5) == 0) {
            spread.add(new TopologySpreadConstraint(1 + r.nextInt(2), pickOf(r, ZONE, HOST, RACK), true,
                    labels("grp", name), r.nextInt(3) == 0 ? 2 + r.nextInt(3) : null, r.nextInt(4) != 0,
                    r.nextInt(3) == 0, List.of()));
            if (r.nextInt(4) == 0) {
                spread.add(Pods.hardSpread(1, HOST, labels("grp", name)));
            }
        }
        NodeSelectorTerm[] nodeTerms = r.nextInt(6) == 0 ? nodeTerms(r, nodes) : null;
        boolean podPriorities = r.nextInt(3) == 0;
        boolean noRequests = r.nextInt(10) == 0;
        int port = pick(r, 7000, 7000, 8080);
        String portIp = r.nextInt(4) == 0 ? "10.0.0.1" : "";
        String portProtocol = r.nextInt(4) == 0 ? "UDP" : "TCP";
        boolean gpu = r.nextInt(8) == 0;
        boolean web = r.nextInt(4) == 0;

        // Bound members (some in the group's domain, some anywhere) and a terminal one now and then.
        int bound = 0;
        if (r.nextInt(6) == 0) {
            int k = 1 + r.nextInt(2);
            Node anchor = nodes.get(r.nextInt(nodes.size()));
            for (int i = 0; i < k; i++) {
                Node at = nodes.get(r.nextInt(nodes.size()));
                if (topology != null && r.nextInt(4) != 0) {
                    String v = anchor.labels().get(topology);
                    List<Node> same = new ArrayList<>();
                    for (Node n : nodes) {
                        if (v != null && v.equals(n.labels().get(topology))) {
                            same.add(n);
                        }
                    }
                    at = same.isEmpty() ? anchor : same.get(r.nextInt(same.size()));
                }
                pods.add(Groups.member(pod(name + "-bound-" + i).namespace(ns).label("grp", name)
                        .requests("cpu", baseCpu + "m").requests("memory", baseMem + "").on(at.name()).build(), name));
                bound++;
            }
        }
        if (r.nextInt(10) == 0) {
            pods.add(Groups.member(pod(name + "-done").namespace(ns).label("grp", name).requests("cpu", baseCpu + "m")
                    .on(nodes.get(r.nextInt(nodes.size())).name()).phase("Succeeded").build(), name));
        }

        for (int i = 0; i < pending; i++) {
            Pods p = pod(name + "-" + i).namespace(ns).label("grp", name);
            long cpu = hetero ? baseCpu * (1 + r.nextInt(3)) : baseCpu;
            long mem = hetero ? baseMem * (1 + r.nextInt(2)) : baseMem;
            if (!noRequests) {
                p.requests("cpu", cpu + "m").requests("memory", mem + "");
            }
            if (nodeTerms != null) {
                for (NodeSelectorTerm t : nodeTerms) {
                    p.requiredNodeTerm(t);
                }
            }
            if (gpu) {
                p.requests(GPU, "1");
            }
            if (web) {
                p.label("app", "web");
            }
            if (groupZone != null) {
                p.nodeSelector(ZONE, groupZone);
            } else if (spread.isEmpty() && r.nextInt(10) == 0) {
                p.nodeSelector(ZONE, "z" + r.nextInt(3));
            }
            switch (tolerate) {
                case 0 -> p.toleration("", Toleration.Operator.Exists, null, null);
                case 1 -> p.toleration("dedicated", Toleration.Operator.Equal, "infra", TaintEffect.NoSchedule);
                case 2 -> p.toleration("gpu", Toleration.Operator.Exists, null, TaintEffect.NoExecute);
                default -> { }
            }
            if (tolerateCordon) {
                p.toleration(UNSCHEDULABLE_TAINT, Toleration.Operator.Exists, null, TaintEffect.NoSchedule);
            }
            if (anti == 0 || (anti == 1 && r.nextBoolean())) {
                p.podAntiAffinity(affinityTerm(labels("grp", name), antiKey));
            } else if (anti == 2) {
                p.preferredPodAntiAffinity(50, affinityTerm(labels("grp", name), ZONE));
            }
            if (ports) {
                p.hostPort(portIp, portProtocol, port);
            }
            spread.forEach(p::spread);
            if (r.nextInt(15) == 0) {
                p.terminating(); // pending but being deleted: never placed
            }
            Pod built = Groups.member(p.build(), name);
            if (r.nextInt(8) == 0) {
                built = Groups.gated(built, "example.com/wait");
            }
            if (podPriorities) {
                built = Groups.withPriority(built, r.nextInt(3));
            }
            pods.add(built);
        }

        Groups g = gang ? Groups.gang(name, 1 + r.nextInt(pending + bound)) : Groups.basic(name);
        g.namespace(ns);
        g.priority(r.nextInt(4)).created(T0 + r.nextInt(5));
        if (topology != null) {
            g.topology(topology);
        }
        return g.build();
    }

    /** Required node affinity: one or two ORed terms over zone, rack, generation (Gt/Lt) and node name. */
    static NodeSelectorTerm[] nodeTerms(SplittableRandom r, List<Node> nodes) {
        NodeSelectorTerm[] terms = new NodeSelectorTerm[1 + r.nextInt(2)];
        for (int t = 0; t < terms.length; t++) {
            List<NodeSelectorRequirement> exprs = new ArrayList<>();
            List<NodeSelectorRequirement> fields = new ArrayList<>();
            switch (r.nextInt(6)) {
                case 0 -> exprs.add(Pods.req(ZONE, NodeSelectorRequirement.Operator.In, "z0", "z1"));
                case 1 -> exprs.add(Pods.req(ZONE, NodeSelectorRequirement.Operator.NotIn, "z" + r.nextInt(3)));
                case 2 -> exprs.add(Pods.req(RACK, NodeSelectorRequirement.Operator.Exists));
                case 3 -> exprs.add(Pods.req(GEN, r.nextBoolean() ? NodeSelectorRequirement.Operator.Gt
                        : NodeSelectorRequirement.Operator.Lt, (1 + r.nextInt(3)) + ""));
                case 4 -> exprs.add(Pods.req(RACK, NodeSelectorRequirement.Operator.DoesNotExist));
                default -> fields.add(Pods.req("metadata.name", r.nextBoolean() ? NodeSelectorRequirement.Operator.In
                        : NodeSelectorRequirement.Operator.NotIn, nodes.get(r.nextInt(nodes.size())).name(),
                        nodes.get(r.nextInt(nodes.size())).name()));
            }
            terms[t] = new NodeSelectorTerm(exprs, fields);
        }
        return terms;
    }

    static int pick(SplittableRandom r, int... values) {
        return values[r.nextInt(values.length)];
    }

    @SafeVarargs
    static <T> T pickOf(SplittableRandom r, T... values) {
        return values[r.nextInt(values.length)];
    }

    static <T> void shuffle(SplittableRandom r, List<T> list) {
        for (int i = list.size() - 1; i > 0; i--) {
            int j = r.nextInt(i + 1);
            T t = list.get(i);
            list.set(i, list.get(j));
            list.set(j, t);
        }
    }
}
