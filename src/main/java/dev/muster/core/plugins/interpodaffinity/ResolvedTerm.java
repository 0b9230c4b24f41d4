package dev.muster.core.plugins.interpodaffinity;

import dev.muster.core.model.LabelSelector;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodAffinityTerm;
import dev.muster.core.model.WeightedPodAffinityTerm;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A pod (anti-)affinity term with its namespaces resolved against the pod that owns it: the listed namespaces,
 * plus those the namespace selector matches (matched against the {@code kubernetes.io/metadata.name} label, the
 * one namespace label the snapshot knows; an empty selector matches every namespace); when neither is given,
 * the owner's own namespace. A null label selector matches no pod, as upstream.
 */
record ResolvedTerm(LabelSelector selector, Set<String> namespaces, LabelSelector namespaceSelector,
                    String topologyKey, int weight) {
    static final String NAMESPACE_NAME_LABEL = "kubernetes.io/metadata.name";

    static ResolvedTerm of(Pod owner, PodAffinityTerm t, int weight) {
        Set<String> ns = new HashSet<>(t.namespaces());
        if (ns.isEmpty() && t.namespaceSelector() == null) {
            ns.add(owner.ref().namespace());
        }
        return new ResolvedTerm(t.labelSelector(), ns, t.namespaceSelector(), t.topologyKey(), weight);
    }

    static List<ResolvedTerm> required(Pod owner, List<PodAffinityTerm> terms) {
        List<ResolvedTerm> out = new ArrayList<>(terms.size());
        for (PodAffinityTerm t : terms) {
            out.add(of(owner, t, 0));
        }
        return out;
    }

    static List<ResolvedTerm> weighted(Pod owner, List<WeightedPodAffinityTerm> terms) {
        List<ResolvedTerm> out = new ArrayList<>(terms.size());
        for (WeightedPodAffinityTerm t : terms) {
            out.add(of(owner, t.term(), t.weight()));
        }
        return out;
    }

    /** Whether the pod is in one of the term's namespaces and its labels match the selector. */
    boolean matches(Pod pod) {
        if (selector == null) {
            return false;
        }
        String ns = pod.ref().namespace();
        boolean inNamespace = namespaces.contains(ns)
                || (namespaceSelector != null && namespaceSelector.matches(Map.of(NAMESPACE_NAME_LABEL, ns)));
        return inNamespace && selector.matches(pod.labels());
    }

    static boolean matchesAll(List<ResolvedTerm> terms, Pod pod) {
        if (terms.isEmpty()) {
            return false;
        }
        for (int i = 0, n = terms.size(); i < n; i++) {
            if (!terms.get(i).matches(pod)) {
                return false;
            }
        }
        return true;
    }
}
