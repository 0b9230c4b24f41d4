package dev.muster.core.decision;

import dev.muster.core.dra.DraObjects;
import dev.muster.core.model.ClusterState;
import dev.muster.core.model.GroupRef;

import java.util.List;

/**
 * What the engine decides: the cluster, the groups to decide (null = every PodGroup with an unbound member), the
 * options, and the cluster's DRA objects (device classes, slices, claims, claim templates). Built by an adapter
 * after validation.
 */
public record DecisionRequest(ClusterState cluster, List<GroupRef> podGroups, DecisionOptions options,
                              DraObjects dra) {
    public DecisionRequest(ClusterState cluster, List<GroupRef> podGroups, DecisionOptions options) {
        this(cluster, podGroups, options, DraObjects.NONE);
    }

    public DecisionRequest {
        dra = dra == null ? DraObjects.NONE : dra;
        podGroups = podGroups == null ? null : List.copyOf(podGroups);
        options = options == null ? DecisionOptions.DEFAULT : options;
    }
}
