package dev.muster.core.plugins.topologyplacement;

import dev.muster.core.framework.ClusterView;
import dev.muster.core.framework.GroupContext;
import dev.muster.core.framework.NodeInfo;
import dev.muster.core.framework.PlacementGeneratePlugin.Candidate;
import dev.muster.core.model.GroupRef;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the generator records for {@link TopologySlicesPlugin} when it proposes placements for a group with slices or
 * the {@code Balanced} strategy: the members the group has to place and, for {@code Balanced}, each candidate's
 * {@link BalancedPlan}.
 * <p>
 * The level a candidate is balanced over: the outermost slice level when the group has slices (counted in slices);
 * otherwise the level just inside the candidate's own: for a domain of the tightest level, its nodes; for a domain of
 * a wider level, the domains of the next tighter level in it; for the fewest-domains candidate and for every node
 * ({@code *}), the domains of the tightest level. A domain's room is counted as in {@link FewestDomains}: copies of
 * the largest request of every resource among the pending members. A group with bound members is not balanced.
 */
final class ShapePlans {
    private ShapePlans() {
    }

    static void record(GroupContext group, ClusterView cluster, List<String> levels, List<Candidate> candidates) {
        GroupShapes shapes = cluster.podIndex(GroupShapes.KEY, () -> new GroupShapes(cluster));
        GroupRef ref = group.group().ref();
        shapes.expect(ref, group.bound().size() + group.pending().size());
        GroupShapes.Shape shape = shapes.shape(ref);
        if (!shape.balanced() || !group.bound().isEmpty() || group.pending().isEmpty()) {
            return;
        }
        int unit = shape.slices() == null ? 1 : shape.slices().outerSize();
        long need = group.pending().size() / unit;
        long[] largest = FewestDomains.largest(group.pending(), cluster);
        for (Candidate c : candidates) {
            String key = balanceLevel(shape, levels, c.tier());
            Map<String, Long> members = new TreeMap<>();
            for (int idx : c.nodes()) {
                NodeInfo n = cluster.anyNode(idx);
                String v = GroupShapes.NODE_LEVEL.equals(key) ? n.name() : n.node().labels().get(key);
                if (v != null) {
                    members.merge(v, FewestDomains.room(n, largest), Long::sum);
                }
            }
            String[] names = members.keySet().toArray(new String[0]);
            long[] room = new long[names.length];
            for (int i = 0; i < names.length; i++) {
                room[i] = members.get(names[i]) / unit;
            }
            BalancedPlan plan = BalancedPlan.of(room, need);
            if (plan == null) {
                continue;
            }
            Map<String, Long> quota = new TreeMap<>();
            for (int i = 0; i < names.length; i++) {
                if (plan.quota()[i] > 0) {
                    quota.put(names[i], plan.quota()[i] * unit);
                }
            }
            shapes.plan(ref, new GroupShapes.Plan(c.nodes(), key, quota, plan.threshold(), plan.domains()));
        }
    }

    /** The level a candidate of {@code tier} is balanced over (see the class comment). */
    static String balanceLevel(GroupShapes.Shape shape, List<String> levels, int tier) {
        if (shape.slices() != null) {
            return shape.slices().layers().get(0).key();
        }
        if (tier >= levels.size()) {
            return levels.get(0);
        }
        return tier == 0 ? GroupShapes.NODE_LEVEL : levels.get(tier - 1);
    }
}
