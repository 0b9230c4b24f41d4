package dev.muster.core.model;

import java.util.List;

/**
 * Everything a request says about the cluster, as plain model objects: the decoded {@code snapshot}. The
 * engine compiles it into a {@code ClusterSnapshot} once per request.
 */
public record ClusterState(List<Node> nodes, List<Pod> pods, List<PodGroup> podGroups,
                           List<PriorityClass> priorityClasses, List<PodDisruptionBudget> podDisruptionBudgets,
                           List<CompositePodGroup> compositePodGroups) {
    public ClusterState(List<Node> nodes, List<Pod> pods, List<PodGroup> podGroups,
                        List<PriorityClass> priorityClasses, List<PodDisruptionBudget> podDisruptionBudgets) {
        this(nodes, pods, podGroups, priorityClasses, podDisruptionBudgets, List.of());
    }

    public ClusterState {
        compositePodGroups = compositePodGroups == null ? List.of() : List.copyOf(compositePodGroups);
        nodes = nodes == null ? List.of() : List.copyOf(nodes);
        pods = pods == null ? List.of() : List.copyOf(pods);
        podGroups = podGroups == null ? List.of() : List.copyOf(podGroups);
        priorityClasses = priorityClasses == null ? List.of() : List.copyOf(priorityClasses);
        podDisruptionBudgets = podDisruptionBudgets == null ? List.of() : List.copyOf(podDisruptionBudgets);
    }
}
