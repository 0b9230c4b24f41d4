package dev.muster.adapter.validation;

import dev.muster.adapter.kube.Kube;
import dev.muster.adapter.kube.RequestDocument;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static dev.muster.adapter.validation.FieldRules.claimRefs;
import static dev.muster.adapter.validation.FieldRules.labelKey;
import static dev.muster.adapter.validation.FieldRules.longName;
import static dev.muster.adapter.validation.FieldRules.pathSegment;
import static dev.muster.adapter.validation.FieldRules.shortName;

/**
 * {@code snapshot.podGroups} and {@code snapshot.workloads}: a PodGroup spec and a Workload's pod group templates
 * share their rules (scheduling policy union, topology constraints, claims, disruption mode, priority).
 */
final class PodGroupRules implements ObjectFamily {
    private static final List<String> DISRUPTION_MODES = List.of("Pod", "PodGroup");
    private static final int MAX_TEMPLATES = 8;
    private static final int MAX_CLAIMS = 4;
    private static final int MAX_TOPOLOGY = 1;
    private static final long MAX_USER_PRIORITY = 1_000_000_000L;
    private static final String UNION_NONE = "must specify one of: `basic`, `gang`";
    private static final String UNION_MANY = "must specify exactly one of: `basic`, `gang`";
    private static final ObjectLists.Kind<Kube.PodGroup> POD_GROUPS =
            new ObjectLists.Kind<>(".podGroups", "must be a PodGroup object", true, Kube.PodGroup::metadata);
    private static final ObjectLists.Kind<Kube.Workload> WORKLOADS =
            new ObjectLists.Kind<>(".workloads", "must be a Workload object", true, Kube.Workload::metadata);

    @Override
    public void validate(RequestDocument.Snapshot s, ValidationLimits limits, FieldPath p, Causes c) {
        ObjectLists.check(POD_GROUPS, s.podGroups(), limits.maxPodGroups(), p, PodGroupRules::podGroup, c);
        ObjectLists.check(WORKLOADS, s.workloads(), limits.maxObjects(), p, PodGroupRules::workload, c);
    }

    /** {@code p} is the PodGroup's path. */
    private static void podGroup(Kube.PodGroup g, FieldPath p, Causes c) {
        Kube.PodGroupSpec s = g.spec();
        if (s == null) {
            c.required(p.at(".spec"), "a PodGroup needs a spec with a schedulingPolicy");
            return;
        }
        p.field(".spec");
        if (s.podGroupTemplateRef() != null) {
            Kube.WorkloadTemplateRef w = s.podGroupTemplateRef().workload();
            if (w == null) {
                c.invalid(p.at(".podGroupTemplateRef"), "", "must specify one of: `workload`");
            } else {
                longName(w.workloadName(), p, ".podGroupTemplateRef.workload.workloadName", true, c);
                shortName(w.podGroupTemplateName(), p, ".podGroupTemplateRef.workload.podGroupTemplateName", true, c);
            }
        }
        templateFields(p, s.schedulingPolicy(), s.schedulingConstraints(), s.resourceClaims(), s.disruptionMode(),
                s.priorityClassName(), s.priority(), c);
        p.pop();
    }

    /** {@code p} is the Workload's path; the caller restores it. */
    private static void workload(Kube.Workload w, FieldPath p, Causes c) {
        Kube.WorkloadSpec s = w.spec();
        if (s == null) {
            c.required(p.at(".spec"), "a Workload needs a spec with podGroupTemplates");
            return;
        }
        p.field(".spec");
        Kube.TypedLocalObjectReference ref = s.controllerRef();
        if (ref != null) {
            if (ref.apiGroup() != null && !ref.apiGroup().isEmpty() && !Names.isDnsSubdomain(ref.apiGroup())) {
                c.invalid(p.at(".controllerRef.apiGroup"), ref.apiGroup(), Names.DNS_SUBDOMAIN_MESSAGE);
            }
            pathSegment(ref.kind(), p, ".controllerRef.kind", c);
            pathSegment(ref.name(), p, ".controllerRef.name", c);
        }
        List<Kube.PodGroupTemplate> ts = s.podGroupTemplates();
        if (ts == null || ts.isEmpty()) {
            c.required(p.at(".podGroupTemplates"), "a Workload needs at least one pod group template");
            return;
        }
        if (ts.size() > MAX_TEMPLATES) {
            c.tooMany(p.at(".podGroupTemplates"), ts.size(), MAX_TEMPLATES);
        }
        p.field(".podGroupTemplates");
        Set<String> names = new HashSet<>();
        for (int t = 0; t < ts.size(); t++) {
            Kube.PodGroupTemplate tpl = ts.get(t);
            p.index(t);
            if (tpl == null) {
                c.required(p.at(""), "must be a pod group template");
            } else {
                if (shortName(tpl.name(), p, ".name", true, c) && !names.add(tpl.name())) {
                    c.duplicate(p.at(""), tpl.name());
                }
                templateFields(p, tpl.schedulingPolicy(), tpl.schedulingConstraints(), tpl.resourceClaims(),
                        tpl.disruptionMode(), tpl.priorityClassName(), tpl.priority(), c);
            }
            p.pop();
        }
    }

    /** The fields a PodGroup spec and a Workload's PodGroupTemplate share, with the same rules. */
    private static void templateFields(FieldPath p, Kube.SchedulingPolicy policy, Kube.SchedulingConstraints constraints,
                                       List<Kube.ClaimRef> claims, String disruptionMode, String priorityClassName,
                                       Integer priority, Causes c) {
        if (policy == null) {
            c.required(p.at(".schedulingPolicy"), "exactly one of `basic`, `gang` must be set");
        } else if (policy.basic() == null && policy.gang() == null) {
            c.invalid(p.at(".schedulingPolicy"), "", UNION_NONE);
        } else if (policy.basic() != null && policy.gang() != null) {
            c.invalid(p.at(".schedulingPolicy"), "{`basic`, `gang`}", UNION_MANY);
        } else if (policy.gang() != null) {
            Integer min = policy.gang().minCount();
            if (min == null || min == 0) {
                c.required(p.at(".schedulingPolicy.gang.minCount"), "");
            } else if (min < 1) {
                c.invalid(p.at(".schedulingPolicy.gang.minCount"), min, "must be greater than or equal to 1");
            }
        }
        if (constraints != null && constraints.topology() != null) {
            List<Kube.TopologyConstraint> topo = constraints.topology();
            if (topo.size() > MAX_TOPOLOGY) {
                c.tooMany(p.at(".schedulingConstraints.topology"), topo.size(), MAX_TOPOLOGY);
            }
            p.field(".schedulingConstraints.topology");
            for (int i = 0; i < topo.size(); i++) {
                Kube.TopologyConstraint t = topo.get(i);
                labelKey(t == null ? null : t.key(), p.index(i), ".key", c);
                p.pop();
            }
            p.pop();
        }
        if (claims != null && !claims.isEmpty()) {
            claimRefs(claims, p.field(".resourceClaims"), MAX_CLAIMS, c);
            p.pop();
        }
        if (disruptionMode != null && !DISRUPTION_MODES.contains(disruptionMode)) {
            c.notSupported(p.at(".disruptionMode"), disruptionMode, DISRUPTION_MODES);
        }
        if (priorityClassName != null && !priorityClassName.isEmpty()) {
            longName(priorityClassName, p, ".priorityClassName", false, c);
        }
        if (priority != null && priority > MAX_USER_PRIORITY) {
            c.invalid(p.at(".priority"), priority, "must be less than or equal to " + MAX_USER_PRIORITY);
        }
    }
}
