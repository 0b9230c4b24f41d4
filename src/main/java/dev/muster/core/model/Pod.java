package dev.muster.core.model;

import java.util.List;
import java.util.Map;

/**
 * The parts of a core/v1 Pod the scheduler reads, already compiled: {@code requests} are the effective pod
 * requests (containers, sidecars, init containers, overhead, pod-level resources) computed the Kubernetes way.
 *
 * @param nodeName          {@code spec.nodeName}; non-null means the pod is bound
 * @param phase             {@code status.phase}; Succeeded/Failed pods consume nothing
 * @param creationEpochSec  {@code metadata.creationTimestamp} in epoch seconds, or {@link Long#MAX_VALUE} when absent
 * @param priority          {@code spec.priority}, null when unset (resolved through PriorityClasses later)
 * @param podGroupName      {@code spec.schedulingGroup.podGroupName}, null when the pod is in no group
 * @param terminating       {@code metadata.deletionTimestamp} is set
 * @param resourceClaimStatuses {@code status.resourceClaimStatuses}: claim entry name → the name of the claim
 *                          generated for it ("" when no claim is needed)
 * @param role              the member's role in its group, as the adapter read it for the group's per-role minimums
 *                          ({@link PodGroup#minPerRole}); null when the group has none or the pod names no role
 * @param extendedRequests  the containers' extended-resource requests, for those a DeviceClass may back (empty for
 *                          most pods)
 * @param extendedResourceClaim {@code status.extendedResourceClaimStatus}: the claim kube-scheduler created for those
 *                          requests, or null
 */
