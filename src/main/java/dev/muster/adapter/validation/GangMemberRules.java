package dev.muster.adapter.validation;

import dev.muster.adapter.kube.GangShape;
import dev.muster.adapter.kube.Kube;
import dev.muster.adapter.kube.RequestDocument;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static dev.muster.adapter.validation.FieldRules.longName;
import static dev.muster.adapter.validation.FieldRules.shortName;

/**
 * How pods join gangs, and {@code snapshot.jobs}. A pod joins one group in one way: {@code spec.schedulingGroup}
 * (scheduling.k8s.io PodGroups), {@code spec.workloadRef} (1.35 Workloads), Volcano's annotation or coscheduling's
 * label; naming groups in two of these ways is {@code FieldValueForbidden} on the second, and a way that does not fit
 * the shape of the PodGroup it names is {@code FieldValueInvalid}. Two shapes can never name the same group: they
 * share {@code snapshot.podGroups}, whose names are unique per namespace.
 */
final class GangMemberRules implements ObjectFamily {
    private static final String SCHEDULING_GROUP = ".spec.schedulingGroup.podGroupName";
    private static final String WORKLOAD_REF = ".spec.workloadRef";
    private static final String VOLCANO = ".metadata.annotations[" + GangShape.VOLCANO_GROUP_ANNOTATION + "]";
    private static final String COSCHEDULING = ".metadata.labels[" + GangShape.COSCHEDULING_GROUP_LABEL + "]";
    private static final ObjectLists.Kind<Kube.Job> JOBS =
            new ObjectLists.Kind<>(".jobs", "must be a Job object", true, Kube.Job::metadata);
    /** The Jobs of a derivation request, at the root of its body. */
    private static final ObjectLists.Kind<Kube.Job> ROOT_JOBS =
            new ObjectLists.Kind<>("jobs", "must be a Job object", true, Kube.Job::metadata);

    @Override
    public void validate(RequestDocument.Snapshot s, ValidationLimits limits, FieldPath p, Causes c) {
        ObjectLists.check(JOBS, s.jobs(), limits.maxObjects(), p, GangMemberRules::job, c);
        if (s.pods() == null || s.pods().size() > limits.maxPods()) {
            return;
        }
        Map<String, GangShape> shapes = shapes(s.podGroups());
        p.field(".pods");
        for (int i = 0; i < s.pods().size(); i++) {
            Kube.Pod pod = s.pods().get(i);
            if (pod == null || pod.metadata() == null) {
                continue;
            }
            p.index(i);
            pod(pod, shapes, p, c);
            p.pop();
        }
        p.pop();
    }

    private static Map<String, GangShape> shapes(List<Kube.PodGroup> groups) {
        Map<String, GangShape> out = new HashMap<>();
        if (groups != null) {
            for (Kube.PodGroup g : groups) {
                if (g != null && g.metadata() != null && g.metadata().name() != null) {
                    GangShape shape = GangShape.ofPodGroup(g);
                    if (shape != null) {
                        out.put(g.metadata().namespaceOrDefault() + "/" + g.metadata().name(), shape);
                    }
                }
            }
        }
        return out;
    }

