package dev.muster.adapter.grpc;

import dev.muster.adapter.kube.Kube;

import java.util.List;
import java.util.Map;

/**
 * The gRPC messages of the gang shapes beyond v1alpha2 (see docs/gang-apis.md) into the same records the
 * REST decoder produces: the 1.37, Volcano and coscheduling PodGroup fields, Volcano HyperNodes, v1alpha1 Workloads' embedded pod groups,
 * pods' 1.35 {@code workloadRef} and batch/v1 Jobs. {@code disruptionMode} comes in either Kubernetes form through
 * {@code disruption_mode_value} (a {@code google.protobuf.Value}: the v1alpha2 string or the v1beta1 struct), or as
 * the plain string of {@code disruption_mode}; the form is kept as read, and validation checks it against the
 * object's apiVersion exactly as for REST.
 */
final class GrpcGangMapper {
    private GrpcGangMapper() {
    }

    static Kube.PodGroupSpec podGroupSpec(dev.muster.grpc.v1.PodGroupSpec s, Kube.PodGroupTemplateRef ref,
                                          Kube.SchedulingPolicy policy, Kube.SchedulingConstraints constraints,
                                          List<Kube.ClaimRef> claims) {
        Kube.PodGroupWorkloadRef workloadRef = s.hasWorkloadRef()
                ? new Kube.PodGroupWorkloadRef(GrpcRequestMapper.str(s.getWorkloadRef().getWorkloadName()),
                GrpcRequestMapper.str(s.getWorkloadRef().getTemplateName()))
                : null;
        Map<String, Integer> minTaskMember = s.getMinTaskMemberMap().isEmpty() ? null : Map.copyOf(s.getMinTaskMemberMap());
        return new Kube.PodGroupSpec(ref, policy, constraints, claims,
                disruptionMode(s.hasDisruptionMode(), s.getDisruptionMode(), s.hasDisruptionModeValue(),
                        s.getDisruptionModeValue()),
                GrpcRequestMapper.str(s.getPriorityClassName()), s.hasPriority() ? s.getPriority() : null, workloadRef,
                s.hasPreemptionPolicy() ? s.getPreemptionPolicy() : null,
                s.hasParentCompositePodGroupName() ? s.getParentCompositePodGroupName() : null,
                s.hasMinMember() ? s.getMinMember() : null,
                s.getMinResourcesMap().isEmpty() ? null : GrpcRequestMapper.quantities(s.getMinResourcesMap()),
                minTaskMember, s.hasQueue() ? s.getQueue() : null,
                s.hasNetworkTopology() ? networkTopology(s.getNetworkTopology()) : null);
    }

    private static Kube.NetworkTopology networkTopology(dev.muster.grpc.v1.NetworkTopologySpec t) {
        return new Kube.NetworkTopology(t.hasMode() ? t.getMode() : null,
                t.hasHighestTierAllowed() ? t.getHighestTierAllowed() : null,
                t.hasHighestTierName() ? t.getHighestTierName() : null);
    }

    /** A Volcano HyperNode, field for field. */
    static Kube.HyperNode hyperNode(dev.muster.grpc.v1.HyperNode h) {
        Kube.HyperNodeSpec spec = null;
        if (h.hasSpec()) {
            var s = h.getSpec();
            List<Kube.HyperNodeMember> members = GrpcRequestMapper.list(s.getMembersList(), m -> {
                Kube.MemberSelector selector = null;
                if (m.hasSelector()) {
                    var x = m.getSelector();
                    selector = new Kube.MemberSelector(
                            x.hasExactMatch() ? new Kube.ExactMatch(GrpcRequestMapper.str(x.getExactMatch().getName()))
                                    : null,
                            x.hasRegexMatch() ? new Kube.RegexMatch(
                                    GrpcRequestMapper.str(x.getRegexMatch().getPattern())) : null,
                            x.hasLabelMatch() ? GrpcRequestMapper.labelSelector(x.getLabelMatch()) : null);
                }
                return new Kube.HyperNodeMember(m.hasType() ? m.getType() : null, selector);
            });
            spec = new Kube.HyperNodeSpec(s.hasTier() ? s.getTier() : null, s.hasTierName() ? s.getTierName() : null,
                    members);
        }
        return new Kube.HyperNode(h.hasApiVersion() ? h.getApiVersion() : null, h.hasKind() ? h.getKind() : null,
                h.hasMetadata() ? GrpcRequestMapper.meta(h.getMetadata()) : null, spec);
    }

    /** A v1alpha3 CompositePodGroup, field for field. */
    static Kube.CompositePodGroup composite(dev.muster.grpc.v1.CompositePodGroup c) {
        try {
            return compositeAt(c);
        } catch (GrpcFieldException e) {
            throw e.at("spec");
        }
    }

