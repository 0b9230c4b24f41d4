package dev.muster.adapter.grpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Value;
import dev.muster.adapter.kube.Kube;
import dev.muster.adapter.kube.KubeDra;
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
        return new RequestDocument(snapshot, groups, options);
    }

    static RequestDocument.Snapshot snapshot(dev.muster.grpc.v1.Snapshot s) {
        return new RequestDocument.Snapshot(
                list(s.getNodesList(), GrpcRequestMapper::node),
                list(s.getPodsList(), GrpcRequestMapper::pod),
                list(s.getPodGroupsList(), GrpcRequestMapper::podGroup),
                list(s.getWorkloadsList(), GrpcRequestMapper::workload),
                list(s.getPriorityClassesList(), GrpcRequestMapper::priorityClass),
                list(s.getPodDisruptionBudgetsList(), GrpcRequestMapper::pdb),
                list(s.getDeviceClassesList(), GrpcRequestMapper::deviceClass),
                list(s.getResourceSlicesList(), GrpcRequestMapper::resourceSlice),
                list(s.getResourceClaimsList(), GrpcRequestMapper::resourceClaim),
                list(s.getResourceClaimTemplatesList(), GrpcRequestMapper::resourceClaimTemplate),
                list(s.getJobsList(), GrpcGangMapper::job),
                list(s.getCompositePodGroupsList(), GrpcGangMapper::composite),
                list(s.getHyperNodesList(), GrpcGangMapper::hyperNode));
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

    private static List<String> strings(List<String> in) {
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
        return new Kube.Node(n.hasMetadata() ? meta(n.getMetadata()) : null, spec, status);
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
        return new Kube.Pod(p.hasMetadata() ? meta(p.getMetadata()) : null, p.hasSpec() ? podSpec(p.getSpec()) : null,
                status);
    }

    private static Kube.PodSpec podSpec(dev.muster.grpc.v1.PodSpec s) {
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
            spec = GrpcGangMapper.workloadSpec(s, ref, list(s.getPodGroupTemplatesList(), t -> new Kube.PodGroupTemplate(
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
        return new Kube.PriorityClass(pc.hasMetadata() ? meta(pc.getMetadata()) : null,
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
        return new Kube.PodDisruptionBudget(b.hasMetadata() ? meta(b.getMetadata()) : null, spec, status);
    }

    // ---------------------------------------------------------------- resource.k8s.io: DeviceClass

    static KubeDra.DeviceClass deviceClass(dev.muster.grpc.v1.DeviceClass d) {
        KubeDra.DeviceClassSpec spec = null;
        if (d.hasSpec()) {
            spec = new KubeDra.DeviceClassSpec(list(d.getSpec().getSelectorsList(), GrpcRequestMapper::selector),
                    list(d.getSpec().getConfigList(), GrpcRequestMapper::config),
                    d.getSpec().hasExtendedResourceName() ? d.getSpec().getExtendedResourceName() : null);
        }
        return new KubeDra.DeviceClass(meta(d.hasMetadata(), d.getMetadata()), spec);
    }

    private static KubeDra.Selector selector(dev.muster.grpc.v1.DeviceSelector s) {
        return new KubeDra.Selector(s.hasCel() ? new KubeDra.CelSelector(str(s.getCel().getExpression())) : null);
    }

    private static KubeDra.Config config(dev.muster.grpc.v1.DeviceConfiguration c) {
        return new KubeDra.Config(strings(c.getRequestsList()), c.hasOpaque() ? opaque(c.getOpaque()) : null);
    }

    private static KubeDra.Opaque opaque(dev.muster.grpc.v1.OpaqueDeviceConfiguration o) {
        return new KubeDra.Opaque(str(o.getDriver()), o.hasParameters() ? json(o.getParameters()) : null);
    }

    /**
     * A {@code google.protobuf.Value} as the JSON tree Jackson reads for the same JSON: integral numbers become int
     * (or long) nodes as Jackson reads them, so the parameters reach the driver as the same text.
     */
    static JsonNode json(Value v) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        switch (v.getKindCase()) {
            case NULL_VALUE:
            case KIND_NOT_SET:
                return f.nullNode();
            case BOOL_VALUE:
                return f.booleanNode(v.getBoolValue());
            case STRING_VALUE:
                return f.textNode(v.getStringValue());
            case NUMBER_VALUE: {
                double d = v.getNumberValue();
                if (d == Math.rint(d) && !Double.isInfinite(d) && Math.abs(d) < 0x1p53) {
                    long l = (long) d;
                    return l == (int) l ? f.numberNode((int) l) : f.numberNode(l);
                }
                return f.numberNode(d);
            }
            case LIST_VALUE: {
                ArrayNode a = f.arrayNode(v.getListValue().getValuesCount());
                for (Value e : v.getListValue().getValuesList()) {
                    a.add(json(e));
                }
                return a;
            }
            case STRUCT_VALUE: {
                ObjectNode o = f.objectNode();
                for (Map.Entry<String, Value> e : v.getStructValue().getFieldsMap().entrySet()) {
                    o.set(e.getKey(), json(e.getValue()));
                }
                return o;
            }
            default:
                throw new IllegalStateException("unknown Value kind " + v.getKindCase());
        }
    }

    // ---------------------------------------------------------------- resource.k8s.io: ResourceSlice

    static KubeDra.ResourceSlice resourceSlice(dev.muster.grpc.v1.ResourceSlice r) {
        KubeDra.ResourceSliceSpec spec = null;
        if (r.hasSpec()) {
            var s = r.getSpec();
            KubeDra.Pool pool = null;
            if (s.hasPool()) {
                var p = s.getPool();
                pool = new KubeDra.Pool(str(p.getName()), p.hasGeneration() ? p.getGeneration() : null,
                        p.hasResourceSliceCount() ? p.getResourceSliceCount() : null);
            }
            spec = new KubeDra.ResourceSliceSpec(str(s.getDriver()), pool, str(s.getNodeName()),
                    s.hasNodeSelector() ? nodeSelector(s.getNodeSelector()) : null,
                    s.hasAllNodes() ? s.getAllNodes() : null,
                    s.hasPerDeviceNodeSelection() ? s.getPerDeviceNodeSelection() : null,
                    list(s.getDevicesList(), GrpcRequestMapper::device),
                    list(s.getSharedCountersList(), c -> new KubeDra.CounterSet(str(c.getName()),
                            counters(c.getCountersMap()))));
        }
        return new KubeDra.ResourceSlice(meta(r.hasMetadata(), r.getMetadata()), spec);
    }

    private static KubeDra.Device device(dev.muster.grpc.v1.Device d) {
        return new KubeDra.Device(str(d.getName()), attributes(d.getAttributesMap()), capacities(d.getCapacityMap()),
                list(d.getConsumesCountersList(), c -> new KubeDra.CounterConsumption(str(c.getCounterSet()),
                        counters(c.getCountersMap()))),
                list(d.getTaintsList(), t -> new KubeDra.Taint(str(t.getKey()), str(t.getValue()), str(t.getEffect()))),
                d.hasAllowMultipleAllocations() ? d.getAllowMultipleAllocations() : null,
                d.hasBindsToNode() ? d.getBindsToNode() : null, strings(d.getBindingConditionsList()),
                strings(d.getBindingFailureConditionsList()), str(d.getNodeName()),
                d.hasNodeSelector() ? nodeSelector(d.getNodeSelector()) : null,
                d.hasAllNodes() ? d.getAllNodes() : null);
    }

    private static Map<String, KubeDra.Attribute> attributes(Map<String, dev.muster.grpc.v1.DeviceAttribute> in) {
        if (in.isEmpty()) {
            return null;
        }
        Map<String, KubeDra.Attribute> out = new HashMap<>(in.size() * 2);
        for (Map.Entry<String, dev.muster.grpc.v1.DeviceAttribute> e : in.entrySet()) {
            var a = e.getValue();
            out.put(e.getKey(), new KubeDra.Attribute(a.hasIntValue() ? a.getIntValue() : null,
                    a.hasBoolValue() ? a.getBoolValue() : null, a.hasStringValue() ? a.getStringValue() : null,
                    a.hasVersionValue() ? a.getVersionValue() : null));
        }
        return out;
    }

    private static Map<String, KubeDra.Capacity> capacities(Map<String, dev.muster.grpc.v1.DeviceCapacity> in) {
        if (in.isEmpty()) {
            return null;
        }
        Map<String, KubeDra.Capacity> out = new HashMap<>(in.size() * 2);
        for (Map.Entry<String, dev.muster.grpc.v1.DeviceCapacity> e : in.entrySet()) {
            var c = e.getValue();
            KubeDra.RequestPolicy policy = null;
            if (c.hasRequestPolicy()) {
                var p = c.getRequestPolicy();
                KubeDra.ValidRange range = null;
                if (p.hasValidRange()) {
                    var r = p.getValidRange();
                    range = new KubeDra.ValidRange(qty(r.getMin()), qty(r.getMax()), qty(r.getStep()));
                }
                policy = new KubeDra.RequestPolicy(qty(p.getDefaultValue()),
                        list(p.getValidValuesList(), Qty::of), range);
            }
            out.put(e.getKey(), new KubeDra.Capacity(qty(c.getValue()), policy));
        }
        return out;
    }

    private static Map<String, KubeDra.Counter> counters(Map<String, dev.muster.grpc.v1.Counter> in) {
        if (in.isEmpty()) {
            return null;
        }
        Map<String, KubeDra.Counter> out = new HashMap<>(in.size() * 2);
        for (Map.Entry<String, dev.muster.grpc.v1.Counter> e : in.entrySet()) {
            out.put(e.getKey(), new KubeDra.Counter(qty(e.getValue().getValue())));
        }
        return out;
    }

    /** A quantity string: "" is absent, as for any plain string. */
    private static Qty qty(String s) {
        return s.isEmpty() ? null : Qty.of(s);
    }

    // ---------------------------------------------------------------- resource.k8s.io: ResourceClaim, template

    static KubeDra.ResourceClaim resourceClaim(dev.muster.grpc.v1.ResourceClaim c) {
        KubeDra.ClaimStatus status = null;
        if (c.hasStatus()) {
            var s = c.getStatus();
            status = new KubeDra.ClaimStatus(s.hasAllocation() ? allocation(s.getAllocation()) : null,
                    list(s.getReservedForList(), r -> new KubeDra.Consumer(str(r.getApiGroup()), str(r.getResource()),
                            str(r.getName()), str(r.getUid()))));
        }
        return new KubeDra.ResourceClaim(meta(c.hasMetadata(), c.getMetadata()),
                c.hasSpec() ? claimSpec(c.getSpec()) : null, status);
    }

    static KubeDra.ResourceClaimTemplate resourceClaimTemplate(dev.muster.grpc.v1.ResourceClaimTemplate t) {
        KubeDra.TemplateSpec spec = null;
        if (t.hasSpec()) {
            spec = new KubeDra.TemplateSpec(t.getSpec().hasSpec() ? claimSpec(t.getSpec().getSpec()) : null);
        }
        return new KubeDra.ResourceClaimTemplate(meta(t.hasMetadata(), t.getMetadata()), spec);
    }

    private static KubeDra.ClaimSpec claimSpec(dev.muster.grpc.v1.ResourceClaimSpec s) {
        KubeDra.DeviceClaim devices = null;
        if (s.hasDevices()) {
            var d = s.getDevices();
            devices = new KubeDra.DeviceClaim(list(d.getRequestsList(), GrpcRequestMapper::request),
                    list(d.getConstraintsList(), c -> new KubeDra.Constraint(strings(c.getRequestsList()),
                            str(c.getMatchAttribute()), str(c.getDistinctAttribute()))),
                    list(d.getConfigList(), GrpcRequestMapper::config));
        }
        return new KubeDra.ClaimSpec(devices);
    }

    private static KubeDra.Request request(dev.muster.grpc.v1.DeviceRequest r) {
        KubeDra.ExactRequest exactly = null;
        if (r.hasExactly()) {
            var e = r.getExactly();
            exactly = new KubeDra.ExactRequest(str(e.getDeviceClassName()),
                    list(e.getSelectorsList(), GrpcRequestMapper::selector), str(e.getAllocationMode()),
                    e.hasCount() ? e.getCount() : null, e.hasAdminAccess() ? e.getAdminAccess() : null,
                    list(e.getTolerationsList(), GrpcRequestMapper::deviceToleration),
                    e.hasCapacity() ? capacityRequirements(e.getCapacity()) : null);
        }
        return new KubeDra.Request(str(r.getName()), exactly, list(r.getFirstAvailableList(),
                s -> new KubeDra.SubRequest(str(s.getName()), str(s.getDeviceClassName()),
                        list(s.getSelectorsList(), GrpcRequestMapper::selector), str(s.getAllocationMode()),
                        s.hasCount() ? s.getCount() : null,
                        list(s.getTolerationsList(), GrpcRequestMapper::deviceToleration),
                        s.hasCapacity() ? capacityRequirements(s.getCapacity()) : null)));
    }

    private static KubeDra.CapacityRequirements capacityRequirements(dev.muster.grpc.v1.CapacityRequirements c) {
        return new KubeDra.CapacityRequirements(quantities(c.getRequestsMap()));
    }

    private static KubeDra.Toleration deviceToleration(dev.muster.grpc.v1.DeviceToleration t) {
        return new KubeDra.Toleration(str(t.getKey()), str(t.getOperator()), str(t.getValue()), str(t.getEffect()),
                t.hasTolerationSeconds() ? t.getTolerationSeconds() : null);
    }

    private static KubeDra.Allocation allocation(dev.muster.grpc.v1.AllocationResult a) {
        KubeDra.DeviceAllocation devices = null;
        if (a.hasDevices()) {
            var d = a.getDevices();
            devices = new KubeDra.DeviceAllocation(list(d.getResultsList(), r -> new KubeDra.Result(
                    str(r.getRequest()), str(r.getDriver()), str(r.getPool()), str(r.getDevice()),
                    r.hasAdminAccess() ? r.getAdminAccess() : null,
                    list(r.getTolerationsList(), GrpcRequestMapper::deviceToleration), str(r.getShareId()),
                    quantities(r.getConsumedCapacityMap()))),
                    list(d.getConfigList(), c -> new KubeDra.AllocationConfig(str(c.getSource()),
                            strings(c.getRequestsList()), c.hasOpaque() ? opaque(c.getOpaque()) : null)));
        }
        return new KubeDra.Allocation(devices, a.hasNodeSelector() ? nodeSelector(a.getNodeSelector()) : null);
    }
}
