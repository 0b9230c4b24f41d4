package dev.muster.adapter.validation;

import dev.muster.adapter.kube.Kube;
import dev.muster.adapter.kube.RequestDocument;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static dev.muster.adapter.validation.FieldRules.PREEMPTION_POLICIES;
import static dev.muster.adapter.validation.FieldRules.TAINT_EFFECTS;
import static dev.muster.adapter.validation.FieldRules.claimRefs;
import static dev.muster.adapter.validation.FieldRules.enumOptional;
import static dev.muster.adapter.validation.FieldRules.enumRequired;
import static dev.muster.adapter.validation.FieldRules.labelSelector;
import static dev.muster.adapter.validation.FieldRules.quantities;
import static dev.muster.adapter.validation.FieldRules.requirements;

/**
 * {@code snapshot.pods}: resources, ports, affinity, tolerations, topology spread, scheduling gates, the scheduling
 * group and resource-claim references of each pod spec.
 *
 * <p>A bound pod with scheduling gates is reported as {@code FieldValueForbidden} on {@code spec.nodeName}, the API
 * server's create-time rule.
 */
final class PodRules implements ObjectFamily {
    private static final List<String> TOLERATION_OPERATORS = List.of("Equal", "Exists");
    private static final List<String> NODE_SELECTOR_OPERATORS = List.of("In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt");
    private static final List<String> WHEN_UNSATISFIABLE = List.of("DoNotSchedule", "ScheduleAnyway");
    private static final List<String> INCLUSION_POLICIES = List.of("Honor", "Ignore");
    private static final List<String> PROTOCOLS = List.of("TCP", "UDP", "SCTP");
    private static final ObjectLists.Kind<Kube.Pod> PODS =
            new ObjectLists.Kind<>(".pods", "must be a Pod object", true, Kube.Pod::metadata);

    @Override
    public void validate(RequestDocument.Snapshot s, ValidationLimits limits, FieldPath p, Causes c) {
        ObjectLists.check(PODS, s.pods(), limits.maxPods(), p, PodRules::pod, c);
    }

    /** {@code p} is the pod's path. */
    private static void pod(Kube.Pod pod, FieldPath p, Causes c) {
        if (pod.spec() != null) {
            validatePodSpec(pod.spec(), p.field(".spec"), c);
            p.pop();
        }
        if (pod.status() != null && pod.status().resourceClaimStatuses() != null) {
            List<Kube.ClaimRef> entries = pod.spec() == null ? null : pod.spec().resourceClaims();
            FieldRules.claimStatuses(pod.status().resourceClaimStatuses(), entries,
                    p.field(".status.resourceClaimStatuses"), c);
            p.pop();
        }
        if (pod.status() != null && pod.status().extendedResourceClaimStatus() != null) {
            extendedClaimStatus(pod.status().extendedResourceClaimStatus(), pod.spec(),
                    p.field(".status.extendedResourceClaimStatus"), c);
            p.pop();
        }
    }

    /**
     * {@code status.extendedResourceClaimStatus}: a claim name (a DNS subdomain) and at least one mapping, each naming
     * a container or init container of the pod, an extended resource (a name with a domain) and a request name (a
     * DNS label), no container and resource twice.
     */
    private static void extendedClaimStatus(Kube.ExtendedClaimStatus s, Kube.PodSpec spec, FieldPath p, Causes c) {
        String claim = s.resourceClaimName();
        if (claim == null || claim.isEmpty()) {
            c.required(p.at(".resourceClaimName"), "the name of the claim made for the pod's extended resources");
        } else if (!Names.isDnsSubdomain(claim)) {
            c.invalid(p.at(".resourceClaimName"), claim, Names.DNS_SUBDOMAIN_MESSAGE);
        }
        List<Kube.ExtendedRequestMapping> mappings = s.requestMappings();
        if (mappings == null || mappings.isEmpty()) {
            c.required(p.at(".requestMappings"), "at least one mapping of a container's extended resource to a request");
            return;
        }
        Set<String> containers = new HashSet<>();
        if (spec != null) {
            for (List<Kube.Container> list : java.util.Arrays.asList(spec.containers(), spec.initContainers())) {
                if (list != null) {
                    for (Kube.Container k : list) {
                        if (k != null && k.name() != null) {
                            containers.add(k.name());
                        }
                    }
                }
            }
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < mappings.size(); i++) {
            Kube.ExtendedRequestMapping m = mappings.get(i);
            String at = p.at(".requestMappings", i);
            if (m == null) {
                c.required(at, "a mapping must be an object");
                continue;
            }
            if (m.containerName() == null || m.containerName().isEmpty()) {
                c.required(at + ".containerName", "the container that requests the resource");
            } else if (!containers.contains(m.containerName())) {
                c.invalid(at + ".containerName", m.containerName(),
                        "must name a container or init container of the pod");
            }
            if (m.resourceName() == null || m.resourceName().isEmpty()) {
                c.required(at + ".resourceName", "the extended resource the container requests");
            } else if (m.resourceName().indexOf('/') <= 0 || !Names.isQualifiedName(m.resourceName())) {
                c.invalid(at + ".resourceName", m.resourceName(),
                        "must be an extended resource name with a domain, such as example.com/gpu");
            } else if (m.containerName() != null && !seen.add(m.containerName() + "\u0000" + m.resourceName())) {
                c.duplicate(at, m.containerName() + " " + m.resourceName());
            }
            if (m.requestName() == null || m.requestName().isEmpty()) {
                c.required(at + ".requestName", "the claim's request that serves the resource");
            } else if (!Names.isDnsLabel(m.requestName())) {
                c.invalid(at + ".requestName", m.requestName(), Names.DNS_LABEL_MESSAGE);
            }
        }
    }