    private static Kube.CompositePodGroup compositeAt(dev.muster.grpc.v1.CompositePodGroup c) {
        Kube.CompositePodGroupSpec spec = null;
        if (c.hasSpec()) {
            var s = c.getSpec();
            Kube.CompositeSchedulingPolicy policy = null;
            if (s.hasSchedulingPolicy()) {
                var p = s.getSchedulingPolicy();
                policy = new Kube.CompositeSchedulingPolicy(p.hasBasic() ? new Kube.BasicPolicy() : null,
                        p.hasGang() ? new Kube.CompositeGangPolicy(p.getGang().getMinGroupCount()) : null);
            }
            spec = new Kube.CompositePodGroupSpec(
                    s.hasParentCompositePodGroupName() ? s.getParentCompositePodGroupName() : null,
                    s.hasWorkloadRef() ? new Kube.PodGroupWorkloadRef(
                            GrpcRequestMapper.str(s.getWorkloadRef().getWorkloadName()),
                            GrpcRequestMapper.str(s.getWorkloadRef().getTemplateName())) : null,
                    policy,
                    s.hasSchedulingConstraints() ? GrpcRequestMapper.constraints(s.getSchedulingConstraints()) : null,
                    disruptionMode(false, null, s.hasDisruptionMode(), s.getDisruptionMode()),
                    s.hasPreemptionPolicy() ? s.getPreemptionPolicy() : null,
                    GrpcRequestMapper.str(s.getPriorityClassName()), s.hasPriority() ? s.getPriority() : null);
        }
        return new Kube.CompositePodGroup(c.hasApiVersion() ? c.getApiVersion() : null,
                c.hasKind() ? c.getKind() : null, c.hasMetadata() ? GrpcRequestMapper.meta(c.getMetadata()) : null,
                spec);
    }

    /**
     * A {@code disruptionMode} from the plain string field or the {@code Value} field (null when neither is set or
     * the Value is null). A Value of another JSON type, a struct member that is not an object, or both fields set is
     * INVALID_ARGUMENT, as REST answers such a body with 400.
     */
    static Kube.DisruptionMode disruptionMode(boolean hasName, String name, boolean hasValue,
                                              com.google.protobuf.Value value) {
        if (hasValue && value.getKindCase() != com.google.protobuf.Value.KindCase.NULL_VALUE) {
            if (hasName) {
                throw new GrpcFieldException("FieldValueInvalid", "disruptionMode", "disruptionMode is set twice: "
                        + "set either disruption_mode (a string) or disruption_mode_value, not both");
            }
            switch (value.getKindCase()) {
                case STRING_VALUE:
                    return Kube.DisruptionMode.of(value.getStringValue());
                case STRUCT_VALUE: {
                    Map<String, com.google.protobuf.Value> members = value.getStructValue().getFieldsMap();
                    return new Kube.DisruptionMode(null, member(members, "single"), member(members, "all"));
                }
                default:
                    throw new GrpcFieldException("FieldValueInvalid", "disruptionMode",
                            "disruptionMode must be a string (v1alpha2) or an object (v1beta1)");
            }
        }
        return hasName ? Kube.DisruptionMode.of(name) : null;
    }

    private static boolean member(Map<String, com.google.protobuf.Value> members, String name) {
        com.google.protobuf.Value m = members.get(name);
        if (m == null || m.getKindCase() == com.google.protobuf.Value.KindCase.NULL_VALUE) {
            return false;
        }
        if (m.getKindCase() != com.google.protobuf.Value.KindCase.STRUCT_VALUE) {
            throw new GrpcFieldException("FieldValueInvalid", "disruptionMode." + name,
                    "disruptionMode." + name + " must be an object ({})");
        }
        return true;
    }

    static Kube.WorkloadSpec workloadSpec(dev.muster.grpc.v1.WorkloadSpec s, Kube.TypedLocalObjectReference ref,
                                          List<Kube.PodGroupTemplate> templates) {
        List<Kube.EmbeddedPodGroup> groups = s.getPodGroupsCount() == 0 ? null : s.getPodGroupsList().stream()
                .map(g -> new Kube.EmbeddedPodGroup(GrpcRequestMapper.str(g.getName()),
                        g.hasPolicy() ? GrpcRequestMapper.policy(g.getPolicy()) : null))
                .toList();
        return new Kube.WorkloadSpec(ref, templates, groups, null);
    }

    static Kube.PodWorkloadRef workloadRef(dev.muster.grpc.v1.PodWorkloadReference w) {
        return new Kube.PodWorkloadRef(GrpcRequestMapper.str(w.getName()), GrpcRequestMapper.str(w.getPodGroup()),
                GrpcRequestMapper.str(w.getPodGroupReplicaKey()));
    }

    static Kube.Job job(dev.muster.grpc.v1.Job j) {
        Kube.JobSpec spec = null;
        if (j.hasSpec()) {
            dev.muster.grpc.v1.JobSpec s = j.getSpec();
            Kube.JobTemplate template = null;
            if (s.hasTemplate()) {
                dev.muster.grpc.v1.JobTemplate t = s.getTemplate();
                template = new Kube.JobTemplate(t.hasMetadata() ? GrpcRequestMapper.meta(t.getMetadata()) : null,
                        t.hasSpec() ? GrpcRequestMapper.podSpec(t.getSpec()) : null);
            }
            spec = new Kube.JobSpec(s.hasParallelism() ? s.getParallelism() : null,
                    s.hasCompletions() ? s.getCompletions() : null,
                    s.hasCompletionMode() ? s.getCompletionMode() : null, s.hasSuspend() ? s.getSuspend() : null, template);
        }
        return new Kube.Job(j.hasApiVersion() ? j.getApiVersion() : null, j.hasKind() ? j.getKind() : null,
                j.hasMetadata() ? GrpcRequestMapper.meta(j.getMetadata()) : null, spec, null);
    }
}
