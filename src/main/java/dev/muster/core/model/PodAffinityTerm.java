package dev.muster.core.model;

import java.util.List;

/**
 * A pod (anti-)affinity term. Namespaces the term applies to: {@code namespaces} ∪ those matched by
 * {@code namespaceSelector}; when both are empty/null, the pod's own namespace. Namespace labels are not part
 * of the snapshot, so a namespace selector is matched against {@code kubernetes.io/metadata.name} only (the one
 * label every namespace carries); an empty selector matches all namespaces, as upstream.
 */
public record PodAffinityTerm(LabelSelector labelSelector, List<String> namespaces, LabelSelector namespaceSelector,
                              String topologyKey) {
    public PodAffinityTerm {
        namespaces = namespaces == null ? List.of() : List.copyOf(namespaces);
    }
}
