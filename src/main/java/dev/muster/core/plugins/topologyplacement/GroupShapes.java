package dev.muster.core.plugins.topologyplacement;

import dev.muster.core.framework.ClusterView;
import dev.muster.core.framework.NodeInfo;
import dev.muster.core.framework.PodIndex;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.framework.StateKey;
import dev.muster.core.model.GroupRef;
import dev.muster.core.model.PlacementStrategy;
import dev.muster.core.model.PodGroup;
import dev.muster.core.model.SliceSpec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Per snapshot, what {@link TopologySlicesPlugin} reads about groups with slices ({@link SliceSpec}) or the
 * {@code Balanced} strategy: their members on nodes (bound and assumed, kept current by the snapshot), how many
 * members each group has to place (recorded when its placements are generated), the balanced plan of each of its
 * candidate placements, and each placement's domains. Built only when such a group is decided; groups without
 * those annotations are not tracked.
 */
final class GroupShapes implements PodIndex {
    static final StateKey<GroupShapes> KEY = StateKey.of("TopologySlices/groups");
    /** The layer key that stands for the node itself (label keys are never empty). */
    static final String NODE_LEVEL = "";

    /** What a group asks for; {@link #NONE} when neither. */
    record Shape(SliceSpec slices, boolean balanced) {
        static final Shape NONE = new Shape(null, false);

        boolean any() {
            return slices != null || balanced;
        }
    }

    /** The balanced plan of one candidate: members each domain of {@code key} (by name) takes. */
    record Plan(int[] nodes, String key, Map<String, Long> quota, long threshold, int domains) {
    }

    /** A placement's nodes grouped by the domains of each layer (a layer's domain lies inside one of the layer above). */
    static final class Layout {
        final int[] nodes;          // snapshot index of each placement node
        final int[] sorted;         // the same, ascending (a candidate's nodes, to find its plan)
        final int[] sortedPosition; // per entry of sorted: the node's position in the placement
        final int[][] domain;       // per layer, per placement node: domain id, or -1 when a label is missing
        final List<List<String>> names = new ArrayList<>();   // per layer, per domain id: the label value
        final List<int[]> parent = new ArrayList<>();         // per layer, per domain id: the domain above it

        Layout(ClusterView placement, List<String> keys) {
            int n = placement.nodeCount();
            nodes = new int[n];
            long[] keyed = new long[n];
            for (int i = 0; i < n; i++) {
                nodes[i] = placement.node(i).index();
                keyed[i] = ((long) nodes[i] << 32) | i;
            }
            Arrays.sort(keyed);
            sorted = new int[n];
            sortedPosition = new int[n];
            for (int k = 0; k < n; k++) {
                sorted[k] = (int) (keyed[k] >>> 32);
                sortedPosition[k] = (int) keyed[k];
            }
            domain = new int[keys.size()][n];
            for (int j = 0; j < keys.size(); j++) {
                Map<String, Integer> ids = new HashMap<>();
                List<String> layerNames = new ArrayList<>();
                List<Integer> parents = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    NodeInfo node = placement.node(i);
                    int up = j == 0 ? 0 : domain[j - 1][i];
                    String v = NODE_LEVEL.equals(keys.get(j)) ? node.name() : node.node().labels().get(keys.get(j));
                    if (v == null || up < 0) {
                        domain[j][i] = -1;
                        continue;
                    }
                    String path = up + "/" + v;
                    Integer id = ids.get(path);
                    if (id == null) {
                        id = layerNames.size();
                        ids.put(path, id);
                        layerNames.add(v);
                        parents.add(up);
                    }
                    domain[j][i] = id;
                }
                names.add(layerNames);
                parent.add(parents.stream().mapToInt(Integer::intValue).toArray());
            }
        }

        /** The placement position of the node with this snapshot index, or -1 when it is not in the placement. */
        int position(int snapshotIndex) {
            int k = Arrays.binarySearch(sorted, snapshotIndex);
            return k < 0 ? -1 : sortedPosition[k];
        }

        int domains(int layer) {
            return names.get(layer).size();
        }
    }

    private final ClusterView cluster;
    private final Map<GroupRef, Shape> shapes = new HashMap<>();
    private final Map<GroupRef, Map<Integer, Integer>> onNodes = new HashMap<>();
    private final Map<GroupRef, Integer> members = new HashMap<>();
    private final Map<GroupRef, List<Plan>> plans = new HashMap<>();
    private final Map<ClusterView, Map<List<String>, Layout>> layouts = new IdentityHashMap<>();

    GroupShapes(ClusterView cluster) {
        this.cluster = cluster;
    }

    /** The shape a group asks for, parsed once; {@link Shape#NONE} for a group without the annotations. */
    static Shape shapeOf(PodGroup group) {
        String slices = group.annotations().get(SliceSpec.ANNOTATION);
        boolean balanced = PlacementStrategy.asks(group, PlacementStrategy.BALANCED);
        if (slices == null && !balanced) {
            return Shape.NONE;
        }
        SliceSpec spec = null;
        if (slices != null) {
            try {
                spec = SliceSpec.parse(slices);
            } catch (SliceSpec.Invalid e) {
                spec = null; // validation refuses it before the engine; a direct caller gets no slices
            }
        }
        return new Shape(spec, balanced);
    }

    Shape shape(GroupRef ref) {
        Shape s = shapes.get(ref);
        if (s == null) {
            PodGroup g = cluster.podGroup(ref);
            s = g == null ? Shape.NONE : shapeOf(g);
            shapes.put(ref, s);
        }
        return s;
    }

    @Override
    public void added(PodInfo pod, NodeInfo node) {
        GroupRef ref = pod.groupRef();
        if (ref != null && shape(ref).any()) {
            onNodes.computeIfAbsent(ref, r -> new HashMap<>()).merge(node.index(), 1, Integer::sum);
        }
    }

    @Override
    public void removed(PodInfo pod, NodeInfo node) {
        GroupRef ref = pod.groupRef();
        Map<Integer, Integer> m = ref == null ? null : onNodes.get(ref);
        if (m != null) {
            m.computeIfPresent(node.index(), (k, v) -> v == 1 ? null : v - 1);
        }
    }

    /** Members of the group on nodes, by snapshot node index (do not modify). */
    Map<Integer, Integer> onNodes(GroupRef ref) {
        return onNodes.getOrDefault(ref, Map.of());
    }

    /** Records the group's members to place, bound ones included, for this cycle; forgets its old plans. */
    void expect(GroupRef ref, int total) {
        members.put(ref, total);
        plans.remove(ref);
    }

    /** The group's bound plus pending members, or -1 when its placements were not generated here. */
    int expected(GroupRef ref) {
        return members.getOrDefault(ref, -1);
    }

    void plan(GroupRef ref, Plan plan) {
        plans.computeIfAbsent(ref, r -> new ArrayList<>()).add(plan);
    }

    /** The group's balanced plan for the placement with exactly these nodes, or null. */
    Plan planFor(GroupRef ref, int[] nodes) {
        for (Plan p : plans.getOrDefault(ref, List.of())) {
            if (Arrays.equals(p.nodes(), nodes)) {
                return p;
            }
        }
        return null;
    }

    Layout layout(ClusterView placement, List<String> keys) {
        return layouts.computeIfAbsent(placement, p -> new HashMap<>())
                .computeIfAbsent(keys, k -> new Layout(placement, k));
    }
}
