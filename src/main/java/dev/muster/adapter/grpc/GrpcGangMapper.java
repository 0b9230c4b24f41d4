package dev.muster.adapter.grpc;

import dev.muster.adapter.kube.Kube;

import java.util.List;
import java.util.Map;

/**
 * The gRPC messages of the gang shapes beyond v1alpha2 (see the README's gang API table) into the same records the
 * REST decoder produces: the 1.37, Volcano and coscheduling PodGroup fields, v1alpha1 Workloads' embedded pod groups,
 * pods' 1.35 {@code workloadRef} and batch/v1 Jobs. The v1beta1 struct form of {@code disruptionMode} has no gRPC
 * field: {@code disruption_mode} carries the v1alpha2 string.
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
                s.hasDisruptionMode() ? Kube.DisruptionMode.of(s.getDisruptionMode()) : null,
                GrpcRequestMapper.str(s.getPriorityClassName()), s.hasPriority() ? s.getPriority() : null, workloadRef,
                s.hasPreemptionPolicy() ? s.getPreemptionPolicy() : null,
                s.hasParentCompositePodGroupName() ? s.getParentCompositePodGroupName() : null,
                s.hasMinMember() ? s.getMinMember() : null,
                s.getMinResourcesMap().isEmpty() ? null : GrpcRequestMapper.quantities(s.getMinResourcesMap()),
                minTaskMember, s.hasQueue() ? s.getQueue() : null);
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
            if (s.hasTemplate() && s.getTemplate().hasSpec()) {
                dev.muster.grpc.v1.JobPodSpec ps = s.getTemplate().getSpec();
                template = new Kube.JobTemplate(null, new Kube.JobPodSpec(ps.hasSchedulingGroup()
                        ? new Kube.SchedulingGroup(GrpcRequestMapper.str(ps.getSchedulingGroup().getPodGroupName()))
                        : null));
            }
            spec = new Kube.JobSpec(s.hasParallelism() ? s.getParallelism() : null,
                    s.hasCompletions() ? s.getCompletions() : null,
                    s.hasCompletionMode() ? s.getCompletionMode() : null, null, template);
        }
        return new Kube.Job(j.hasApiVersion() ? j.getApiVersion() : null, j.hasKind() ? j.getKind() : null,
                j.hasMetadata() ? GrpcRequestMapper.meta(j.getMetadata()) : null, spec, null);
    }
}
