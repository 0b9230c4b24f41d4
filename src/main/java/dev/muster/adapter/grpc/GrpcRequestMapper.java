package dev.muster.adapter.grpc;

import dev.muster.adapter.kube.Kube;
import dev.muster.adapter.kube.Qty;
import dev.muster.adapter.kube.RequestDocument;
import dev.muster.grpc.v1.DecideRequest;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Generated {@code muster.v1} messages → the lean {@link Kube} records of a {@link RequestDocument}: the same
 * document the REST decoder produces, so the same {@code RequestValidator} (same field paths) and the same
 * {@code KubeMapper} run after it. One mapping path into the core; the engine does not know which transport asked.
 *
 * <p>Presence follows what REST's Jackson decoding would give for the JSON a kubectl user sends:
 * <ul>
 *   <li>an unset message field is null (proto3 tracks message presence, so {@code schedulingGroup: {}} stays an
 *       empty record and validation reports its missing {@code podGroupName});</li>
 *   <li>an {@code optional} scalar is null when unset and its value (even "" or 0) when set;</li>
 *   <li>a plain string that is "" is null (proto3 has no "unset" for it, and kubectl omits empty strings);</li>
 *   <li>an empty repeated or map field is null (proto3 cannot tell [] from absent). This is why an empty
 *       {@code snapshot.nodes} reads as missing, and an empty {@code podGroups} as "every group". The one map
 *       whose emptiness matters, a node's {@code allocatable} ("nothing allocatable" versus "use capacity"), carries
 *       its presence in {@code allocatable_set}.</li>
 * </ul>
 * Plain loops, pre-sized lists: it runs over 50,000-pod snapshots.
 */
public final class GrpcRequestMapper {
    private GrpcRequestMapper() {
    }

    public static RequestDocument toDocument(DecideRequest r) {
        RequestDocument.Snapshot snapshot = r.hasSnapshot() ? snapshot(r.getSnapshot()) : null;
        List<String> groups = r.getPodGroupsCount() == 0 ? null : new ArrayList<>(r.getPodGroupsList());
        RequestDocument.Options options = null;
        if (r.hasOptions()) {
            var o = r.getOptions();
            options = new RequestDocument.Options(o.hasPreemption() ? o.getPreemption() : null,
                    o.hasExplain() ? o.getExplain() : null);
        }
        List<String> pods = r.getPodsCount() == 0 ? null : new ArrayList<>(r.getPodsList());
        return new RequestDocument(snapshot, groups, options, pods);
    }

    static RequestDocument.Snapshot snapshot(dev.muster.grpc.v1.Snapshot s) {
        return snapshot(s, "snapshot");
    }

    /**
     * The snapshot at {@code root} in the request ({@code snapshot}, {@code clusters[2].snapshot}, {@code workload}):
     * a value the records cannot carry is INVALID_ARGUMENT on its path from there.
     */
    static RequestDocument.Snapshot snapshot(dev.muster.grpc.v1.Snapshot s, String root) {
        try {
            return new RequestDocument.Snapshot(
                    list(s.getNodesList(), GrpcRequestMapper::node),
                    list(s.getPodsList(), GrpcRequestMapper::pod),
                    listAt(s.getPodGroupsList(), "podGroups", GrpcRequestMapper::podGroup),
                    listAt(s.getWorkloadsList(), "workloads", GrpcRequestMapper::workload),
                    list(s.getPriorityClassesList(), GrpcRequestMapper::priorityClass),
                    list(s.getPodDisruptionBudgetsList(), GrpcRequestMapper::pdb),
                    list(s.getDeviceClassesList(), GrpcDraMapper::deviceClass),
                    list(s.getResourceSlicesList(), GrpcDraMapper::resourceSlice),
                    list(s.getResourceClaimsList(), GrpcDraMapper::resourceClaim),
                    list(s.getResourceClaimTemplatesList(), GrpcDraMapper::resourceClaimTemplate),
                    list(s.getJobsList(), GrpcGangMapper::job),
                    listAt(s.getCompositePodGroupsList(), "compositePodGroups", GrpcGangMapper::composite),
                    list(s.getHyperNodesList(), GrpcGangMapper::hyperNode));
        } catch (GrpcFieldException e) {
            throw GrpcErrors.invalid(e.reason(), root + "." + e.field(), e.getMessage());
        }
    }

