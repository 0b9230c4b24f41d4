package dev.muster.core.model;

import java.util.List;

/**
 * A {@code spec.topologySpreadConstraints[]} entry. {@code minDomains} null = 1. Policies default upstream to
 * nodeAffinityPolicy Honor, nodeTaintsPolicy Ignore. {@code matchLabelKeys} are merged into the selector by the
 * mapper (as the API server does since 1.34), so the engine only sees {@code labelSelector}.
 */
public record TopologySpreadConstraint(int maxSkew, String topologyKey, boolean doNotSchedule,
                                       LabelSelector labelSelector, Integer minDomains,
                                       boolean honorNodeAffinity, boolean honorNodeTaints,
                                       List<String> matchLabelKeys) {
    public TopologySpreadConstraint {
        matchLabelKeys = matchLabelKeys == null ? List.of() : List.copyOf(matchLabelKeys);
    }
}
