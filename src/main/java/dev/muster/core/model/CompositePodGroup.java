package dev.muster.core.model;

import java.util.List;

/**
 * A scheduling.k8s.io/v1alpha3 CompositePodGroup as the scheduler reads it: several PodGroups (and composites, up to
 * a tree depth of 4) with one atomic promise. Its children name it through {@code spec.parentCompositePodGroupName}.
 *
 * @param ref            namespace/name
 * @param parent         {@code spec.parentCompositePodGroupName}, or null for a root
 * @param gang           {@code spec.schedulingPolicy.gang}: at least {@code minGroupCount} children are scheduled or
 *                       none places anything; false for {@code basic} (children are decided on their own)
 * @param minGroupCount  {@code spec.schedulingPolicy.gang.minGroupCount}; 0 for basic
 * @param topologyKeys   {@code spec.schedulingConstraints.topology[].key}: every member of every child in one domain
 * @param disruptionMode defaults to {@link DisruptionMode#Pod}
 * @param priority       {@code spec.priority}, or null; with {@code priorityClassName} it stands for the whole tree
 */
public record CompositePodGroup(GroupRef ref, String parent, boolean gang, int minGroupCount,
                                List<String> topologyKeys, DisruptionMode disruptionMode, String priorityClassName,
                                Integer priority, long creationEpochSec) {
    /** The deepest tree a CompositePodGroup may root (upstream's WorkloadMaxTreeDepth). */
    public static final int MAX_TREE_DEPTH = 4;

    public CompositePodGroup {
        topologyKeys = topologyKeys == null ? List.of() : List.copyOf(topologyKeys);
        disruptionMode = disruptionMode == null ? DisruptionMode.Pod : disruptionMode;
    }

    /** Whether the composite sets a priority of its own (explicitly or by class). */
    public boolean setsPriority() {
        return priority != null || (priorityClassName != null && !priorityClassName.isEmpty());
    }
}
