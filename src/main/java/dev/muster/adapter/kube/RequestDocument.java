package dev.muster.adapter.kube;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;

import java.util.List;

/**
 * The request envelope of {@code POST /v1/decisions} and {@code /v1/validations} (docs/api.md), as sent.
 *
 * @param podGroups "namespace/name" of the groups to decide
 * @param pods      "namespace/name" of the plain pods to decide; with {@code podGroups} both null, every group with an
 *                  unbound member and every pending plain pod is decided, otherwise only what they name
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record RequestDocument(Snapshot snapshot, List<String> podGroups, Options options, List<String> pods) {
    public RequestDocument(Snapshot snapshot, List<String> podGroups, Options options) {
        this(snapshot, podGroups, options, null);
    }

    /**
     * Every list may arrive as an array or as the list object kubectl prints ({@link KubeList}, read by
     * {@link KubeListDeserializer}); validation checks the list object's kind.
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Snapshot(@JsonDeserialize(using = KubeListDeserializer.class) List<Kube.Node> nodes,
                           @JsonDeserialize(using = KubeListDeserializer.class) List<Kube.Pod> pods,
                           @JsonDeserialize(using = KubeListDeserializer.class) List<Kube.PodGroup> podGroups,
                           @JsonDeserialize(using = KubeListDeserializer.class) List<Kube.Workload> workloads,
                           @JsonDeserialize(using = KubeListDeserializer.class) List<Kube.PriorityClass> priorityClasses,
                           @JsonDeserialize(using = KubeListDeserializer.class)
                           List<Kube.PodDisruptionBudget> podDisruptionBudgets,
                           @JsonDeserialize(using = KubeListDeserializer.class) List<KubeDra.DeviceClass> deviceClasses,
                           @JsonDeserialize(using = KubeListDeserializer.class) List<KubeDra.ResourceSlice> resourceSlices,
                           @JsonDeserialize(using = KubeListDeserializer.class) List<KubeDra.ResourceClaim> resourceClaims,
                           @JsonDeserialize(using = KubeListDeserializer.class)
                           List<KubeDra.ResourceClaimTemplate> resourceClaimTemplates,
                           @JsonDeserialize(using = KubeListDeserializer.class) List<Kube.Job> jobs,
                           @JsonDeserialize(using = KubeListDeserializer.class)
                           List<Kube.CompositePodGroup> compositePodGroups,
                           @JsonDeserialize(using = KubeListDeserializer.class) List<Kube.HyperNode> hyperNodes) {
        public Snapshot(List<Kube.Node> nodes, List<Kube.Pod> pods, List<Kube.PodGroup> podGroups,
                        List<Kube.Workload> workloads, List<Kube.PriorityClass> priorityClasses,
                        List<Kube.PodDisruptionBudget> podDisruptionBudgets, List<KubeDra.DeviceClass> deviceClasses,
                        List<KubeDra.ResourceSlice> resourceSlices, List<KubeDra.ResourceClaim> resourceClaims,
                        List<KubeDra.ResourceClaimTemplate> resourceClaimTemplates, List<Kube.Job> jobs,
                        List<Kube.CompositePodGroup> compositePodGroups) {
            this(nodes, pods, podGroups, workloads, priorityClasses, podDisruptionBudgets, deviceClasses,
                    resourceSlices, resourceClaims, resourceClaimTemplates, jobs, compositePodGroups, null);
        }

        public Snapshot(List<Kube.Node> nodes, List<Kube.Pod> pods, List<Kube.PodGroup> podGroups,
                        List<Kube.Workload> workloads, List<Kube.PriorityClass> priorityClasses,
                        List<Kube.PodDisruptionBudget> podDisruptionBudgets, List<KubeDra.DeviceClass> deviceClasses,
                        List<KubeDra.ResourceSlice> resourceSlices, List<KubeDra.ResourceClaim> resourceClaims,
                        List<KubeDra.ResourceClaimTemplate> resourceClaimTemplates, List<Kube.Job> jobs) {
            this(nodes, pods, podGroups, workloads, priorityClasses, podDisruptionBudgets, deviceClasses,
                    resourceSlices, resourceClaims, resourceClaimTemplates, jobs, null);
        }

        public Snapshot(List<Kube.Node> nodes, List<Kube.Pod> pods, List<Kube.PodGroup> podGroups,
                        List<Kube.Workload> workloads, List<Kube.PriorityClass> priorityClasses,
                        List<Kube.PodDisruptionBudget> podDisruptionBudgets, List<KubeDra.DeviceClass> deviceClasses,
                        List<KubeDra.ResourceSlice> resourceSlices, List<KubeDra.ResourceClaim> resourceClaims,
                        List<KubeDra.ResourceClaimTemplate> resourceClaimTemplates) {
            this(nodes, pods, podGroups, workloads, priorityClasses, podDisruptionBudgets, deviceClasses,
                    resourceSlices, resourceClaims, resourceClaimTemplates, null);
        }
    }

    /** {@code preemption} defaults to true, {@code explain} to false. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Options(Boolean preemption, Boolean explain) {
    }
}
