package dev.muster.adapter.kube;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.util.List;

/**
 * The request envelope of {@code POST /v1/decisions} and {@code /v1/validations} (docs/api.md), as sent.
 *
 * @param podGroups "namespace/name" of the groups to decide; null = every group with an unbound member
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record RequestDocument(Snapshot snapshot, List<String> podGroups, Options options) {

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Snapshot(List<Kube.Node> nodes, List<Kube.Pod> pods, List<Kube.PodGroup> podGroups,
                           List<Kube.Workload> workloads, List<Kube.PriorityClass> priorityClasses,
                           List<Kube.PodDisruptionBudget> podDisruptionBudgets, List<KubeDra.DeviceClass> deviceClasses,
                           List<KubeDra.ResourceSlice> resourceSlices, List<KubeDra.ResourceClaim> resourceClaims,
                           List<KubeDra.ResourceClaimTemplate> resourceClaimTemplates, List<Kube.Job> jobs,
                           List<Kube.CompositePodGroup> compositePodGroups) {
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
