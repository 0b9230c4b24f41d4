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
 * @param minResources       what the cluster's free capacity must hold before the group is tried (coscheduling and
 *                           Volcano {@code minResources}, with {@code pods} = the minimum member count); null: no check
 * @param warnings           what the request says about the group that does not stop it from being decided (a
 *                           template reference to a missing Workload, a policy that differs from its template)
 * @param parentComposite    {@code spec.parentCompositePodGroupName}: the CompositePodGroup (same namespace) the group
 *                           is a child of, or null
 * @param minPerRole         per-role minimums of a gang: role → members of that role ({@link Pod#role}) that must be
 *                           bound or placed, besides {@code minCount}; sorted by role, empty when the group has none
 * @param preemptionPolicy   {@code spec.preemptionPolicy} ({@code PreemptLowerPriority} or {@code Never}), or null
 *                           when unset; {@code Never}: the group waits instead of preempting
 */
public record PodGroup(GroupRef ref, String uid, long generation, long creationEpochSec, SchedulingPolicy policy,
                       List<String> topologyKeys, List<PodClaimRef> resourceClaims, DisruptionMode disruptionMode,
                       String priorityClassName, Integer priority, List<Condition> conditions,
                       java.util.Map<String, String> annotations,
                       java.util.Map<String, String> resourceClaimStatuses, ResourceList minResources,
                       List<String> warnings, java.util.Map<String, Integer> minPerRole, String parentComposite,
                       String preemptionPolicy) {
    public PodGroup(GroupRef ref, String uid, long generation, long creationEpochSec, SchedulingPolicy policy,
                    List<String> topologyKeys, List<PodClaimRef> resourceClaims, DisruptionMode disruptionMode,
                    String priorityClassName, Integer priority, List<Condition> conditions,
                    java.util.Map<String, String> annotations,
                    java.util.Map<String, String> resourceClaimStatuses, ResourceList minResources,
                    List<String> warnings, java.util.Map<String, Integer> minPerRole, String parentComposite) {
        this(ref, uid, generation, creationEpochSec, policy, topologyKeys, resourceClaims, disruptionMode,
                priorityClassName, priority, conditions, annotations, resourceClaimStatuses, minResources, warnings,
                minPerRole, parentComposite, null);
    }

    public PodGroup(GroupRef ref, String uid, long generation, long creationEpochSec, SchedulingPolicy policy,
                    List<String> topologyKeys, List<PodClaimRef> resourceClaims, DisruptionMode disruptionMode,
                    String priorityClassName, Integer priority, List<Condition> conditions,
                    java.util.Map<String, String> annotations,
                    java.util.Map<String, String> resourceClaimStatuses, ResourceList minResources,
                    List<String> warnings, java.util.Map<String, Integer> minPerRole) {
        this(ref, uid, generation, creationEpochSec, policy, topologyKeys, resourceClaims, disruptionMode,
                priorityClassName, priority, conditions, annotations, resourceClaimStatuses, minResources, warnings,
                minPerRole, null);
    }

    public PodGroup(GroupRef ref, String uid, long generation, long creationEpochSec, SchedulingPolicy policy,
                    List<String> topologyKeys, List<PodClaimRef> resourceClaims, DisruptionMode disruptionMode,
                    String priorityClassName, Integer priority, List<Condition> conditions,
                    java.util.Map<String, String> annotations,
                    java.util.Map<String, String> resourceClaimStatuses, ResourceList minResources,
                    List<String> warnings) {
        this(ref, uid, generation, creationEpochSec, policy, topologyKeys, resourceClaims, disruptionMode,
                priorityClassName, priority, conditions, annotations, resourceClaimStatuses, minResources, warnings,
                null);
    }

    public PodGroup(GroupRef ref, String uid, long generation, long creationEpochSec, SchedulingPolicy policy,
                    List<String> topologyKeys, List<PodClaimRef> resourceClaims, DisruptionMode disruptionMode,
                    String priorityClassName, Integer priority, List<Condition> conditions,
                    java.util.Map<String, String> annotations, java.util.Map<String, String> resourceClaimStatuses) {
        this(ref, uid, generation, creationEpochSec, policy, topologyKeys, resourceClaims, disruptionMode,
                priorityClassName, priority, conditions, annotations, resourceClaimStatuses, null, null);
    }

    public PodGroup(GroupRef ref, String uid, long generation, long creationEpochSec, SchedulingPolicy policy,
                    List<String> topologyKeys, List<PodClaimRef> resourceClaims, DisruptionMode disruptionMode,
                    String priorityClassName, Integer priority, List<Condition> conditions,
                    java.util.Map<String, String> annotations) {
        this(ref, uid, generation, creationEpochSec, policy, topologyKeys, resourceClaims, disruptionMode,
                priorityClassName, priority, conditions, annotations, null, null, null);
    }

    public PodGroup {
        resourceClaimStatuses = SortedStringMap.copyOf(resourceClaimStatuses);
        topologyKeys = topologyKeys == null ? List.of() : List.copyOf(topologyKeys);
        resourceClaims = resourceClaims == null ? List.of() : List.copyOf(resourceClaims);
        disruptionMode = disruptionMode == null ? DisruptionMode.Pod : disruptionMode;
        conditions = conditions == null ? List.of() : List.copyOf(conditions);
        annotations = annotations == null ? java.util.Map.of() : new java.util.TreeMap<>(annotations);
        warnings = warnings == null ? List.of() : List.copyOf(warnings);
        minPerRole = minPerRole == null || minPerRole.isEmpty() ? java.util.Map.of()
                : java.util.Collections.unmodifiableSortedMap(new java.util.TreeMap<>(minPerRole));
    }

    /** Whether some role must reach a minimum of its own ({@link #minPerRole}). */
    public boolean hasRoleMinimums() {
        return !minPerRole.isEmpty();
    }

    /** The same group with {@code more} warnings added after its own. */
    public PodGroup withWarnings(List<String> more) {
        if (more.isEmpty()) {
            return this;
        }
        List<String> all = new java.util.ArrayList<>(warnings);
        all.addAll(more);
        return new PodGroup(ref, uid, generation, creationEpochSec, policy, topologyKeys, resourceClaims,
                disruptionMode, priorityClassName, priority, conditions, annotations, resourceClaimStatuses,
                minResources, all, minPerRole, parentComposite, preemptionPolicy);
    }

    /** The same group as a child of the CompositePodGroup of that name (same namespace). */
    public PodGroup withParentComposite(String parent) {
        return new PodGroup(ref, uid, generation, creationEpochSec, policy, topologyKeys, resourceClaims,
                disruptionMode, priorityClassName, priority, conditions, annotations, resourceClaimStatuses,
                minResources, warnings, minPerRole, parent, preemptionPolicy);
    }

    /** The same group with {@code spec.preemptionPolicy} set. */
    public PodGroup withPreemptionPolicy(String policy) {
        return new PodGroup(ref, uid, generation, creationEpochSec, this.policy, topologyKeys, resourceClaims,
                disruptionMode, priorityClassName, priority, conditions, annotations, resourceClaimStatuses,
                minResources, warnings, minPerRole, parentComposite, policy);
    }

    /** Whether the group may not preempt ({@code preemptionPolicy: Never}). */
    public boolean neverPreempts() {
        return "Never".equals(preemptionPolicy);
    }
}
