package dev.muster.adapter.validation;

import dev.muster.adapter.kube.GangShape;
import dev.muster.adapter.kube.Kube;
import dev.muster.adapter.kube.RequestDocument;
import dev.muster.adapter.kube.RoleMinimums;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.muster.adapter.validation.FieldRules.PREEMPTION_POLICIES;
import static dev.muster.adapter.validation.FieldRules.claimRefs;
import static dev.muster.adapter.validation.FieldRules.enumOptional;
import static dev.muster.adapter.validation.FieldRules.labelKey;
import static dev.muster.adapter.validation.FieldRules.longName;
import static dev.muster.adapter.validation.FieldRules.pathSegment;
import static dev.muster.adapter.validation.FieldRules.quantities;
import static dev.muster.adapter.validation.FieldRules.shortName;

/**
 * {@code snapshot.podGroups} and {@code snapshot.workloads}, each object by the rules of its own {@code apiVersion}
 * ({@link GangShape}): an apiVersion no shape has is {@code FieldValueNotSupported} on that object's
 * {@code apiVersion}. A PodGroup spec and a Workload's pod group templates share their rules (scheduling policy union,
 * topology constraints, claims, disruption mode, priority); the v1beta1 shape takes its disruption mode as a struct
 * and adds a preemption policy; Volcano and coscheduling PodGroups have {@code minMember} and {@code minResources}.
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
        GangShape shape = GangShape.ofPodGroup(g);
        if (shape == null) {
            c.notSupported(p.at(".apiVersion"), g.apiVersion(), GangShape.POD_GROUP_VERSIONS);
            return;
        }
        kind(g.kind(), "PodGroup", p, c);
        Kube.PodGroupSpec s = g.spec();
        if (s == null) {
            c.required(p.at(".spec"), shape.isThirdParty() ? "a PodGroup needs a spec with minMember"
                    : "a PodGroup needs a spec with a schedulingPolicy");
            return;
        }
        // without metadata the name is already reported missing; the annotations are then simply absent
        Map<String, String> annotations = g.metadata() == null ? null : g.metadata().annotations();
        roleMinimums(shape, annotations, s, p, c);
        TopologyAnnotationRules.check(shape, annotations, s, p, c);
        p.field(".spec");
        if (shape.isThirdParty()) {
            thirdParty(shape, s, p, c);
            p.pop();
            return;
        }
        if (shape.isK8sBeta()) {
            if (s.workloadRef() != null) {
                longName(s.workloadRef().workloadName(), p, ".workloadRef.workloadName", true, c);
                shortName(s.workloadRef().templateName(), p, ".workloadRef.templateName", true, c);
            }
            enumOptional(s.preemptionPolicy(), p, ".preemptionPolicy", PREEMPTION_POLICIES, c);
            longName(s.parentCompositePodGroupName(), p, ".parentCompositePodGroupName", false, c);
        } else if (s.podGroupTemplateRef() != null) {
            Kube.WorkloadTemplateRef w = s.podGroupTemplateRef().workload();
            if (w == null) {
                c.invalid(p.at(".podGroupTemplateRef"), "", "must specify one of: `workload`");
            } else {
                longName(w.workloadName(), p, ".podGroupTemplateRef.workload.workloadName", true, c);
                shortName(w.podGroupTemplateName(), p, ".podGroupTemplateRef.workload.podGroupTemplateName", true, c);
            }
        }
        templateFields(shape, p, s.schedulingPolicy(), s.schedulingConstraints(), s.resourceClaims(),
                s.disruptionMode(), s.priorityClassName(), s.priority(), c);
        p.pop();
        if (g.status() != null && g.status().resourceClaimStatuses() != null) {
            FieldRules.claimStatuses(g.status().resourceClaimStatuses(), s.resourceClaims(),
                    p.field(".status.resourceClaimStatuses"), c);
            p.pop();
        }
    }

    /**
     * Annotation {@value RoleMinimums#ANNOTATION}: its grammar, on a gang only, and not beside Volcano's
     * {@code minTaskMember} (two sources of one rule). A role no member has, or a minimum above its members, is not
     * an error: like a minCount above the members, the gang waits for members ({@code WaitingForMembers}).
     */
    private static void roleMinimums(GangShape shape, Map<String, String> annotations, Kube.PodGroupSpec s,
                                     FieldPath p, Causes c) {
        String value = annotations == null ? null : annotations.get(RoleMinimums.ANNOTATION);
        if (value == null) {
            return;
        }
        String field = p.at(".metadata.annotations[" + RoleMinimums.ANNOTATION + "]");
        try {
            RoleMinimums.parse(value);
        } catch (RoleMinimums.Invalid e) {
            c.invalid(field, value, e.getMessage());
            return;
        }
        boolean gang = shape.isThirdParty() ? s.minMember() != null && s.minMember() >= 1
                : s.schedulingPolicy() != null && s.schedulingPolicy().gang() != null;
        if (!gang) {
            c.invalid(field, value, "per-role minimums apply to gang PodGroups only: " + (shape.isThirdParty()
                    ? "spec.minMember must be at least 1" : "spec.schedulingPolicy must be `gang`"));
        }
        if (shape == GangShape.VOLCANO && s.minTaskMember() != null && !s.minTaskMember().isEmpty()) {
            c.forbidden(field, "spec.minTaskMember already sets this Volcano PodGroup's per-role minimums; "
                    + "use one of the two");
        }
    }

    /** Volcano and coscheduling: {@code minMember} at least 0, quantities that parse, task minimums at least 0. */
    private static void thirdParty(GangShape shape, Kube.PodGroupSpec s, FieldPath p, Causes c) {
        if (s.minMember() != null && s.minMember() < 0) {
            c.invalid(p.at(".minMember"), s.minMember(), "must be greater than or equal to 0");
        }
        quantities(s.minResources(), p, ".minResources", c);
        if (shape == GangShape.VOLCANO && s.minTaskMember() != null) {
            for (Map.Entry<String, Integer> e : s.minTaskMember().entrySet()) {
                if (e.getValue() == null || e.getValue() < 0) {
                    c.invalid(p.at(".minTaskMember") + "[" + e.getKey() + "]", e.getValue(),
                            "must be greater than or equal to 0");
                }
            }
        }
        if (s.priorityClassName() != null && !s.priorityClassName().isEmpty()) {
            longName(s.priorityClassName(), p, ".priorityClassName", false, c);
        }
    }

    /** {@code p} is the Workload's path; the caller restores it. */
    private static void workload(Kube.Workload w, FieldPath p, Causes c) {
        GangShape shape = GangShape.ofWorkload(w);
        if (shape == null) {
            c.notSupported(p.at(".apiVersion"), w.apiVersion(), GangShape.WORKLOAD_VERSIONS);
            return;
        }
        kind(w.kind(), "Workload", p, c);
        Kube.WorkloadSpec s = w.spec();
        if (s == null) {
            c.required(p.at(".spec"), shape == GangShape.K8S_V1ALPHA1 ? "a Workload needs a spec with podGroups"
                    : "a Workload needs a spec with podGroupTemplates");
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
        if (shape == GangShape.K8S_V1ALPHA1) {
            embeddedGroups(s.podGroups(), p, c);
            return;
        }
        List<Kube.PodGroupTemplate> ts = s.podGroupTemplates();
        boolean composite = shape.isK8sBeta() && s.compositePodGroupTemplates() != null
                && !s.compositePodGroupTemplates().isEmpty();
        if (ts == null || ts.isEmpty()) {
            if (!composite) {
                c.required(p.at(".podGroupTemplates"), "a Workload needs at least one pod group template");
            }
            return;
        }
        if (composite) {
            c.invalid(p.at(""), "{`compositePodGroupTemplates`, `podGroupTemplates`}",
                    "must specify exactly one of: `podGroupTemplates`, `compositePodGroupTemplates`");
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
                templateFields(shape, p, tpl.schedulingPolicy(), tpl.schedulingConstraints(), tpl.resourceClaims(),
                        tpl.disruptionMode(), tpl.priorityClassName(), tpl.priority(), c);
                if (shape.isK8sBeta()) {
                    enumOptional(tpl.preemptionPolicy(), p, ".preemptionPolicy", PREEMPTION_POLICIES, c);
                }
            }
            p.pop();
        }
    }

    /** v1alpha1 {@code spec.podGroups}: 1 to 8 groups, unique DNS-label names, each a {@code policy} union. */
    private static void embeddedGroups(List<Kube.EmbeddedPodGroup> groups, FieldPath p, Causes c) {
        if (groups == null || groups.isEmpty()) {
            c.required(p.at(".podGroups"), "a Workload needs at least one pod group");
            return;
        }
        if (groups.size() > MAX_TEMPLATES) {
            c.tooMany(p.at(".podGroups"), groups.size(), MAX_TEMPLATES);
        }
        p.field(".podGroups");
        Set<String> names = new HashSet<>();
        for (int i = 0; i < groups.size(); i++) {
            Kube.EmbeddedPodGroup g = groups.get(i);
            p.index(i);
            if (g == null) {
                c.required(p.at(""), "must be a pod group");
            } else {
                if (shortName(g.name(), p, ".name", true, c) && !names.add(g.name())) {
                    c.duplicate(p.at(""), g.name());
                }
                policy(g.policy(), p, ".policy", c);
            }
            p.pop();
        }
    }

    static void kind(String kind, String expected, FieldPath p, Causes c) {
        if (kind != null && !kind.isEmpty() && !kind.equals(expected)) {
            c.notSupported(p.at(".kind"), kind, List.of(expected));
        }
    }

    /** The union {@code basic} | {@code gang{minCount}} at {@code p + field}. */
    private static void policy(Kube.SchedulingPolicy policy, FieldPath p, String field, Causes c) {
        if (policy == null) {
            c.required(p.at(field), "exactly one of `basic`, `gang` must be set");
        } else if (policy.basic() == null && policy.gang() == null) {
            c.invalid(p.at(field), "", UNION_NONE);
        } else if (policy.basic() != null && policy.gang() != null) {
            c.invalid(p.at(field), "{`basic`, `gang`}", UNION_MANY);
        } else if (policy.gang() != null) {
            Integer min = policy.gang().minCount();
            if (min == null || min == 0) {
                c.required(p.at(field + ".gang.minCount"), "");
            } else if (min < 1) {
                c.invalid(p.at(field + ".gang.minCount"), min, "must be greater than or equal to 1");
            }
        }
    }

    /** The fields a PodGroup spec and a Workload's PodGroupTemplate share, with the same rules. */
    private static void templateFields(GangShape shape, FieldPath p, Kube.SchedulingPolicy policy,
                                       Kube.SchedulingConstraints constraints, List<Kube.ClaimRef> claims,
                                       Kube.DisruptionMode disruptionMode, String priorityClassName, Integer priority,
                                       Causes c) {
        policy(policy, p, ".schedulingPolicy", c);
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
        disruptionMode(shape, disruptionMode, p, c);
        if (priorityClassName != null && !priorityClassName.isEmpty()) {
            longName(priorityClassName, p, ".priorityClassName", false, c);
        }
        if (priority != null && priority > MAX_USER_PRIORITY) {
            c.invalid(p.at(".priority"), priority, "must be less than or equal to " + MAX_USER_PRIORITY);
        }
    }

    /** A string ({@code Pod} | {@code PodGroup}) in v1alpha2, a struct ({@code single} | {@code all}) in v1beta1. */
    static void disruptionMode(GangShape shape, Kube.DisruptionMode m, FieldPath p, Causes c) {
        if (m == null) {
            return;
        }
        if (!shape.isK8sBeta()) {
            if (m.isStruct()) {
                c.invalid(p.at(".disruptionMode"), "{}", "must be a string (`Pod` or `PodGroup`) in "
                        + shape.apiVersion() + "; the struct form belongs to " + GangShape.K8S_V1BETA1.apiVersion());
            } else if (!DISRUPTION_MODES.contains(m.text())) {
                c.notSupported(p.at(".disruptionMode"), m.text(), DISRUPTION_MODES);
            }
            return;
        }
        if (!m.isStruct()) {
            c.invalid(p.at(".disruptionMode"), m.text(), "must be an object ({\"single\": {}} or {\"all\": {}}) in "
                    + shape.apiVersion());
        } else if (!m.single() && !m.all()) {
            c.invalid(p.at(".disruptionMode"), "", "must specify one of: `single`, `all`");
        } else if (m.single() && m.all()) {
            c.invalid(p.at(".disruptionMode"), "{`all`, `single`}", "must specify exactly one of: `single`, `all`");
        }
    }
}