    /** {@code p} is the pod's path. */
    private static void pod(Kube.Pod pod, Map<String, GangShape> shapes, FieldPath p, Causes c) {
        Kube.ObjectMeta m = pod.metadata();
        Kube.PodSpec spec = pod.spec();
        String first = null;
        if (spec != null && spec.schedulingGroup() != null && spec.schedulingGroup().podGroupName() != null
                && !spec.schedulingGroup().podGroupName().isEmpty()) {
            first = SCHEDULING_GROUP;
            String name = spec.schedulingGroup().podGroupName();
            GangShape shape = shapes.get(m.namespaceOrDefault() + "/" + name);
            if (shape != null && shape.isThirdParty()) {
                c.invalid(p.at(SCHEDULING_GROUP), name, "names a " + shape.apiVersion() + " PodGroup, whose members "
                        + "join through " + (shape == GangShape.VOLCANO ? "annotation "
                        + GangShape.VOLCANO_GROUP_ANNOTATION : "label " + GangShape.COSCHEDULING_GROUP_LABEL));
            }
        }
        if (spec != null && spec.workloadRef() != null) {
            first = second(first, WORKLOAD_REF, p, c);
            Kube.PodWorkloadRef w = spec.workloadRef();
            longName(w.name(), p, WORKLOAD_REF + ".name", true, c);
            shortName(w.podGroup(), p, WORKLOAD_REF + ".podGroup", true, c);
            shortName(w.podGroupReplicaKey(), p, WORKLOAD_REF + ".podGroupReplicaKey", false, c);
        }
        String volcano = m.annotations() == null ? null : m.annotations().get(GangShape.VOLCANO_GROUP_ANNOTATION);
        if (volcano != null && !volcano.isEmpty()) {
            first = second(first, VOLCANO, p, c);
            shapeOf(volcano, GangShape.VOLCANO, VOLCANO, m, shapes, p, c);
        }
        String cosched = m.labels() == null ? null : m.labels().get(GangShape.COSCHEDULING_GROUP_LABEL);
        if (cosched != null && !cosched.isEmpty()) {
            second(first, COSCHEDULING, p, c);
            shapeOf(cosched, GangShape.COSCHEDULING, COSCHEDULING, m, shapes, p, c);
        }
    }

    private static String second(String first, String way, FieldPath p, Causes c) {
        if (first != null) {
            c.forbidden(p.at(way), "the pod already names its group through " + first.substring(1)
                    + "; a pod joins one group in one way");
            return first;
        }
        return way;
    }

    /** A Volcano or coscheduling member must name a PodGroup of that shape (or one not in the snapshot). */
    private static void shapeOf(String name, GangShape expected, String way, Kube.ObjectMeta m,
                                Map<String, GangShape> shapes, FieldPath p, Causes c) {
        GangShape shape = shapes.get(m.namespaceOrDefault() + "/" + name);
        if (shape != null && shape != expected) {
            c.invalid(p.at(way), name, "names a " + shape.apiVersion() + " PodGroup; this way joins "
                    + expected.apiVersion() + " PodGroups only");
        }
    }

    /** The Jobs of a derivation request: {@code p + "jobs"} is the list's path. */
    static void jobs(List<Kube.Job> jobs, ValidationLimits limits, FieldPath p, Causes c) {
        ObjectLists.check(ROOT_JOBS, jobs, limits.maxObjects(), p, GangMemberRules::job, c);
    }

    /** {@code p} is the Job's path. */
    private static void job(Kube.Job j, FieldPath p, Causes c) {
        if (j.apiVersion() != null && !j.apiVersion().isEmpty() && !"batch/v1".equals(j.apiVersion())) {
            c.notSupported(p.at(".apiVersion"), j.apiVersion(), List.of("batch/v1"));
        }
        Kube.JobSpec s = j.spec();
        if (s == null) {
            c.required(p.at(".spec"), "a Job needs a spec");
            return;
        }
        if (s.parallelism() != null && s.parallelism() < 0) {
            c.invalid(p.at(".spec.parallelism"), s.parallelism(), "must be greater than or equal to 0");
        }
        if (s.completions() != null && s.completions() < 0) {
            c.invalid(p.at(".spec.completions"), s.completions(), "must be greater than or equal to 0");
        }
        FieldRules.enumOptional(s.completionMode(), p, ".spec.completionMode", List.of("NonIndexed", "Indexed"), c);
        if (s.template() != null && s.template().spec() != null && s.template().spec().schedulingGroup() != null) {
            longName(s.template().spec().schedulingGroup().podGroupName(), p,
                    ".spec.template.spec.schedulingGroup.podGroupName", true, c);
        }
    }
}