    /** A pod template's spec (a workload Job's), {@code p} its path: the rules of a pod's spec. */
    static void templateSpec(Kube.PodSpec s, FieldPath p, Causes c) {
        validatePodSpec(s, p, c);
    }

    private static void validatePodSpec(Kube.PodSpec s, FieldPath p, Causes c) {
        containers(s.containers(), p, ".containers", c);
        containers(s.initContainers(), p, ".initContainers", c);
        quantities(s.overhead(), p, ".overhead", c);
        if (s.resources() != null) {
            quantities(s.resources().requests(), p, ".resources.requests", c);
            quantities(s.resources().limits(), p, ".resources.limits", c);
        }
        if (s.priorityClassName() != null && !s.priorityClassName().isEmpty() && !Names.isDnsSubdomain(s.priorityClassName())) {
            c.invalid(p.at(".priorityClassName"), s.priorityClassName(), Names.DNS_SUBDOMAIN_MESSAGE);
        }
        enumOptional(s.preemptionPolicy(), p, ".preemptionPolicy", PREEMPTION_POLICIES, c);
        if (s.affinity() != null) {
            affinity(s.affinity(), p.field(".affinity"), c);
            p.pop();
        }
        if (s.tolerations() != null) {
            tolerations(s.tolerations(), p.field(".tolerations"), c);
            p.pop();
        }
        if (s.topologySpreadConstraints() != null) {
            spreadConstraints(s.topologySpreadConstraints(), p.field(".topologySpreadConstraints"), c);
            p.pop();
        }
        List<Kube.SchedulingGate> gates = s.schedulingGates();
        if (gates != null && !gates.isEmpty()) {
            Set<String> names = new HashSet<>();
            for (int g = 0; g < gates.size(); g++) {
                String gate = gates.get(g) == null ? null : gates.get(g).name();
                if (gate == null || gate.isEmpty()) {
                    c.required(gatePath(p, g), "a scheduling gate needs a name");
                } else if (!Names.isQualifiedName(gate)) {
                    c.invalid(gatePath(p, g), gate, Names.QUALIFIED_NAME_MESSAGE);
                } else if (!names.add(gate)) {
                    c.duplicate(gatePath(p, g), gate);
                }
            }
            if (s.nodeName() != null && !s.nodeName().isEmpty()) {
                c.forbidden(p.at(".nodeName"), "cannot be set while the pod has scheduling gates: a bound pod must "
                        + "have empty spec.schedulingGates (remove the gates or the nodeName)");
            }
        }
        Kube.SchedulingGroup group = s.schedulingGroup();
        if (group != null) {
            if (group.podGroupName() == null || group.podGroupName().isEmpty()) {
                c.required(p.at(".schedulingGroup.podGroupName"), "exactly one of podGroupName must be set");
            } else if (!Names.isDnsSubdomain(group.podGroupName())) {
                c.invalid(p.at(".schedulingGroup.podGroupName"), group.podGroupName(), Names.DNS_SUBDOMAIN_MESSAGE);
            }
        }
        if (s.resourceClaims() != null && !s.resourceClaims().isEmpty()) {
            claimRefs(s.resourceClaims(), p.field(".resourceClaims"), Integer.MAX_VALUE, c);
            p.pop();
        }
    }

    private static String gatePath(FieldPath p, int g) {
        return p.at(".schedulingGates", g) + ".name";
    }

