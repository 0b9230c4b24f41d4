package dev.muster.adapter.kube;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.util.List;
import java.util.Map;

/**
 * Lean Jackson-bound views of the Kubernetes objects a request carries: just the fields the scheduler reads,
 * under their exact Kubernetes JSON names. Unknown fields are ignored, never rejected, so a
 * {@code kubectl get -o json} object binds as is. Decoding into these costs little more than tokenizing the
 * bytes, where full fabric8 objects cost several times more.
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

    /**
     * The {@code apiVersion} and {@code kind} an object of the snapshot says it has, as sent (null when left out, as
     * hand-written objects often do). Validation checks them against the list the object is in.
     */
    public interface TypeMeta {
        String apiVersion();

        String kind();
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

    /**
     * A meta/v1 OwnerReference. Read on ResourceClaims ({@link KubeDra.ClaimMeta}: the claim kube-scheduler makes for a
     * pod's extended resources names the pod as its controller) and written on derived objects.
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
    @com.fasterxml.jackson.annotation.JsonPropertyOrder({"apiVersion", "kind", "name", "uid", "controller",
            "blockOwnerDeletion"})
    @org.eclipse.microprofile.openapi.annotations.media.Schema(name = "OwnerReference")
    public record OwnerReference(String apiVersion, String kind, String name, String uid, Boolean controller,
                                 Boolean blockOwnerDeletion) {
        /** Whether this owner is the managing controller ({@code controller: true}). */
        public boolean isController() {
            return Boolean.TRUE.equals(controller);
        }
    }

    // ---------------------------------------------------------------- core/v1 Node

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Node(String apiVersion, String kind, ObjectMeta metadata, NodeSpec spec, NodeStatus status)
            implements TypeMeta {
        public Node(ObjectMeta metadata, NodeSpec spec, NodeStatus status) {
            this(null, null, metadata, spec, status);
        }
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
    public record Pod(String apiVersion, String kind, ObjectMeta metadata, PodSpec spec, PodStatus status)
            implements TypeMeta {
        public Pod(ObjectMeta metadata, PodSpec spec, PodStatus status) {
            this(null, null, metadata, spec, status);
        }
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record PodSpec(String nodeName, String schedulerName, Integer priority, String priorityClassName,
                          String preemptionPolicy, Map<String, String> nodeSelector, Affinity affinity,
                          List<Toleration> tolerations, List<Container> containers, List<Container> initContainers,
                          Map<String, Qty> overhead, Resources resources,
                          List<TopologySpreadConstraint> topologySpreadConstraints,
                          List<SchedulingGate> schedulingGates, SchedulingGroup schedulingGroup,
                          List<ClaimRef> resourceClaims, PodWorkloadRef workloadRef) {
        /** A pod spec without the 1.35 {@code workloadRef}. */
        public PodSpec(String nodeName, String schedulerName, Integer priority, String priorityClassName,
                       String preemptionPolicy, Map<String, String> nodeSelector, Affinity affinity,
                       List<Toleration> tolerations, List<Container> containers, List<Container> initContainers,
                       Map<String, Qty> overhead, Resources resources,
                       List<TopologySpreadConstraint> topologySpreadConstraints,
                       List<SchedulingGate> schedulingGates, SchedulingGroup schedulingGroup,
                       List<ClaimRef> resourceClaims) {
            this(nodeName, schedulerName, priority, priorityClassName, preemptionPolicy, nodeSelector, affinity,
                    tolerations, containers, initContainers, overhead, resources, topologySpreadConstraints,
                    schedulingGates, schedulingGroup, resourceClaims, null);
        }
    }

    /**
     * {@code pod.spec.workloadRef} of Kubernetes 1.35 ({@code scheduling.k8s.io/v1alpha1}): the Workload, its
     * embedded pod group and the replica of that group the pod belongs to.
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record PodWorkloadRef(String name, String podGroup, String podGroupReplicaKey) {
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
    public record PodStatus(String phase, String nominatedNodeName, List<ClaimStatus> resourceClaimStatuses,
                            ExtendedClaimStatus extendedResourceClaimStatus) {
        public PodStatus(String phase, String nominatedNodeName, List<ClaimStatus> resourceClaimStatuses) {
            this(phase, nominatedNodeName, resourceClaimStatuses, null);
        }
    }

    /**
     * {@code pod.status.extendedResourceClaimStatus}: the ResourceClaim kube-scheduler created for the pod's
     * extended-resource requests that a DeviceClass backs, and which device request serves each container's resource.
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    @org.eclipse.microprofile.openapi.annotations.media.Schema(name = "PodExtendedResourceClaimStatus")
    public record ExtendedClaimStatus(List<ExtendedRequestMapping> requestMappings, String resourceClaimName) {
    }

    /** A {@code requestMappings[]} entry: a container's extended resource and the claim's request for it. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    @org.eclipse.microprofile.openapi.annotations.media.Schema(name = "ContainerExtendedResourceRequest")
    public record ExtendedRequestMapping(String containerName, String resourceName, String requestName) {
    }

    // ---------------------------------------------------------------- gang APIs
    // One record per object for every accepted shape: scheduling.k8s.io v1alpha1 (Workload only), v1alpha2 and
    // v1beta1, scheduling.volcano.sh/v1beta1 and scheduling.x-k8s.io/v1alpha1. The fields of all shapes share one
    // record; apiVersion says which of them count (GangShapes), and validation rejects the others' rules.

    /** A PodGroup of any accepted shape; {@code apiVersion} absent means {@code scheduling.k8s.io/v1alpha2}. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record PodGroup(String apiVersion, String kind, ObjectMeta metadata, PodGroupSpec spec,
                           PodGroupStatus status) implements TypeMeta {
        public PodGroup(ObjectMeta metadata, PodGroupSpec spec, PodGroupStatus status) {
            this(null, null, metadata, spec, status);
        }
    }

    /**
     * The union of the PodGroup specs: v1alpha2 ({@code podGroupTemplateRef}, {@code disruptionMode} a string),
     * v1beta1 ({@code workloadRef}, {@code disruptionMode} a struct, {@code preemptionPolicy},
     * {@code parentCompositePodGroupName}), Volcano and coscheduling ({@code minMember}, {@code minResources};
     * Volcano's {@code minTaskMember}, {@code queue} and {@code networkTopology}).
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record PodGroupSpec(PodGroupTemplateRef podGroupTemplateRef, SchedulingPolicy schedulingPolicy,
                               SchedulingConstraints schedulingConstraints, List<ClaimRef> resourceClaims,
                               DisruptionMode disruptionMode, String priorityClassName, Integer priority,
                               PodGroupWorkloadRef workloadRef, String preemptionPolicy,
                               String parentCompositePodGroupName, Integer minMember, Map<String, Qty> minResources,
                               Map<String, Integer> minTaskMember, String queue, NetworkTopology networkTopology) {
        /** A spec without Volcano's {@code networkTopology}. */
        public PodGroupSpec(PodGroupTemplateRef podGroupTemplateRef, SchedulingPolicy schedulingPolicy,
                            SchedulingConstraints schedulingConstraints, List<ClaimRef> resourceClaims,
                            DisruptionMode disruptionMode, String priorityClassName, Integer priority,
                            PodGroupWorkloadRef workloadRef, String preemptionPolicy,
                            String parentCompositePodGroupName, Integer minMember, Map<String, Qty> minResources,
                            Map<String, Integer> minTaskMember, String queue) {
            this(podGroupTemplateRef, schedulingPolicy, schedulingConstraints, resourceClaims, disruptionMode,
                    priorityClassName, priority, workloadRef, preemptionPolicy, parentCompositePodGroupName, minMember,
                    minResources, minTaskMember, queue, null);
        }

        /** A v1alpha2 spec. */
        public PodGroupSpec(PodGroupTemplateRef podGroupTemplateRef, SchedulingPolicy schedulingPolicy,
                            SchedulingConstraints schedulingConstraints, List<ClaimRef> resourceClaims,
                            String disruptionMode, String priorityClassName, Integer priority) {
            this(podGroupTemplateRef, schedulingPolicy, schedulingConstraints, resourceClaims,
                    DisruptionMode.of(disruptionMode), priorityClassName, priority, null, null, null, null, null,
                    null, null, null);
        }
    }

    /**
     * Volcano's {@code spec.networkTopology}: {@code mode} {@code hard} (the default) or {@code soft}, and the widest
     * HyperNode tier the group may span, by number ({@code highestTierAllowed}) or by the HyperNodes'
     * {@code spec.tierName} ({@code highestTierName}); at most one of the two.
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record NetworkTopology(String mode, Integer highestTierAllowed, String highestTierName) {
    }

    // ---------------------------------------------------------------- topology.volcano.sh/v1alpha1 HyperNode

    /**
     * A Volcano HyperNode: one network performance domain of tier {@code spec.tier} (1 the tightest), whose members
     * are nodes or other HyperNodes. Cluster-scoped.
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record HyperNode(String apiVersion, String kind, ObjectMeta metadata, HyperNodeSpec spec)
            implements TypeMeta {
    }

    /** {@code tierName}: the name of the tier, which {@code networkTopology.highestTierName} may use. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record HyperNodeSpec(Integer tier, String tierName, List<HyperNodeMember> members) {
    }

    /** {@code type}: {@code Node} or {@code HyperNode}. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record HyperNodeMember(String type, MemberSelector selector) {
    }

    /**
     * Exactly one of: a name ({@code exactMatch.name}), a regular expression the name contains a match of
     * ({@code regexMatch.pattern}), a label selector ({@code labelMatch}, for nodes only).
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record MemberSelector(ExactMatch exactMatch, RegexMatch regexMatch, LabelSelector labelMatch) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ExactMatch(String name) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record RegexMatch(String pattern) {
    }

    /**
     * {@code disruptionMode}: a string in v1alpha2 ({@code Pod} | {@code PodGroup}), a one-member struct in v1beta1
     * ({@code {"single": {}}} | {@code {"all": {}}}). Which form is allowed depends on the apiVersion, so both
     * decode and validation says which one the object's version takes.
     *
     * @param text   the string form, null for the struct form
     * @param single the struct has {@code single}
     * @param all    the struct has {@code all}
     */
    @org.eclipse.microprofile.openapi.annotations.media.Schema(name = "DisruptionMode", description = "A string "
            + "(`Pod` | `PodGroup`) in scheduling.k8s.io/v1alpha2; an object with exactly one of `single: {}` (= Pod) "
            + "and `all: {}` (= PodGroup) in scheduling.k8s.io/v1beta1 and v1alpha3")
    public record DisruptionMode(@com.fasterxml.jackson.annotation.JsonIgnore String text,
                                 @com.fasterxml.jackson.annotation.JsonIgnore boolean single,
                                 @com.fasterxml.jackson.annotation.JsonIgnore boolean all) {
        public static DisruptionMode of(String text) {
            return text == null ? null : new DisruptionMode(text, false, false);
        }

        @com.fasterxml.jackson.annotation.JsonCreator(mode = com.fasterxml.jackson.annotation.JsonCreator.Mode.DELEGATING)
        static DisruptionMode fromJson(com.fasterxml.jackson.databind.JsonNode n) {
            if (n == null || n.isNull()) {
                return null;
            }
            if (n.isTextual()) {
                return new DisruptionMode(n.textValue(), false, false);
            }
            if (n.isObject()) {
                return new DisruptionMode(null, member(n, "single"), member(n, "all"));
            }
            throw new IllegalArgumentException("disruptionMode must be a string (v1alpha2) or an object (v1beta1)");
        }

        private static boolean member(com.fasterxml.jackson.databind.JsonNode n, String name) {
            com.fasterxml.jackson.databind.JsonNode m = n.get(name);
            if (m != null && !m.isNull() && !m.isObject()) {
                throw new IllegalArgumentException("disruptionMode." + name + " must be an object ({})");
            }
            return m != null && !m.isNull();
        }

        @com.fasterxml.jackson.annotation.JsonIgnore
        public boolean isStruct() {
            return text == null;
        }

        /** The v1alpha2 name of the mode ({@code Pod}, {@code PodGroup}), null when the struct names none. */
        public String modeName() {
            if (text != null) {
                return text;
            }
            return single == all ? null : single ? "Pod" : "PodGroup";
        }
    }

    /**
     * A {@code scheduling.k8s.io/v1alpha3} CompositePodGroup: several PodGroups (children name it through
     * {@code spec.parentCompositePodGroupName}) with one atomic promise and one topology.
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record CompositePodGroup(String apiVersion, String kind, ObjectMeta metadata, CompositePodGroupSpec spec)
            implements TypeMeta {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record CompositePodGroupSpec(String parentCompositePodGroupName, PodGroupWorkloadRef workloadRef,
                                        CompositeSchedulingPolicy schedulingPolicy,
                                        SchedulingConstraints schedulingConstraints, DisruptionMode disruptionMode,
                                        String preemptionPolicy, String priorityClassName, Integer priority) {
    }

    /** Exactly one of {@code basic: {}} and {@code gang: {minGroupCount}}. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record CompositeSchedulingPolicy(BasicPolicy basic, CompositeGangPolicy gang) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record CompositeGangPolicy(Integer minGroupCount) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record PodGroupTemplateRef(WorkloadTemplateRef workload) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record WorkloadTemplateRef(String workloadName, String podGroupTemplateName) {
    }

    /** v1beta1 {@code spec.workloadRef}. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record PodGroupWorkloadRef(String workloadName, String templateName) {
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

    /** A Workload of any accepted version; {@code apiVersion} absent means {@code scheduling.k8s.io/v1alpha2}. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Workload(String apiVersion, String kind, ObjectMeta metadata, WorkloadSpec spec) implements TypeMeta {
        public Workload(ObjectMeta metadata, WorkloadSpec spec) {
            this(null, null, metadata, spec);
        }
    }

    /**
     * v1alpha2/v1beta1 {@code podGroupTemplates}, v1alpha1 {@code podGroups} (embedded groups), v1beta1
     * {@code compositePodGroupTemplates} (kept as sent: only counted).
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record WorkloadSpec(TypedLocalObjectReference controllerRef, List<PodGroupTemplate> podGroupTemplates,
                               List<EmbeddedPodGroup> podGroups, List<Object> compositePodGroupTemplates) {
        public WorkloadSpec(TypedLocalObjectReference controllerRef, List<PodGroupTemplate> podGroupTemplates) {
            this(controllerRef, podGroupTemplates, null, null);
        }
    }

    /** A v1alpha1 Workload's {@code spec.podGroups[]}: a name and a {@code policy}. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record EmbeddedPodGroup(String name, SchedulingPolicy policy) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record TypedLocalObjectReference(String apiGroup, String kind, String name) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record PodGroupTemplate(String name, SchedulingPolicy schedulingPolicy,
                                   SchedulingConstraints schedulingConstraints, List<ClaimRef> resourceClaims,
                                   DisruptionMode disruptionMode, String priorityClassName, Integer priority,
                                   String preemptionPolicy) {
        public PodGroupTemplate(String name, SchedulingPolicy schedulingPolicy,
                                SchedulingConstraints schedulingConstraints, List<ClaimRef> resourceClaims,
                                String disruptionMode, String priorityClassName, Integer priority) {
            this(name, schedulingPolicy, schedulingConstraints, resourceClaims, DisruptionMode.of(disruptionMode),
                    priorityClassName, priority, null);
        }
    }

    // ---------------------------------------------------------------- batch/v1 Job

    /** A Job: what decides whether its controller would create a gang for it (see JobGangs). */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Job(String apiVersion, String kind, ObjectMeta metadata, JobSpec spec, JobStatus status)
            implements TypeMeta {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record JobSpec(Integer parallelism, Integer completions, String completionMode, Boolean suspend,
                          JobTemplate template) {
    }

    /**
     * A Job's pod template: its {@code spec.schedulingGroup} decides gang scheduling, and a workload's Job without
     * its pods stands for the pods the controller would create from it.
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record JobTemplate(ObjectMeta metadata, PodSpec spec) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record JobStatus(String startTime, Integer active, Integer succeeded, Integer failed,
                            List<Condition> conditions) {
    }

    // ---------------------------------------------------------------- scheduling.k8s.io/v1, policy/v1, resource.k8s.io/v1

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record PriorityClass(String apiVersion, String kind, ObjectMeta metadata, Integer value,
                                Boolean globalDefault, String preemptionPolicy) implements TypeMeta {
        public PriorityClass(ObjectMeta metadata, Integer value, Boolean globalDefault, String preemptionPolicy) {
            this(null, null, metadata, value, globalDefault, preemptionPolicy);
        }
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record PodDisruptionBudget(String apiVersion, String kind, ObjectMeta metadata, PdbSpec spec,
                                      PdbStatus status) implements TypeMeta {
        public PodDisruptionBudget(ObjectMeta metadata, PdbSpec spec, PdbStatus status) {
            this(null, null, metadata, spec, status);
        }
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record PdbSpec(LabelSelector selector) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record PdbStatus(Integer disruptionsAllowed) {
    }

}