    /** As {@link #list}, a failing item's field path prefixed with {@code name[i]}. */
    static <A, B> List<B> listAt(List<A> in, String name, Function<A, B> f) {
        int n = in.size();
        if (n == 0) {
            return null;
        }
        List<B> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            try {
                out.add(f.apply(in.get(i)));
            } catch (GrpcFieldException e) {
                throw e.at(name + "[" + i + "]");
            }
        }
        return out;
    }

    // ---------------------------------------------------------------- helpers

    static <A, B> List<B> list(List<A> in, Function<A, B> f) {
        int n = in.size();
        if (n == 0) {
            return null;
        }
        List<B> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(f.apply(in.get(i)));
        }
        return out;
    }

    /**
     * Longest string the mapper takes, in characters: {@code muster.limits.max-string-length}, the limit the JSON
     * reader applies to REST bodies (set by {@link DecisionGrpcService} at startup). A longer string stops the mapping
     * with {@link StringTooLong}; the service then finds and names the field.
     */
    static volatile int maxStringLength = 4 * 1024 * 1024;

    /** Thrown by the mapper on a string over {@link #maxStringLength}; carries nothing, the service names the field. */
    static final class StringTooLong extends RuntimeException {
        StringTooLong() {
            super("a string is longer than " + maxStringLength + " characters", null, false, false);
        }
    }

    private static String checked(String s) {
        if (s.length() > maxStringLength) {
            throw new StringTooLong();
        }
        return s;
    }

    static List<String> strings(List<String> in) {
        if (in.isEmpty()) {
            return null;
        }
        for (int i = 0, n = in.size(); i < n; i++) {
            checked(in.get(i));
        }
        return in;
    }

    static String str(String s) {
        return s.isEmpty() ? null : checked(s);
    }

    private static Map<String, String> map(Map<String, String> in) {
        if (in.isEmpty()) {
            return null;
        }
        for (Map.Entry<String, String> e : in.entrySet()) {
            checked(e.getKey());
            checked(e.getValue());
        }
        return in;
    }

    static Map<String, Qty> quantities(Map<String, String> in) {
        if (in.isEmpty()) {
            return null;
        }
        Map<String, Qty> out = new HashMap<>(in.size() * 2);
        for (Map.Entry<String, String> e : in.entrySet()) {
            out.put(e.getKey(), Qty.of(e.getValue()));
        }
        return out;
    }

    static Kube.ObjectMeta meta(boolean has, dev.muster.grpc.v1.ObjectMeta m) {
        return has ? meta(m) : null;
    }

    static Kube.ObjectMeta meta(dev.muster.grpc.v1.ObjectMeta m) {
        return new Kube.ObjectMeta(str(m.getName()), str(m.getNamespace()), str(m.getUid()), map(m.getLabelsMap()),
                map(m.getAnnotationsMap()), str(m.getCreationTimestamp()), str(m.getDeletionTimestamp()),
                m.hasGeneration() ? m.getGeneration() : null);
    }

    static Kube.LabelSelector labelSelector(dev.muster.grpc.v1.LabelSelector s) {
        return new Kube.LabelSelector(map(s.getMatchLabelsMap()),
                list(s.getMatchExpressionsList(), r -> new Kube.Requirement(str(r.getKey()), str(r.getOperator()),
                        strings(r.getValuesList()))));
    }

    // ---------------------------------------------------------------- Node

    static Kube.Node node(dev.muster.grpc.v1.Node n) {
        Kube.NodeSpec spec = null;
        if (n.hasSpec()) {
            var s = n.getSpec();
            spec = new Kube.NodeSpec(s.hasUnschedulable() ? s.getUnschedulable() : null,
                    list(s.getTaintsList(), t -> new Kube.Taint(str(t.getKey()), str(t.getValue()), str(t.getEffect()))));
        }
        Kube.NodeStatus status = null;
        if (n.hasStatus()) {
            var s = n.getStatus();
            status = new Kube.NodeStatus(allocatable(s), quantities(s.getCapacityMap()));
        }
        return new Kube.Node(n.hasApiVersion() ? n.getApiVersion() : null, n.hasKind() ? n.getKind() : null,
                n.hasMetadata() ? meta(n.getMetadata()) : null, spec, status);
    }

    /**
     * A node's allocatable: an empty map is "not set" (capacity is used) unless {@code allocatable_set} says it was
     * sent empty, which then means what REST's {@code allocatable: {}} means: nothing allocatable.
     */
    private static Map<String, Qty> allocatable(dev.muster.grpc.v1.NodeStatus s) {
        if (s.getAllocatableMap().isEmpty()) {
            return s.getAllocatableSet() ? Map.of() : null;
        }
        return quantities(s.getAllocatableMap());
    }

    // ---------------------------------------------------------------- Pod

    static Kube.Pod pod(dev.muster.grpc.v1.Pod p) {
        Kube.PodStatus status = null;
        if (p.hasStatus()) {
            status = new Kube.PodStatus(str(p.getStatus().getPhase()), str(p.getStatus().getNominatedNodeName()),
                    list(p.getStatus().getResourceClaimStatusesList(), GrpcRequestMapper::claimStatus),
                    p.getStatus().hasExtendedResourceClaimStatus()
                            ? extendedClaim(p.getStatus().getExtendedResourceClaimStatus()) : null);
        }
        return new Kube.Pod(p.hasApiVersion() ? p.getApiVersion() : null, p.hasKind() ? p.getKind() : null,
                p.hasMetadata() ? meta(p.getMetadata()) : null, p.hasSpec() ? podSpec(p.getSpec()) : null,
                status);
    }

    static Kube.PodSpec podSpec(dev.muster.grpc.v1.PodSpec s) {
        return new Kube.PodSpec(str(s.getNodeName()), str(s.getSchedulerName()),
                s.hasPriority() ? s.getPriority() : null, str(s.getPriorityClassName()),
                s.hasPreemptionPolicy() ? s.getPreemptionPolicy() : null, map(s.getNodeSelectorMap()),
                s.hasAffinity() ? affinity(s.getAffinity()) : null,
                list(s.getTolerationsList(), GrpcRequestMapper::toleration),
                list(s.getContainersList(), GrpcRequestMapper::container),
                list(s.getInitContainersList(), GrpcRequestMapper::container),
                quantities(s.getOverheadMap()),
                s.hasResources() ? resources(s.getResources()) : null,
                list(s.getTopologySpreadConstraintsList(), GrpcRequestMapper::spread),
                list(s.getSchedulingGatesList(), g -> new Kube.SchedulingGate(str(g.getName()))),
                s.hasSchedulingGroup() ? new Kube.SchedulingGroup(str(s.getSchedulingGroup().getPodGroupName())) : null,
                list(s.getResourceClaimsList(), GrpcRequestMapper::claimRef),
                s.hasWorkloadRef() ? GrpcGangMapper.workloadRef(s.getWorkloadRef()) : null);
    }

    private static Kube.Container container(dev.muster.grpc.v1.Container c) {
        return new Kube.Container(str(c.getName()), c.hasResources() ? resources(c.getResources()) : null,
                list(c.getPortsList(), p -> new Kube.ContainerPort(
                        p.hasContainerPort() ? p.getContainerPort() : null, p.hasHostPort() ? p.getHostPort() : null,
                        str(p.getProtocol()), str(p.getHostIp()))),
                c.hasRestartPolicy() ? c.getRestartPolicy() : null);
    }

    private static Kube.Resources resources(dev.muster.grpc.v1.ResourceRequirements r) {
        return new Kube.Resources(quantities(r.getRequestsMap()), quantities(r.getLimitsMap()));
    }

    private static Kube.Toleration toleration(dev.muster.grpc.v1.Toleration t) {
        return new Kube.Toleration(str(t.getKey()), str(t.getOperator()), str(t.getValue()), str(t.getEffect()),
                t.hasTolerationSeconds() ? t.getTolerationSeconds() : null);
    }

    private static Kube.TopologySpreadConstraint spread(dev.muster.grpc.v1.TopologySpreadConstraint c) {
        return new Kube.TopologySpreadConstraint(c.hasMaxSkew() ? c.getMaxSkew() : null, str(c.getTopologyKey()),
                str(c.getWhenUnsatisfiable()), c.hasLabelSelector() ? labelSelector(c.getLabelSelector()) : null,
                c.hasMinDomains() ? c.getMinDomains() : null,
                c.hasNodeAffinityPolicy() ? c.getNodeAffinityPolicy() : null,
                c.hasNodeTaintsPolicy() ? c.getNodeTaintsPolicy() : null, strings(c.getMatchLabelKeysList()));
    }

    private static Kube.ClaimRef claimRef(dev.muster.grpc.v1.PodResourceClaim c) {
        return new Kube.ClaimRef(str(c.getName()), str(c.getResourceClaimName()),
                str(c.getResourceClaimTemplateName()));
    }

    private static Kube.ClaimStatus claimStatus(dev.muster.grpc.v1.PodResourceClaimStatus c) {
        return new Kube.ClaimStatus(str(c.getName()), str(c.getResourceClaimName()));
    }

    private static Kube.ExtendedClaimStatus extendedClaim(dev.muster.grpc.v1.PodExtendedResourceClaimStatus e) {
        return new Kube.ExtendedClaimStatus(list(e.getRequestMappingsList(), m -> new Kube.ExtendedRequestMapping(
                str(m.getContainerName()), str(m.getResourceName()), str(m.getRequestName()))),
                str(e.getResourceClaimName()));
    }

    private static Kube.Affinity affinity(dev.muster.grpc.v1.Affinity a) {
        Kube.NodeAffinity na = null;
        if (a.hasNodeAffinity()) {
            var n = a.getNodeAffinity();
            Kube.NodeSelector required = n.hasRequiredDuringSchedulingIgnoredDuringExecution()
                    ? nodeSelector(n.getRequiredDuringSchedulingIgnoredDuringExecution()) : null;
            na = new Kube.NodeAffinity(required, list(n.getPreferredDuringSchedulingIgnoredDuringExecutionList(),
                    t -> new Kube.PreferredSchedulingTerm(t.hasWeight() ? t.getWeight() : null,
                            t.hasPreference() ? nodeSelectorTerm(t.getPreference()) : null)));
        }
        return new Kube.Affinity(na, a.hasPodAffinity() ? podAffinity(a.getPodAffinity()) : null,
                a.hasPodAntiAffinity() ? podAffinity(a.getPodAntiAffinity()) : null);
    }

    static Kube.NodeSelector nodeSelector(dev.muster.grpc.v1.NodeSelector s) {
        return new Kube.NodeSelector(list(s.getNodeSelectorTermsList(), GrpcRequestMapper::nodeSelectorTerm));
    }

    private static Kube.NodeSelectorTerm nodeSelectorTerm(dev.muster.grpc.v1.NodeSelectorTerm t) {
        return new Kube.NodeSelectorTerm(list(t.getMatchExpressionsList(), GrpcRequestMapper::nodeRequirement),
                list(t.getMatchFieldsList(), GrpcRequestMapper::nodeRequirement));
    }

    private static Kube.Requirement nodeRequirement(dev.muster.grpc.v1.NodeSelectorRequirement r) {
        return new Kube.Requirement(str(r.getKey()), str(r.getOperator()), strings(r.getValuesList()));
    }

    private static Kube.PodAffinity podAffinity(dev.muster.grpc.v1.PodAffinity a) {
        return new Kube.PodAffinity(
                list(a.getRequiredDuringSchedulingIgnoredDuringExecutionList(), GrpcRequestMapper::podAffinityTerm),
                list(a.getPreferredDuringSchedulingIgnoredDuringExecutionList(),
                        w -> new Kube.WeightedPodAffinityTerm(w.hasWeight() ? w.getWeight() : null,
                                w.hasPodAffinityTerm() ? podAffinityTerm(w.getPodAffinityTerm()) : null)));
    }

    private static Kube.PodAffinityTerm podAffinityTerm(dev.muster.grpc.v1.PodAffinityTerm t) {
        return new Kube.PodAffinityTerm(t.hasLabelSelector() ? labelSelector(t.getLabelSelector()) : null,
                strings(t.getNamespacesList()),
                t.hasNamespaceSelector() ? labelSelector(t.getNamespaceSelector()) : null, str(t.getTopologyKey()),
                strings(t.getMatchLabelKeysList()), strings(t.getMismatchLabelKeysList()));
    }

    // ---------------------------------------------------------------- PodGroup, Workload

    static Kube.PodGroup podGroup(dev.muster.grpc.v1.PodGroup g) {
        try {
            return podGroupAt(g);
        } catch (GrpcFieldException e) {
            throw e.at("spec");
        }
    }

    private static Kube.PodGroup podGroupAt(dev.muster.grpc.v1.PodGroup g) {
        Kube.PodGroupSpec spec = null;
        if (g.hasSpec()) {
            var s = g.getSpec();
            Kube.PodGroupTemplateRef ref = null;
            if (s.hasPodGroupTemplateRef()) {
                var t = s.getPodGroupTemplateRef();
                ref = new Kube.PodGroupTemplateRef(t.hasWorkload()
                        ? new Kube.WorkloadTemplateRef(str(t.getWorkload().getWorkloadName()),
                        str(t.getWorkload().getPodGroupTemplateName()))
                        : null);
            }
            spec = GrpcGangMapper.podGroupSpec(s, ref, s.hasSchedulingPolicy() ? policy(s.getSchedulingPolicy()) : null,
                    s.hasSchedulingConstraints() ? constraints(s.getSchedulingConstraints()) : null,
                    list(s.getResourceClaimsList(), GrpcRequestMapper::claimRef));
        }
        Kube.PodGroupStatus status = null;
        if (g.hasStatus()) {
            status = new Kube.PodGroupStatus(list(g.getStatus().getConditionsList(), c -> new Kube.Condition(
                    str(c.getType()), str(c.getStatus()), str(c.getReason()), str(c.getMessage()),
                    c.hasObservedGeneration() ? c.getObservedGeneration() : null, str(c.getLastTransitionTime()))),
                    list(g.getStatus().getResourceClaimStatusesList(), GrpcRequestMapper::claimStatus));
        }
        return new Kube.PodGroup(g.hasApiVersion() ? g.getApiVersion() : null, g.hasKind() ? g.getKind() : null,
                g.hasMetadata() ? meta(g.getMetadata()) : null, spec, status);
    }

    static Kube.SchedulingPolicy policy(dev.muster.grpc.v1.SchedulingPolicy p) {
        return new Kube.SchedulingPolicy(p.hasBasic() ? new Kube.BasicPolicy() : null,
                p.hasGang() ? new Kube.GangPolicy(p.getGang().hasMinCount() ? p.getGang().getMinCount() : null) : null);
    }

    static Kube.SchedulingConstraints constraints(dev.muster.grpc.v1.SchedulingConstraints c) {
        return new Kube.SchedulingConstraints(list(c.getTopologyList(), t -> new Kube.TopologyConstraint(str(t.getKey()))));
    }

    static Kube.Workload workload(dev.muster.grpc.v1.Workload w) {
        Kube.WorkloadSpec spec = null;
        if (w.hasSpec()) {
            var s = w.getSpec();
            Kube.TypedLocalObjectReference ref = null;
            if (s.hasControllerRef()) {
                var c = s.getControllerRef();
                ref = new Kube.TypedLocalObjectReference(str(c.getApiGroup()), str(c.getKind()), str(c.getName()));
            }
            spec = GrpcGangMapper.workloadSpec(s, ref, listAt(s.getPodGroupTemplatesList(), "spec.podGroupTemplates",
                    t -> new Kube.PodGroupTemplate(
                    str(t.getName()), t.hasSchedulingPolicy() ? policy(t.getSchedulingPolicy()) : null,
                    t.hasSchedulingConstraints() ? constraints(t.getSchedulingConstraints()) : null,
                    list(t.getResourceClaimsList(), GrpcRequestMapper::claimRef),
                    GrpcGangMapper.disruptionMode(t.hasDisruptionMode(), t.getDisruptionMode(),
                            t.hasDisruptionModeValue(), t.getDisruptionModeValue()), str(t.getPriorityClassName()),
                    t.hasPriority() ? t.getPriority() : null, null)));
        }
        return new Kube.Workload(w.hasApiVersion() ? w.getApiVersion() : null, w.hasKind() ? w.getKind() : null,
                w.hasMetadata() ? meta(w.getMetadata()) : null, spec);
    }

    // ---------------------------------------------------------------- PriorityClass, PDB

    static Kube.PriorityClass priorityClass(dev.muster.grpc.v1.PriorityClass pc) {
        return new Kube.PriorityClass(pc.hasApiVersion() ? pc.getApiVersion() : null,
                pc.hasKind() ? pc.getKind() : null, pc.hasMetadata() ? meta(pc.getMetadata()) : null,
                pc.hasValue() ? pc.getValue() : null, pc.hasGlobalDefault() ? pc.getGlobalDefault() : null,
                pc.hasPreemptionPolicy() ? pc.getPreemptionPolicy() : null);
    }

    static Kube.PodDisruptionBudget pdb(dev.muster.grpc.v1.PodDisruptionBudget b) {
        Kube.PdbSpec spec = null;
        if (b.hasSpec()) {
            spec = new Kube.PdbSpec(b.getSpec().hasSelector() ? labelSelector(b.getSpec().getSelector()) : null);
        }
        Kube.PdbStatus status = null;
        if (b.hasStatus()) {
            status = new Kube.PdbStatus(b.getStatus().hasDisruptionsAllowed() ? b.getStatus().getDisruptionsAllowed() : null);
        }
        return new Kube.PodDisruptionBudget(b.hasApiVersion() ? b.getApiVersion() : null,
                b.hasKind() ? b.getKind() : null, b.hasMetadata() ? meta(b.getMetadata()) : null, spec, status);
    }

    // ---------------------------------------------------------------- resource.k8s.io: DeviceClass
}
