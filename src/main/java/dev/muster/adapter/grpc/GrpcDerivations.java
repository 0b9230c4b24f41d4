package dev.muster.adapter.grpc;

import dev.muster.adapter.kube.JobGangs;
import dev.muster.adapter.kube.Kube;
import dev.muster.grpc.v1.DeriveRequest;
import dev.muster.grpc.v1.DeriveResponse;
import dev.muster.grpc.v1.DerivedObjectMeta;
import dev.muster.grpc.v1.DerivedPodGroup;
import dev.muster.grpc.v1.DerivedWorkload;
import dev.muster.grpc.v1.GangSchedulingPolicy;
import dev.muster.grpc.v1.ObjectRef;
import dev.muster.grpc.v1.OwnerReference;
import dev.muster.grpc.v1.PodGroupSpec;
import dev.muster.grpc.v1.PodGroupTemplate;
import dev.muster.grpc.v1.PodGroupTemplateReference;
import dev.muster.grpc.v1.SchedulingPolicy;
import dev.muster.grpc.v1.TypedLocalObjectReference;
import dev.muster.grpc.v1.WorkloadPodGroupTemplateReference;
import dev.muster.grpc.v1.WorkloadSpec;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code Derive}: the Jobs of a {@link DeriveRequest} into the records REST decodes, and each Job's
 * {@link JobGangs.Verdict} into the same Workload and PodGroup REST {@code POST /v1/derivations} answers with: names,
 * owner references (the Job, controlling and blocking owner deletion; the PodGroup also the Workload), the Workload's
 * {@code controllerRef} and one template {@code gang.minCount = parallelism}, the PodGroup's template reference.
 */
final class GrpcDerivations {
    private static final String API_VERSION = "scheduling.k8s.io/v1alpha2";

    private GrpcDerivations() {
    }

    /** The request's Jobs, as the REST decoder reads them. */
    static List<Kube.Job> jobs(DeriveRequest r) {
        List<Kube.Job> out = new ArrayList<>(r.getJobsCount());
        for (dev.muster.grpc.v1.Job j : r.getJobsList()) {
            out.add(GrpcGangMapper.job(j));
        }
        return out;
    }

    /** The derivations of validated Jobs, in order. */
    static DeriveResponse derive(List<Kube.Job> jobs) {
        DeriveResponse.Builder out = DeriveResponse.newBuilder();
        for (Kube.Job j : jobs) {
            Kube.ObjectMeta m = j.metadata();
            String ns = m.namespaceOrDefault();
            JobGangs.Verdict v = JobGangs.verdict(j);
            dev.muster.grpc.v1.Derivation.Builder d = dev.muster.grpc.v1.Derivation.newBuilder()
                    .setJob(ObjectRef.newBuilder().setNamespace(ns).setName(m.name()))
                    .setQualifies(v.qualifies()).setReason(v.reason());
            if (v.qualifies()) {
                OwnerReference.Builder job = OwnerReference.newBuilder().setApiVersion("batch/v1").setKind("Job")
                        .setName(m.name()).setController(true).setBlockOwnerDeletion(true);
                if (m.uid() != null) {
                    job.setUid(m.uid());
                }
                SchedulingPolicy policy = SchedulingPolicy.newBuilder()
                        .setGang(GangSchedulingPolicy.newBuilder().setMinCount(v.minCount())).build();
                d.setWorkload(DerivedWorkload.newBuilder().setApiVersion(API_VERSION).setKind("Workload")
                        .setMetadata(DerivedObjectMeta.newBuilder().setName(v.workloadName()).setNamespace(ns)
                                .addOwnerReferences(job))
                        .setSpec(WorkloadSpec.newBuilder()
                                .setControllerRef(TypedLocalObjectReference.newBuilder().setApiGroup("batch")
                                        .setKind("Job").setName(m.name()))
                                .addPodGroupTemplates(PodGroupTemplate.newBuilder().setName(v.templateName())
                                        .setSchedulingPolicy(policy))));
                d.setPodGroup(DerivedPodGroup.newBuilder().setApiVersion(API_VERSION).setKind("PodGroup")
                        .setMetadata(DerivedObjectMeta.newBuilder().setName(v.podGroupName()).setNamespace(ns)
                                .addOwnerReferences(job)
                                .addOwnerReferences(OwnerReference.newBuilder().setApiVersion(API_VERSION)
                                        .setKind("Workload").setName(v.workloadName())))
                        .setSpec(PodGroupSpec.newBuilder()
                                .setPodGroupTemplateRef(PodGroupTemplateReference.newBuilder().setWorkload(
                                        WorkloadPodGroupTemplateReference.newBuilder()
                                                .setWorkloadName(v.workloadName())
                                                .setPodGroupTemplateName(v.templateName())))
                                .setSchedulingPolicy(policy)));
            }
            out.addDerivations(d);
        }
        return out.build();
    }
}