    private static void containers(List<Kube.Container> cs, FieldPath p, String field, Causes c) {
        if (cs == null) {
            return;
        }
        p.field(field);
        for (int i = 0; i < cs.size(); i++) {
            Kube.Container k = cs.get(i);
            if (k == null) {
                continue;
            }
            p.index(i);
            if (k.resources() != null) {
                quantities(k.resources().requests(), p, ".resources.requests", c);
                quantities(k.resources().limits(), p, ".resources.limits", c);
            }
            if (k.ports() != null) {
                for (int j = 0; j < k.ports().size(); j++) {
                    Kube.ContainerPort port = k.ports().get(j);
                    if (port == null) {
                        continue;
                    }
                    if (port.hostPort() != null && (port.hostPort() < 0 || port.hostPort() > 65535)) {
                        c.invalid(p.at(".ports", j) + ".hostPort", port.hostPort(),
                                "must be between 1 and 65535, inclusive");
                    }
                    String protocol = port.protocol();
                    if (protocol != null && !protocol.isEmpty() && !PROTOCOLS.contains(protocol)) {
                        c.notSupported(p.at(".ports", j) + ".protocol", protocol, PROTOCOLS);
                    }
                }
            }
            p.pop();
        }
        p.pop();
    }

    /** {@code p} is the pod's {@code spec.affinity}. */
    private static void affinity(Kube.Affinity a, FieldPath p, Causes c) {
        Kube.NodeAffinity na = a.nodeAffinity();
        if (na != null) {
            p.field(".nodeAffinity");
            Kube.NodeSelector req = na.requiredDuringSchedulingIgnoredDuringExecution();
            if (req != null && req.nodeSelectorTerms() != null) {
                p.field(".requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms");
                for (int t = 0; t < req.nodeSelectorTerms().size(); t++) {
                    nodeSelectorTerm(req.nodeSelectorTerms().get(t), p.index(t), c);
                    p.pop();
                }
                p.pop();
            }
            List<Kube.PreferredSchedulingTerm> pref = na.preferredDuringSchedulingIgnoredDuringExecution();
            if (pref != null) {
                p.field(".preferredDuringSchedulingIgnoredDuringExecution");
                for (int t = 0; t < pref.size(); t++) {
                    Kube.PreferredSchedulingTerm term = pref.get(t);
                    if (term == null) {
                        continue;
                    }
                    p.index(t);
                    weight(term.weight(), p, c);
                    if (term.preference() != null) {
                        nodeSelectorTerm(term.preference(), p.field(".preference"), c);
                        p.pop();
                    }
                    p.pop();
                }
                p.pop();
            }
            p.pop();
        }
        if (a.podAffinity() != null) {
            podAffinity(a.podAffinity(), p.field(".podAffinity"), c);
            p.pop();
        }
        if (a.podAntiAffinity() != null) {
            podAffinity(a.podAntiAffinity(), p.field(".podAntiAffinity"), c);
            p.pop();
        }
    }

    /** The {@code weight} of the term at {@code p}. */
    private static void weight(Integer w, FieldPath p, Causes c) {
        if (w == null || w < 1 || w > 100) {
            c.invalid(p.at(".weight"), w, "must be in the range 1-100");
        }
    }

    /**
     * The terms of a node selector outside a pod (a claim's allocation, a ResourceSlice): operators as in a pod's
     * node affinity. {@code field} is the selector's suffix under {@code p}.
     */
    static void nodeSelectorTerms(Kube.NodeSelector s, FieldPath p, String field, Causes c) {
        if (s == null || s.nodeSelectorTerms() == null) {
            return;
        }
        p.field(field + ".nodeSelectorTerms");
        for (int t = 0; t < s.nodeSelectorTerms().size(); t++) {
            int d = p.depth();
            nodeSelectorTerm(s.nodeSelectorTerms().get(t), p.index(t), c);
            p.reset(d);
        }
        p.pop();
    }

    /** {@code p} is the term's path. */
    private static void nodeSelectorTerm(Kube.NodeSelectorTerm t, FieldPath p, Causes c) {
        if (t == null) {
            return;
        }
        requirements(t.matchExpressions(), p, ".matchExpressions", NODE_SELECTOR_OPERATORS, c);
        requirements(t.matchFields(), p, ".matchFields", NODE_SELECTOR_OPERATORS, c);
    }

    /** {@code p} is the pod's {@code podAffinity} or {@code podAntiAffinity}. */
    private static void podAffinity(Kube.PodAffinity a, FieldPath p, Causes c) {
        List<Kube.PodAffinityTerm> req = a.requiredDuringSchedulingIgnoredDuringExecution();
        if (req != null) {
            p.field(".requiredDuringSchedulingIgnoredDuringExecution");
            for (int t = 0; t < req.size(); t++) {
                podAffinityTerm(req.get(t), p.index(t), c);
                p.pop();
            }
            p.pop();
        }
        List<Kube.WeightedPodAffinityTerm> pref = a.preferredDuringSchedulingIgnoredDuringExecution();
        if (pref != null) {
            p.field(".preferredDuringSchedulingIgnoredDuringExecution");
            for (int t = 0; t < pref.size(); t++) {
                Kube.WeightedPodAffinityTerm w = pref.get(t);
                if (w == null) {
                    continue;
                }
                p.index(t);
                weight(w.weight(), p, c);
                if (w.podAffinityTerm() == null) {
                    c.required(p.at(".podAffinityTerm"), "a weighted term needs a podAffinityTerm");
                } else {
                    podAffinityTerm(w.podAffinityTerm(), p.field(".podAffinityTerm"), c);
                    p.pop();
                }
                p.pop();
            }
            p.pop();
        }
    }