public record Pod(PodRef ref, String uid, Map<String, String> labels, long creationEpochSec,
                  String nodeName, String phase, String schedulerName,
                  ResourceList requests, Integer priority, String priorityClassName, String preemptionPolicy,
                  Map<String, String> nodeSelector, Affinity affinity, List<Toleration> tolerations,
                  List<HostPort> hostPorts, List<TopologySpreadConstraint> topologySpreadConstraints,
                  List<String> schedulingGates, String podGroupName, List<PodClaimRef> resourceClaims,
                  String nominatedNodeName, boolean terminating, Map<String, String> resourceClaimStatuses,
                  String role, List<ExtendedRequest> extendedRequests, ExtendedClaimStatus extendedResourceClaim) {
    public Pod(PodRef ref, String uid, Map<String, String> labels, long creationEpochSec,
               String nodeName, String phase, String schedulerName,
               ResourceList requests, Integer priority, String priorityClassName, String preemptionPolicy,
               Map<String, String> nodeSelector, Affinity affinity, List<Toleration> tolerations,
               List<HostPort> hostPorts, List<TopologySpreadConstraint> topologySpreadConstraints,
               List<String> schedulingGates, String podGroupName, List<PodClaimRef> resourceClaims,
               String nominatedNodeName, boolean terminating, Map<String, String> resourceClaimStatuses,
               String role, List<ExtendedRequest> extendedRequests) {
        this(ref, uid, labels, creationEpochSec, nodeName, phase, schedulerName, requests, priority, priorityClassName,
                preemptionPolicy, nodeSelector, affinity, tolerations, hostPorts, topologySpreadConstraints,
                schedulingGates, podGroupName, resourceClaims, nominatedNodeName, terminating, resourceClaimStatuses,
                role, extendedRequests, null);
    }

    public Pod(PodRef ref, String uid, Map<String, String> labels, long creationEpochSec,
               String nodeName, String phase, String schedulerName,
               ResourceList requests, Integer priority, String priorityClassName, String preemptionPolicy,
               Map<String, String> nodeSelector, Affinity affinity, List<Toleration> tolerations,
               List<HostPort> hostPorts, List<TopologySpreadConstraint> topologySpreadConstraints,
               List<String> schedulingGates, String podGroupName, List<PodClaimRef> resourceClaims,
               String nominatedNodeName, boolean terminating, Map<String, String> resourceClaimStatuses,
               String role) {
        this(ref, uid, labels, creationEpochSec, nodeName, phase, schedulerName, requests, priority, priorityClassName,
                preemptionPolicy, nodeSelector, affinity, tolerations, hostPorts, topologySpreadConstraints,
                schedulingGates, podGroupName, resourceClaims, nominatedNodeName, terminating, resourceClaimStatuses,
                role, null);
    }

    public Pod(PodRef ref, String uid, Map<String, String> labels, long creationEpochSec,
               String nodeName, String phase, String schedulerName,
               ResourceList requests, Integer priority, String priorityClassName, String preemptionPolicy,
               Map<String, String> nodeSelector, Affinity affinity, List<Toleration> tolerations,
               List<HostPort> hostPorts, List<TopologySpreadConstraint> topologySpreadConstraints,
               List<String> schedulingGates, String podGroupName, List<PodClaimRef> resourceClaims,
               String nominatedNodeName, boolean terminating, Map<String, String> resourceClaimStatuses) {
        this(ref, uid, labels, creationEpochSec, nodeName, phase, schedulerName, requests, priority, priorityClassName,
                preemptionPolicy, nodeSelector, affinity, tolerations, hostPorts, topologySpreadConstraints,
                schedulingGates, podGroupName, resourceClaims, nominatedNodeName, terminating, resourceClaimStatuses,
                null);
    }

    public Pod(PodRef ref, String uid, Map<String, String> labels, long creationEpochSec,
               String nodeName, String phase, String schedulerName,
               ResourceList requests, Integer priority, String priorityClassName, String preemptionPolicy,
               Map<String, String> nodeSelector, Affinity affinity, List<Toleration> tolerations,
               List<HostPort> hostPorts, List<TopologySpreadConstraint> topologySpreadConstraints,
               List<String> schedulingGates, String podGroupName, List<PodClaimRef> resourceClaims,
               String nominatedNodeName, boolean terminating) {
        this(ref, uid, labels, creationEpochSec, nodeName, phase, schedulerName, requests, priority, priorityClassName,
                preemptionPolicy, nodeSelector, affinity, tolerations, hostPorts, topologySpreadConstraints,
                schedulingGates, podGroupName, resourceClaims, nominatedNodeName, terminating, null);
    }

    public Pod {
        resourceClaimStatuses = SortedStringMap.copyOf(resourceClaimStatuses);
        labels = SortedStringMap.copyOf(labels);
        requests = requests == null ? ResourceList.EMPTY : requests;
        schedulerName = schedulerName == null || schedulerName.isEmpty() ? "default-scheduler" : schedulerName;
        nodeSelector = SortedStringMap.copyOf(nodeSelector);
        affinity = affinity == null ? Affinity.NONE : affinity;
        tolerations = tolerations == null ? List.of() : List.copyOf(tolerations);
        hostPorts = hostPorts == null ? List.of() : List.copyOf(hostPorts);
        topologySpreadConstraints = topologySpreadConstraints == null ? List.of() : List.copyOf(topologySpreadConstraints);
        schedulingGates = schedulingGates == null ? List.of() : List.copyOf(schedulingGates);
        resourceClaims = resourceClaims == null ? List.of() : List.copyOf(resourceClaims);
        extendedRequests = extendedRequests == null ? List.of() : List.copyOf(extendedRequests);
        if (nodeName != null && nodeName.isEmpty()) {
            nodeName = null;
        }
        if (podGroupName != null && podGroupName.isEmpty()) {
            podGroupName = null;
        }
        if (role != null && role.isEmpty()) {
            role = null;
        }
    }

    /**
     * Whether the pod may need devices: it names ResourceClaims, requests extended resources (in a compiled
     * snapshot, only those a DeviceClass serves are kept), or its status names the claim made for such requests.
     */
    public boolean usesDevices() {
        return !resourceClaims.isEmpty() || !extendedRequests.isEmpty() || extendedResourceClaim != null;
    }

    /** This pod with other extended-resource requests (see {@link #extendedRequests}). */
    public Pod withExtendedRequests(List<ExtendedRequest> kept) {
        return new Pod(ref, uid, labels, creationEpochSec, nodeName, phase, schedulerName, requests, priority,
                priorityClassName, preemptionPolicy, nodeSelector, affinity, tolerations, hostPorts,
                topologySpreadConstraints, schedulingGates, podGroupName, resourceClaims, nominatedNodeName, terminating,
                resourceClaimStatuses, role, kept, extendedResourceClaim);
    }

    public boolean isBound() {
        return nodeName != null;
    }

    /** Succeeded and Failed pods hold no resources. */
    public boolean isTerminal() {
        return "Succeeded".equals(phase) || "Failed".equals(phase);
    }

    public boolean isGated() {
        return !schedulingGates.isEmpty();
    }

    public GroupRef groupRef() {
        return podGroupName == null ? null : new GroupRef(ref.namespace(), podGroupName);
    }
}
