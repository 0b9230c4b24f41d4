package dev.muster.core.model;

import java.util.List;

/**
 * A scheduling.k8s.io/v1alpha2 PodGroup as the scheduler reads it.
 *
 * @param topologyKeys       {@code spec.schedulingConstraints.topology[].key} (at most one in v1alpha2)
 * @param priority           {@code spec.priority}; null when unset (resolved from {@code priorityClassName} later)
 * @param disruptionMode     defaults to {@link DisruptionMode#Pod}
 * @param annotations        kept for Muster's documented extensions (multi-level / preferred topology)
 * @param resourceClaimStatuses {@code status.resourceClaimStatuses}: claim entry name → generated claim name
 */
public record PodGroup(GroupRef ref, String uid, long generation, long creationEpochSec, SchedulingPolicy policy,
                       List<String> topologyKeys, List<PodClaimRef> resourceClaims, DisruptionMode disruptionMode,
                       String priorityClassName, Integer priority, List<Condition> conditions,
                       java.util.Map<String, String> annotations,
                       java.util.Map<String, String> resourceClaimStatuses) {
    public PodGroup(GroupRef ref, String uid, long generation, long creationEpochSec, SchedulingPolicy policy,
                    List<String> topologyKeys, List<PodClaimRef> resourceClaims, DisruptionMode disruptionMode,
                    String priorityClassName, Integer priority, List<Condition> conditions,
                    java.util.Map<String, String> annotations) {
        this(ref, uid, generation, creationEpochSec, policy, topologyKeys, resourceClaims, disruptionMode,
                priorityClassName, priority, conditions, annotations, null);
    }

    public PodGroup {
        resourceClaimStatuses = SortedStringMap.copyOf(resourceClaimStatuses);
        topologyKeys = topologyKeys == null ? List.of() : List.copyOf(topologyKeys);
        resourceClaims = resourceClaims == null ? List.of() : List.copyOf(resourceClaims);
        disruptionMode = disruptionMode == null ? DisruptionMode.Pod : disruptionMode;
        conditions = conditions == null ? List.of() : List.copyOf(conditions);
        annotations = annotations == null ? java.util.Map.of() : new java.util.TreeMap<>(annotations);
    }
}