    /** {@code p} is the term's path. */
    private static void podAffinityTerm(Kube.PodAffinityTerm t, FieldPath p, Causes c) {
        if (t == null) {
            return;
        }
        if (t.topologyKey() == null || t.topologyKey().isEmpty()) {
            c.required(p.at(".topologyKey"), "can not be empty");
        } else if (!Names.isQualifiedName(t.topologyKey())) {
            c.invalid(p.at(".topologyKey"), t.topologyKey(), Names.QUALIFIED_NAME_MESSAGE);
        }
        labelSelector(t.labelSelector(), p, ".labelSelector", c);
        labelSelector(t.namespaceSelector(), p, ".namespaceSelector", c);
    }

    /** {@code p} is the pod's {@code spec.tolerations}. */
    private static void tolerations(List<Kube.Toleration> ts, FieldPath p, Causes c) {
        for (int i = 0; i < ts.size(); i++) {
            Kube.Toleration t = ts.get(i);
            if (t == null) {
                continue;
            }
            String op = t.operator() == null || t.operator().isEmpty() ? "Equal" : t.operator();
            boolean exists = op.equals("Exists");
            boolean equal = !exists && op.equals("Equal");
            if (!exists && !equal) {
                c.notSupported(p.at("", i) + ".operator", t.operator(), TOLERATION_OPERATORS);
            }
            boolean emptyKey = t.key() == null || t.key().isEmpty();
            if (emptyKey && equal) {
                c.invalid(p.at("", i) + ".operator", op, "operator must be Exists when `key` is empty, which means \"match all values and all keys\"");
            } else if (!emptyKey && !Names.isQualifiedName(t.key())) {
                c.invalid(p.at("", i) + ".key", t.key(), Names.QUALIFIED_NAME_MESSAGE);
            }
            if (exists && t.value() != null && !t.value().isEmpty()) {
                c.invalid(p.at("", i) + ".operator", t.value(), "value must be empty when `operator` is 'Exists'");
            }
            String effect = t.effect();
            if (effect != null && !effect.isEmpty() && !TAINT_EFFECTS.contains(effect)) {
                c.notSupported(p.at("", i) + ".effect", effect, TAINT_EFFECTS);
            }
        }
    }

    /** {@code p} is the pod's {@code spec.topologySpreadConstraints}. */
    private static void spreadConstraints(List<Kube.TopologySpreadConstraint> cs, FieldPath p, Causes c) {
        for (int i = 0; i < cs.size(); i++) {
            Kube.TopologySpreadConstraint t = cs.get(i);
            if (t == null) {
                continue;
            }
            p.index(i);
            if (t.maxSkew() == null || t.maxSkew() <= 0) {
                c.invalid(p.at(".maxSkew"), t.maxSkew(), "must be greater than zero");
            }
            if (t.topologyKey() == null || t.topologyKey().isEmpty()) {
                c.required(p.at(".topologyKey"), "can not be empty");
            } else if (!Names.isQualifiedName(t.topologyKey())) {
                c.invalid(p.at(".topologyKey"), t.topologyKey(), Names.QUALIFIED_NAME_MESSAGE);
            }
            enumRequired(t.whenUnsatisfiable(), p, ".whenUnsatisfiable", WHEN_UNSATISFIABLE, c);
            if (t.minDomains() != null) {
                if (t.minDomains() <= 0) {
                    c.invalid(p.at(".minDomains"), t.minDomains(), "must be greater than 0");
                } else if (!"DoNotSchedule".equals(t.whenUnsatisfiable())) {
                    c.invalid(p.at(".minDomains"), t.minDomains(), "can only use minDomains if whenUnsatisfiable=DoNotSchedule");
                }
            }
            enumOptional(t.nodeAffinityPolicy(), p, ".nodeAffinityPolicy", INCLUSION_POLICIES, c);
            enumOptional(t.nodeTaintsPolicy(), p, ".nodeTaintsPolicy", INCLUSION_POLICIES, c);
            labelSelector(t.labelSelector(), p, ".labelSelector", c);
            p.pop();
        }
    }
}
