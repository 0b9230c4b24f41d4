package dev.muster.adapter.kube;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.util.List;

/**
 * The request envelope of {@code POST /v1/cluster-choices} (docs/api.md), as sent: the clusters to choose among,
 * the workload to place, and the decision options.
 *
 * @param workload the objects to be submitted, in the snapshot's lists (a workload carries no nodes, PriorityClasses,
 *                 DeviceClasses, ResourceSlices or HyperNodes: those belong to a cluster)
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record ChoiceDocument(List<Cluster> clusters, RequestDocument.Snapshot workload,
                             RequestDocument.Options options) {

    /**
     * One cluster: its {@code snapshot}, or, without one, the name of a cluster the service watches.
     *
     * @param name a DNS label, unique in the request
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Cluster(String name, RequestDocument.Snapshot snapshot) {
    }
}
