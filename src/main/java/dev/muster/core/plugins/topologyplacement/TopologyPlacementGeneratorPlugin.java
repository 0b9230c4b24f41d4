package dev.muster.core.plugins.topologyplacement;

import dev.muster.core.framework.ClusterView;
import dev.muster.core.framework.GroupContext;
import dev.muster.core.framework.GroupDomains;
import dev.muster.core.framework.PlacementGeneratePlugin;
import dev.muster.core.framework.Status;
import dev.muster.core.model.PodGroup;

import java.util.ArrayList;
import java.util.List;

/**
 * One placement per domain of the PodGroup's topology key (upstream TopologyPlacementGenerator, KEP-5732): nodes
 * without the label are never used; bound members pin the group to their domain ({@link GroupDomains}). Domains come
 * in label-value order (upstream: map order).
 * <p>
 * Muster's extensions, read from PodGroup annotations so the v1alpha2 API stays as it is:
 * <ul>
 *   <li>{@value #LEVELS}: comma-separated label keys, tightest first (e.g. rack, block, zone). Each level is a tier:
 *   the tightest level with a feasible domain wins. The spec's required key, when set, is the outermost level (it
 *   is appended when the annotation does not name it) and no level wider than it is tried.</li>
 *   <li>{@value #MODE}{@code : Preferred}: the constraint is soft; when no domain of any level is feasible the group
 *   takes the fewest domains of the tightest level that hold it ({@link FewestDomains}: largest first, the last the
 *   tightest fit), and when those do not do, every node (a last tier named {@code *}).</li>
 * </ul>
 */
public final class TopologyPlacementGeneratorPlugin implements PlacementGeneratePlugin {
    public static final String NAME = "TopologyPlacementGenerator";
    public static final String LEVELS = dev.muster.core.model.TopologyAnnotations.LEVELS;
    public static final String MODE = dev.muster.core.model.TopologyAnnotations.MODE;
    public static final String PREFERRED = "Preferred";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Result generate(GroupContext group, ClusterView cluster, int[] parentNodes) {
        PodGroup pg = group.group();
        List<String> levels = levels(pg);
        if (levels.isEmpty()) {
            return Result.unchanged();
        }
        boolean required = !pg.topologyKeys().isEmpty();
        boolean preferred = !required || PREFERRED.equalsIgnoreCase(pg.annotations().get(MODE));
        List<Candidate> out = new ArrayList<>();
        for (int tier = 0; tier < levels.size(); tier++) {
            String key = levels.get(tier);
            boolean outermostRequired = required && tier == levels.size() - 1;
            GroupDomains.Pin pin = GroupDomains.pin(group.bound(), key, cluster);
            if (pin.conflict()) {
                if (outermostRequired && !preferred) {
                    return new Result(null, Status.unresolvable(NAME, pin.outside() != null
                            ? "no topology domain found for pod " + pin.outside().ref().name()
                            : "more than 1 domain found for pod group"));
                }
                continue;
            }
            for (GroupDomains.Domain d : GroupDomains.domains(cluster, key, pin, parentNodes)) {
                out.add(new Candidate(d.name(), d.nodes(), tier));
            }
        }
        boolean shaped = TopologySlicesPlugin.shaped(pg);
        if (preferred) {
            int unit = 1;
            if (shaped) {
                GroupShapes.Shape shape = GroupShapes.shapeOf(pg);
                unit = shape.slices() == null ? 1 : shape.slices().outerSize();
            }
            Candidate fewest = group.bound().isEmpty() ? FewestDomains.candidate(group, cluster, levels.get(0),
                    parentNodes, levels.size(), unit) : null;
            if (fewest != null) {
                out.add(fewest);
            }
            out.add(new Candidate("*", parentNodes, levels.size() + (fewest != null ? 1 : 0)));
        }
        if (shaped) {
            ShapePlans.record(group, cluster, levels, out);
        }
        return new Result(out, Status.SUCCESS);
    }

    /** The levels to try, tightest first; the spec's key last. Empty when the group has no topology constraint. */
    static List<String> levels(PodGroup pg) {
        List<String> levels = new ArrayList<>();
        String annotated = pg.annotations().get(LEVELS);
        if (annotated != null) {
            for (String k : annotated.split(",")) {
                String key = k.trim();
                if (!key.isEmpty() && !levels.contains(key)) {
                    levels.add(key);
                }
            }
        }
        if (!pg.topologyKeys().isEmpty()) {
            String key = pg.topologyKeys().get(0);
            int at = levels.indexOf(key);
            if (at >= 0) {
                levels.subList(at + 1, levels.size()).clear();
            } else {
                levels.add(key);
            }
        }
        return levels;
    }
}
