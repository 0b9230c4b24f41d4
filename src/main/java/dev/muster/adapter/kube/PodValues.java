package dev.muster.adapter.kube;

import dev.muster.core.model.Affinity;
import dev.muster.core.model.ResourceList;
import dev.muster.core.model.SortedStringMap;
import dev.muster.core.model.Toleration;

import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the pods of one compilation usually have in common and compile to equal immutable values, compiled once and
 * shared: their tolerations (most pods carry the same default not-ready/unreachable tolerations), their affinity, their
 * labels and their effective requests (the replicas of one Deployment or Job agree on all four). Sharing saves
 * allocating the same objects tens of thousands of times and, as much, copying them: a snapshot's pods stay alive for
 * the whole decision, so every young collection that falls inside it copies what they hold. Pods sharing one affinity
 * object also let the engine's indexes of pod terms find a term by identity instead of hashing it again for every pod.
 * <p>
 * Each table keeps at most {@value #MAX} values: a bound on memory, not on correctness (past it, values are compiled
 * each time).
 */
final class PodValues {
    static final int MAX = 4096;
    private final SharedValues<List<Kube.Toleration>, List<Toleration>> tolerations = new SharedValues<>(MAX);
    private final SharedValues<Kube.Affinity, Affinity> affinities = new SharedValues<>(MAX);
    private final Map<Map<String, String>, Map<String, String>> labels = new HashMap<>();
    private final Map<ResourceList, ResourceList> requests = new HashMap<>();
    /** The decoder shares equal container lists within a request, so a list seen before is found by identity. */
    private final Map<List<Kube.Container>, ResourceList> requestsOfContainers = new IdentityHashMap<>();

    /** The pod's tolerations (not empty), shared with earlier pods whose raw tolerations are equal. */
    List<Toleration> tolerations(List<Kube.Toleration> in) {
        return tolerations.get(in, KubeMapper::tolerations);
    }

    /** The pod's affinity, shared with earlier pods whose raw affinity is equal when it does not read labels. */
    Affinity affinity(Kube.Affinity a, Map<String, String> podLabels) {
        if (a == null) {
            return Affinity.NONE;
        }
        if (readsPodLabels(a.podAffinity()) || readsPodLabels(a.podAntiAffinity())) {
            return KubeMapper.affinity(a, podLabels); // matchLabelKeys: the pod's own labels join the terms
        }
        return affinities.get(a, raw -> KubeMapper.affinity(raw, podLabels));
    }

    /**
     * The pod's labels as the core model keeps them (sorted, immutable), one map for equal label sets: looked up by
     * the raw map first (any map equals a sorted copy with the same entries), so a label set seen before is not copied
     * again.
     */
    Map<String, String> labels(Map<String, String> raw) {
        if (raw.isEmpty()) {
            return Map.of();
        }
        Map<String, String> seen = labels.get(raw);
        return seen != null ? seen : intern(labels, SortedStringMap.copyOf(raw));
    }

    /**
     * The pod's effective requests ({@link EffectiveRequests#of}), one object for equal requests; a spec whose
     * requests come from its containers alone (no init containers, pod-level resources or overhead) is answered from
     * its container list when that list was seen before.
     */
    ResourceList requests(Kube.PodSpec spec) {
        List<Kube.Container> containers = spec.containers();
        boolean containersAlone = containers != null && (spec.initContainers() == null
                || spec.initContainers().isEmpty()) && spec.resources() == null && spec.overhead() == null;
        if (containersAlone) {
            ResourceList known = requestsOfContainers.get(containers);
            if (known != null) {
                return known;
            }
        }
        ResourceList r = intern(requests, EffectiveRequests.of(spec));
        if (containersAlone && requestsOfContainers.size() < MAX) {
            requestsOfContainers.put(containers, r);
        }
        return r;
    }

    private static <T> T intern(Map<T, T> table, T value) {
        T seen = table.get(value);
        if (seen != null) {
            return seen;
        }
        if (table.size() < MAX) {
            table.put(value, value);
        }
        return value;
    }

    private static boolean readsPodLabels(Kube.PodAffinity pa) {
        if (pa == null) {
            return false;
        }
        if (pa.requiredDuringSchedulingIgnoredDuringExecution() != null) {
            for (Kube.PodAffinityTerm t : pa.requiredDuringSchedulingIgnoredDuringExecution()) {
                if (readsPodLabels(t)) {
                    return true;
                }
            }
        }
        if (pa.preferredDuringSchedulingIgnoredDuringExecution() != null) {
            for (Kube.WeightedPodAffinityTerm t : pa.preferredDuringSchedulingIgnoredDuringExecution()) {
                if (readsPodLabels(t.podAffinityTerm())) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean readsPodLabels(Kube.PodAffinityTerm t) {
        return t != null && ((t.matchLabelKeys() != null && !t.matchLabelKeys().isEmpty())
                || (t.mismatchLabelKeys() != null && !t.mismatchLabelKeys().isEmpty()));
    }
}
