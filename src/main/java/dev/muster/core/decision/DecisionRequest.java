package dev.muster.core.decision;

import dev.muster.core.model.ClusterState;
import dev.muster.core.model.GroupRef;

import java.util.List;

/**
 * What the engine decides: the cluster, the groups to decide (null = every PodGroup with an unbound member) and
 * the options. Built by an adapter after validation.
 */
public record DecisionRequest(ClusterState cluster, List<GroupRef> podGroups, DecisionOptions options) {
    public DecisionRequest {
        podGroups = podGroups == null ? null : List.copyOf(podGroups);
        options = options == null ? DecisionOptions.DEFAULT : options;
    }
}
