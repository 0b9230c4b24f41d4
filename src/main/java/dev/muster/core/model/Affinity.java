package dev.muster.core.model;

import java.util.List;

/**
 * A pod's {@code spec.affinity}, flattened. {@code requiredNodeTerms} null means no required node affinity
 * (an empty list means a selector with no terms, which matches no node, as upstream).
 */
public record Affinity(List<NodeSelectorTerm> requiredNodeTerms,
                       List<PreferredSchedulingTerm> preferredNodeTerms,
                       List<PodAffinityTerm> requiredPodAffinity,
                       List<WeightedPodAffinityTerm> preferredPodAffinity,
                       List<PodAffinityTerm> requiredPodAntiAffinity,
                       List<WeightedPodAffinityTerm> preferredPodAntiAffinity) {
    public static final Affinity NONE = new Affinity(null, List.of(), List.of(), List.of(), List.of(), List.of());

    public Affinity {
        requiredNodeTerms = requiredNodeTerms == null ? null : List.copyOf(requiredNodeTerms);
        preferredNodeTerms = preferredNodeTerms == null ? List.of() : List.copyOf(preferredNodeTerms);
        requiredPodAffinity = requiredPodAffinity == null ? List.of() : List.copyOf(requiredPodAffinity);
        preferredPodAffinity = preferredPodAffinity == null ? List.of() : List.copyOf(preferredPodAffinity);
        requiredPodAntiAffinity = requiredPodAntiAffinity == null ? List.of() : List.copyOf(requiredPodAntiAffinity);
        preferredPodAntiAffinity = preferredPodAntiAffinity == null ? List.of() : List.copyOf(preferredPodAntiAffinity);
    }

    /** Every node selector term the pod names: the required ones, then the preferred ones' preferences. */
    public List<NodeSelectorTerm> nodeTerms() {
        List<NodeSelectorTerm> terms = new java.util.ArrayList<>();
        if (requiredNodeTerms != null) {
            terms.addAll(requiredNodeTerms);
        }
        for (PreferredSchedulingTerm t : preferredNodeTerms) {
            terms.add(t.preference());
        }
        return terms;
    }

    public boolean hasPodAffinity() {
        return !requiredPodAffinity.isEmpty() || !preferredPodAffinity.isEmpty()
                || !requiredPodAntiAffinity.isEmpty() || !preferredPodAntiAffinity.isEmpty();
    }
}
