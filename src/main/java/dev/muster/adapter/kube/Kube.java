package dev.muster.adapter.kube;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.util.List;
import java.util.Map;

/**
 * Lean Jackson-bound views of the Kubernetes objects a request carries: just the fields the scheduler reads,
 * under their exact Kubernetes JSON names. Unknown fields are ignored, never rejected, so a
 * {@code kubectl get -o json} object binds as is. Decoding into these costs about 1.2× tokenizing the bytes,
 * where full fabric8 objects cost several times more (see bench/README.md).
 *
 * <p>Nothing here checks values: the records say what was sent; {@code adapter.validation} says whether it is
 * allowed, and {@link KubeMapper} compiles validated records into the core model. Quantities stay as their
 * text ({@link Qty}) until then.
 *
 * <p>Treat every record as read-only: JSON bodies bind Node and Pod through {@link StreamingDecoders}, whose maps
 * and lists are unmodifiable and whose equal parts may be shared between objects of one request.
 */
public final class Kube {
    private Kube() {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ObjectMeta(String name, String namespace, String uid, Map<String, String> labels,
                             Map<String, String> annotations, String creationTimestamp, String deletionTimestamp,
                             Long generation) {
        /** {@code namespace}, with the API server's default for namespaced objects. */
        public String namespaceOrDefault() {
            return namespace == null || namespace.isEmpty() ? "default" : namespace;
        }
    }

    // ---------------------------------------------------------------- core/v1 Node

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Node(ObjectMeta metadata, NodeSpec spec, NodeStatus status) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record NodeSpec(Boolean unschedulable, List<Taint> taints) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Taint(String key, String value, String effect) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record NodeStatus(Map<String, Qty> allocatable, Map<String, Qty> capacity) {
    }

    // ---------------------------------------------------------------- core/v1 Pod

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Pod(ObjectMeta metadata, PodSpec spec, PodStatus status) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record PodSpec(String nodeName, String schedulerName, Integer priority, String priorityClassName,
                          String preemptionPolicy, Map<String, String> nodeSelector, Affinity affinity,
                          List<Toleration> tolerations, List<Container> containers, List<Container> initContainers,
                          Map<String, Qty> overhead, Resources resources,
                          List<TopologySpreadConstraint> topologySpreadConstraints,
                          List<SchedulingGate> schedulingGates, SchedulingGroup schedulingGroup,
                          List<ClaimRef> resourceClaims) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Container(String name, Resources resources, List<ContainerPort> ports, String restartPolicy) {
        /** A sidecar: an init container that keeps running ({@code restartPolicy: Always}). */
        public boolean isSidecar() {
            return "Always".equals(restartPolicy);
        }
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Resources(Map<String, Qty> requests, Map<String, Qty> limits) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ContainerPort(Integer containerPort, Integer hostPort, String protocol, String hostIP) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Affinity(NodeAffinity nodeAffinity, PodAffinity podAffinity, PodAffinity podAntiAffinity) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record NodeAffinity(NodeSelector requiredDuringSchedulingIgnoredDuringExecution,
                               List<PreferredSchedulingTerm> preferredDuringSchedulingIgnoredDuringExecution) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record NodeSelector(List<NodeSelectorTerm> nodeSelectorTerms) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record NodeSelectorTerm(List<Requirement> matchExpressions, List<Requirement> matchFields) {
    }

    /** A node selector requirement or a label selector requirement (same JSON shape). */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Requirement(String key, String operator, List<String> values) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record PreferredSchedulingTerm(Integer weight, NodeSelectorTerm preference) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record PodAffinity(List<PodAffinityTerm> requiredDuringSchedulingIgnoredDuringExecution,
                              List<WeightedPodAffinityTerm> preferredDuringSchedulingIgnoredDuringExecution) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record PodAffinityTerm(LabelSelector labelSelector, List<String> namespaces,
                                  LabelSelector namespaceSelector, String topologyKey,
                                  List<String> matchLabelKeys, List<String> mismatchLabelKeys) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record WeightedPodAffinityTerm(Integer weight, PodAffinityTerm podAffinityTerm) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record LabelSelector(Map<String, String> matchLabels, List<Requirement> matchExpressions) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Toleration(String key, String operator, String value, String effect, Long tolerationSeconds) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record TopologySpreadConstraint(Integer maxSkew, String topologyKey, String whenUnsatisfiable,
                                           LabelSelector labelSelector, Integer minDomains,
                                           String nodeAffinityPolicy, String nodeTaintsPolicy,
                                           List<String> matchLabelKeys) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record SchedulingGate(String name) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record SchedulingGroup(String podGroupName) {
    }

    /** {@code pod.spec.resourceClaims[]} and {@code podGroup.spec.resourceClaims[]} (same shape). */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ClaimRef(String name, String resourceClaimName, String resourceClaimTemplateName) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record PodStatus(String phase, String nominatedNodeName, List<ClaimStatus> resourceClaimStatuses) {
    }

    // ---------------------------------------------------------------- scheduling.k8s.io/v1alpha2

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record PodGroup(ObjectMeta metadata, PodGroupSpec spec, PodGroupStatus status) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record PodGroupSpec(PodGroupTemplateRef podGroupTemplateRef, SchedulingPolicy schedulingPolicy,
                               SchedulingConstraints schedulingConstraints, List<ClaimRef> resourceClaims,
                               String disruptionMode, String priorityClassName, Integer priority) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record PodGroupTemplateRef(WorkloadTemplateRef workload) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record WorkloadTemplateRef(String workloadName, String podGroupTemplateName) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record SchedulingPolicy(BasicPolicy basic, GangPolicy gang) {
    }

    /** {@code basic: {}}: no fields; its presence is the policy. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record BasicPolicy() {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record GangPolicy(Integer minCount) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record SchedulingConstraints(List<TopologyConstraint> topology) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record TopologyConstraint(String key) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record PodGroupStatus(List<Condition> conditions, List<ClaimStatus> resourceClaimStatuses) {
    }

    /** A {@code status.resourceClaimStatuses[]} entry of a pod or PodGroup: the claim generated for an entry. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    @org.eclipse.microprofile.openapi.annotations.media.Schema(name = "PodResourceClaimStatus")
    public record ClaimStatus(String name, String resourceClaimName) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Condition(String type, String status, String reason, String message, Long observedGeneration,
                            String lastTransitionTime) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Workload(ObjectMeta metadata, WorkloadSpec spec) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record WorkloadSpec(TypedLocalObjectReference controllerRef, List<PodGroupTemplate> podGroupTemplates) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record TypedLocalObjectReference(String apiGroup, String kind, String name) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record PodGroupTemplate(String name, SchedulingPolicy schedulingPolicy,
                                   SchedulingConstraints schedulingConstraints, List<ClaimRef> resourceClaims,
                                   String disruptionMode, String priorityClassName, Integer priority) {
    }

    // ---------------------------------------------------------------- scheduling.k8s.io/v1, policy/v1, resource.k8s.io/v1

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record PriorityClass(ObjectMeta metadata, Integer value, Boolean globalDefault, String preemptionPolicy) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record PodDisruptionBudget(ObjectMeta metadata, PdbSpec spec, PdbStatus status) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record PdbSpec(LabelSelector selector) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record PdbStatus(Integer disruptionsAllowed) {
    }

}
