package dev.muster.core.decision;

import dev.muster.core.dra.DraObjects;
import dev.muster.core.model.ClusterState;
import dev.muster.core.model.GroupRef;
import dev.muster.core.model.PodRef;

import java.util.List;

/**
 * What the engine decides: the cluster, the groups and plain pods to decide, the options, and the cluster's DRA
 * objects (device classes, slices, claims, claim templates). Built by an adapter after validation.
 * <p>
 * {@code podGroups} and {@code pods} choose what is decided: both null decides every PodGroup with an unbound member
 * and every pending plain pod; otherwise only what they name (a null list names nothing).
 */
public record DecisionRequest(ClusterState cluster, List<GroupRef> podGroups, DecisionOptions options,
                              DraObjects dra, List<PodRef> pods) {
    public DecisionRequest(ClusterState cluster, List<GroupRef> podGroups, DecisionOptions options) {
        this(cluster, podGroups, options, DraObjects.NONE);
    }

    public DecisionRequest(ClusterState cluster, List<GroupRef> podGroups, DecisionOptions options,
                           DraObjects dra) {
        this(cluster, podGroups, options, dra, null);
    }

    public DecisionRequest {
        dra = dra == null ? DraObjects.NONE : dra;
        podGroups = podGroups == null ? null : List.copyOf(podGroups);
        pods = pods == null ? null : List.copyOf(pods);
        options = options == null ? DecisionOptions.DEFAULT : options;
    }
}
