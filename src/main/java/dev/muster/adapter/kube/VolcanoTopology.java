package dev.muster.adapter.kube;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A Volcano PodGroup's {@code spec.networkTopology} as the engine's multi-level topology, the same as Muster's
 * PodGroup annotations {@code muster.dev/topology-levels} and {@code muster.dev/topology-mode} would say it. Tier
 * {@code N} is the node label {@code volcano.sh/hypernode-tier-<N>} ({@link HyperNodeTiers}).
 * <ul>
 *   <li>{@code hard} (the default): levels tier 1 to the highest tier allowed, tightest first, the highest one
 *   required: the members land in one HyperNode of the tightest tier that holds them, never wider than the highest
 *   tier allowed, and never on a node outside a HyperNode of that tier.</li>
 *   <li>{@code soft}: the same levels, preferred: when no HyperNode holds the group, it takes the fewest tier-1
 *   HyperNodes that do, and only then any node.</li>
 * </ul>
 * The highest tier: {@code highestTierAllowed}, else the tier of the HyperNodes whose {@code spec.tierName} is
 * {@code highestTierName}, else 1 for {@code hard} (the CRD's default) and the widest tier of the snapshot for
 * {@code soft}; never wider than the widest tier the snapshot has (a wider one holds nothing more).
 */
final class VolcanoTopology {
    static final String HARD = "hard";
    static final String SOFT = "soft";
    static final String LEVELS = dev.muster.core.model.TopologyAnnotations.LEVELS;

    /** What the group is decided with: its required topology keys and its annotations. */
    record Mapped(List<String> topologyKeys, Map<String, String> annotations) {
    }

    private VolcanoTopology() {
    }

    /** Whether {@code mode} (absent: hard) is soft. */
    static boolean isSoft(Kube.NetworkTopology nt) {
        return SOFT.equals(nt.mode());
    }

    /** The widest tier the group may span (0: none, the snapshot has no tiers and the group is soft). */
    static int highestTier(Kube.NetworkTopology nt, HyperNodeTiers.Result tiers) {
        int highest;
        if (nt.highestTierAllowed() != null) {
            highest = nt.highestTierAllowed();
        } else if (nt.highestTierName() != null && !nt.highestTierName().isEmpty()) {
            Integer named = tiers.tierNames().get(nt.highestTierName());
            highest = named == null ? 1 : named;
        } else {
            highest = isSoft(nt) ? tiers.maxTier() : 1;
        }
        return tiers.maxTier() > 0 ? Math.min(highest, tiers.maxTier()) : highest;
    }

    static Mapped map(Kube.NetworkTopology nt, Map<String, String> annotations, HyperNodeTiers.Result tiers) {
        int highest = highestTier(nt, tiers);
        boolean soft = isSoft(nt);
        if (highest < 1) {
            return new Mapped(List.of(), annotations);
        }
        List<String> levels = new ArrayList<>(highest);
        for (int t = 1; t <= highest; t++) {
            levels.add(HyperNodeTiers.label(t));
        }
        Map<String, String> out = annotations == null ? new TreeMap<>() : new TreeMap<>(annotations);
        out.put(LEVELS, String.join(",", levels));
        // Levels alone are preferred; hard makes the widest level the required key.
        return new Mapped(soft ? List.of() : List.of(levels.get(highest - 1)), out);
    }
}
