package dev.muster.core.plugins.topologyplacement;

import dev.muster.core.framework.ClusterView;
import dev.muster.core.framework.CycleState;
import dev.muster.core.framework.FilterPlugin;
import dev.muster.core.framework.GroupContext;
import dev.muster.core.framework.NodeField;
import dev.muster.core.framework.NodeInfo;
import dev.muster.core.framework.PodField;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.framework.PreFilterPlugin;
import dev.muster.core.framework.SignPlugin;
import dev.muster.core.framework.StateKey;
import dev.muster.core.framework.Status;
import dev.muster.core.model.GroupRef;
import dev.muster.core.model.PlacementStrategy;
import dev.muster.core.model.PodGroup;
import dev.muster.core.model.SliceSpec;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Slices ({@value SliceSpec#ANNOTATION}) and the {@code Balanced} placement strategy (docs/placement.md): which nodes
 * of the current placement the next member of such a group may take. Groups without those annotations are skipped
 * at PreFilter (their Filter never runs) and sign as node-local, so they pay one annotation lookup per member.
 * <p>
 * Members fill slices one at a time. At each layer (outermost first), a member joins the domain whose slice is
 * incomplete (its members there are not a multiple of the slice size); when every slice is complete, it opens a new
 * one, which it may do only when enough members are left to fill it and only in a domain with room for a whole
 * slice: counted in copies of the member (by requests and pod slots, summed over the domain's nodes in whole inner
 * slices). A new slice goes to a domain the group already uses when one has room (slices share a domain before a new
 * one is taken), else to any domain with room, the scores choosing. With {@code Balanced}, a new unit (a slice, or a
 * member) goes only to a domain whose share in the candidate's {@link BalancedPlan} is not used up yet.
 * <p>
 * PlacementScore: with {@code Balanced}, feasible placements rank by the plan's threshold (the most members every
 * chosen domain takes alike), highest first, then by the fewest domains, then in name order (Kueue's choice of the
 * domain to balance in).
 */
public final class TopologySlicesPlugin implements PreFilterPlugin, FilterPlugin, SignPlugin, StrategyRanking {
    public static final String NAME = "TopologySlices";
    /** Filter reason on a node outside the domains the member may take. */
    public static final String OUTSIDE = "node(s) didn't match the pod group's slice or balanced placement";
    private static final Status REJECT = Status.unresolvable(NAME, OUTSIDE);
    private static final StateKey<Allowed> ALLOWED = StateKey.of("PreFilter" + NAME);

    /** The placement nodes the member may take: their snapshot indices ascending, and the verdict of each. */
    private record Allowed(int[] sorted, boolean[] allowed) {
    }

    /** PreFilter reads the pod's group and, for a group with slices or Balanced, how many copies of it fit. */
    private static final Set<PodField> READS = Set.of(PodField.NAMESPACE, PodField.POD_GROUP, PodField.REQUESTS);

    private static final Set<PodField> KEYED = Set.of(PodField.NAMESPACE, PodField.POD_GROUP);

    private static final Set<NodeField> NODE_READS = Set.of(NodeField.NAME, NodeField.LABELS, NodeField.ALLOCATABLE,
            NodeField.REQUESTED, NodeField.POD_COUNT, NodeField.PODS);

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Set<PodField> podFields() {
        return READS;
    }

    /**
     * The group decides something only for a group with slices or Balanced, whose members this plugin does not call
     * node-local: the key stays null.
     */
    @Override
    public Set<PodField> podKeyFields() {
        return KEYED;
    }

    /**
     * For a group with slices or Balanced: every node's labels (its domains), what it has free, where the group's
     * members are, and which node a verdict is about.
     */
    @Override
    public Set<NodeField> nodeFields() {
        return NODE_READS;
    }

    /** Read only for members of a group with slices or Balanced, which this plugin does not call node-local. */
    @Override
    public Set<NodeField> nodeKeyFields() {
        return NODE_READS;
    }

    /** Whether the group asks for slices or balanced placement (a lookup of two annotations). */
    static boolean shaped(PodGroup g) {
        return g.annotations().get(SliceSpec.ANNOTATION) != null
                || PlacementStrategy.asks(g, PlacementStrategy.BALANCED);
    }

    private static PodGroup groupOf(PodInfo pod, ClusterView cluster) {
        GroupRef ref = pod.groupRef();
        return ref == null ? null : cluster.podGroup(ref);
    }

    @Override
    public boolean nodeLocal(PodInfo pod, ClusterView cluster) {
        PodGroup g = groupOf(pod, cluster);
        return g == null || !shaped(g);
    }

    @Override
    public Status preFilter(CycleState state, PodInfo pod, ClusterView cluster) {
        PodGroup g = groupOf(pod, cluster);
        if (g == null || !shaped(g)) {
            return Status.SKIP;
        }
        GroupRef ref = g.ref();
        GroupShapes shapes = cluster.podIndex(GroupShapes.KEY, () -> new GroupShapes(cluster));
        GroupShapes.Shape shape = shapes.shape(ref);
        GroupShapes.Plan plan = shape.balanced()
                ? shapes.planFor(ref, shapes.layout(cluster, List.of()).sorted) : null;
        List<SliceSpec.Layer> layers;
        if (shape.slices() != null) {
            layers = shape.slices().layers();
        } else if (plan != null) {
            layers = List.of(new SliceSpec.Layer(plan.key(), 1));
        } else {
            return Status.SKIP; // balanced without a plan (bound members, or no room): nothing to keep to
        }
        List<String> keys = new ArrayList<>(layers.size());
        for (SliceSpec.Layer l : layers) {
            keys.add(l.key());
        }
        GroupShapes.Layout layout = shapes.layout(cluster, keys);
        String verdict = choose(shapes, ref, layout, layers, plan, pod, cluster, state);
        return verdict == null ? Status.SUCCESS : verdict.startsWith("!")
                ? Status.unresolvable(NAME, verdict.substring(1)) : Status.unschedulable(NAME, verdict);
    }

    /** Puts the allowed nodes into {@code state}; null, or why none is allowed ("!" first: preemption cannot help). */
    private static String choose(GroupShapes shapes, GroupRef ref, GroupShapes.Layout layout,
                                 List<SliceSpec.Layer> layers, GroupShapes.Plan plan, PodInfo pod,
                                 ClusterView cluster, CycleState state) {
        int depth = layers.size();
        int[][] count = new int[depth][];
        for (int j = 0; j < depth; j++) {
            count[j] = new int[layout.domains(j)];
        }
        int onAll = 0;
        for (Map.Entry<Integer, Integer> e : shapes.onNodes(ref).entrySet()) {
            onAll += e.getValue();
            int pos = layout.position(e.getKey());
            for (int j = 0; pos >= 0 && j < depth; j++) {
                int d = layout.domain[j][pos];
                if (d >= 0) {
                    count[j][d] += e.getValue();
                }
            }
        }
        long[][] cap = null;
        boolean[][] allowed = new boolean[depth][];
        int outer = layers.get(0).size();
        allowed[0] = new boolean[layout.domains(0)];
        boolean open = false;
        for (int d = 0; d < allowed[0].length; d++) {
            if (count[0][d] % outer != 0) {
                allowed[0][d] = open = true;
            }
        }
        if (!open) {
            int expected = shapes.expected(ref);
            if (expected >= 0 && expected - onAll < outer) {
                return "!" + String.format("%d member(s) of the pod group left to place, fewer than a slice of %d "
                        + "in %s", expected - onAll, outer, level(layers.get(0).key()));
            }
            cap = capacities(layout, layers, pod, cluster);
            boolean any = false;
            for (int d = 0; d < allowed[0].length; d++) {
                boolean room = cap[0][d] >= 1;
                if (plan != null) {
                    long quota = plan.quota().getOrDefault(layout.names.get(0).get(d), 0L);
                    allowed[0][d] = room && quota - count[0][d] >= outer;
                } else {
                    allowed[0][d] = room && count[0][d] > 0; // domains in use first
                }
                any |= allowed[0][d];
            }
            if (!any && plan == null) {
                for (int d = 0; d < allowed[0].length; d++) {
                    allowed[0][d] = cap[0][d] >= 1;
                    any |= allowed[0][d];
                }
            }
            if (!any) {
                return noRoom(layers.get(0), plan != null);
            }
        }
        for (int j = 1; j < depth; j++) {
            int size = layers.get(j).size();
            int[] parent = layout.parent.get(j);
            boolean[] up = allowed[j - 1];
            allowed[j] = new boolean[layout.domains(j)];
            boolean[] settled = new boolean[up.length];
            for (int e = 0; e < allowed[j].length; e++) {
                if (up[parent[e]] && count[j][e] % size != 0) {
                    allowed[j][e] = settled[parent[e]] = true; // the incomplete inner slice of this domain
                }
            }
            if (cap == null) {
                cap = capacities(layout, layers, pod, cluster);
            }
            for (int pass = 0; pass < 2; pass++) {
                boolean[] found = new boolean[up.length];
                for (int e = 0; e < allowed[j].length; e++) {
                    int p = parent[e];
                    if (up[p] && !settled[p] && cap[j][e] >= 1 && (pass == 1 || count[j][e] > 0)) {
                        allowed[j][e] = found[p] = true;
                    }
                }
                for (int p = 0; p < up.length; p++) {
                    settled[p] |= found[p];
                }
            }
        }
        boolean[] ok = new boolean[layout.nodes.length]; // by ascending snapshot index
        boolean any = false;
        int[] last = layout.domain[depth - 1];
        for (int k = 0; k < ok.length; k++) {
            int i = layout.sortedPosition[k];
            ok[k] = last[i] >= 0 && allowed[depth - 1][last[i]];
            any |= ok[k];
        }
        if (!any) {
            return noRoom(layers.get(depth - 1), false);
        }
        state.put(ALLOWED, new Allowed(layout.sorted, ok));
        return null;
    }

    private static String noRoom(SliceSpec.Layer layer, boolean balanced) {
        return balanced
                ? String.format("no %s domain has room left in the pod group's balanced placement", level(layer.key()))
                : String.format("no %s domain has room for a slice of %d member(s)", level(layer.key()), layer.size());
    }

    private static String level(String key) {
        return GroupShapes.NODE_LEVEL.equals(key) ? "node" : key;
    }

    /**
     * Per layer, per domain: whole slices of that layer the domain has room for, counted in copies of {@code pod}
     * and, above the innermost layer, in whole slices of the layer below.
     */
    private static long[][] capacities(GroupShapes.Layout layout, List<SliceSpec.Layer> layers, PodInfo pod,
                                       ClusterView cluster) {
        int depth = layers.size();
        long[][] cap = new long[depth][];
        int innermost = depth - 1;
        long[] members = new long[layout.domains(innermost)];
        for (int i = 0; i < layout.nodes.length; i++) {
            int d = layout.domain[innermost][i];
            if (d >= 0) {
                members[d] += room(cluster.node(i), pod);
            }
        }
        for (int j = innermost; j >= 0; j--) {
            int size = layers.get(j).size();
            cap[j] = new long[members.length];
            for (int d = 0; d < members.length; d++) {
                cap[j][d] = members[d] / size;
            }
            if (j > 0) {
                long[] above = new long[layout.domains(j - 1)];
                int[] parent = layout.parent.get(j);
                for (int d = 0; d < members.length; d++) {
                    above[parent[d]] += cap[j][d] * size;
                }
                members = above;
            }
        }
        return cap;
    }

    /** Copies of the pod that fit in what the node has free (its pod slots included). */
    static long room(NodeInfo n, PodInfo pod) {
        long fit = Math.max(0, n.allowedPodNumber() - n.podCount());
        long[] request = pod.requestVector();
        for (int r = 0; r < request.length && fit > 0; r++) {
            if (request[r] > 0) {
                fit = Math.min(fit, Math.max(0, n.allocatable(r) - n.requested(r)) / request[r]);
            }
        }
        return fit;
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
        Allowed a = state.get(ALLOWED);
        if (a == null) {
            return Status.SUCCESS;
        }
        int k = java.util.Arrays.binarySearch(a.sorted(), node.index());
        return k >= 0 && a.allowed()[k] ? Status.SUCCESS : REJECT;
    }

    @Override
    public boolean ranksAlone(GroupContext group) {
        return PlacementStrategy.asks(group.group(), PlacementStrategy.BALANCED);
    }

    @Override
    public Ranking rankAlone(GroupContext group, ClusterView cluster, List<Proposal> proposals) {
        if (!PlacementStrategy.asks(group.group(), PlacementStrategy.BALANCED)) {
            return null;
        }
        GroupShapes shapes = cluster.podIndex(GroupShapes.KEY, () -> new GroupShapes(cluster));
        long[] scores = new long[proposals.size()];
        int[] domains = new int[proposals.size()];
        int best = 0;
        for (int i = 0; i < scores.length; i++) {
            GroupShapes.Plan plan = shapes.planFor(group.group().ref(), proposals.get(i).nodes());
            scores[i] = plan == null ? -1 : plan.threshold();
            domains[i] = plan == null ? Integer.MAX_VALUE : plan.domains();
            if (scores[i] > scores[best] || (scores[i] == scores[best] && domains[i] < domains[best])) {
                best = i;
            }
        }
        return new Ranking(scores, best);
    }
}
