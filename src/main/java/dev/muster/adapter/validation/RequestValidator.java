package dev.muster.adapter.validation;

import dev.muster.adapter.kube.Kube;
import dev.muster.adapter.kube.Qty;
import dev.muster.core.model.Quantity;
import dev.muster.adapter.kube.RequestDocument;
import dev.muster.adapter.kube.Timestamps;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The API invariants of a request (CONTRACT.md §2–3, reference/upstream-1.36.md §1), checked on the decoded lean
 * records and reported all at once, each with the Kubernetes cause reason and the field path from the request
 * root ({@code snapshot.pods[3].spec.schedulingGroup.podGroupName}). Shared by REST, gRPC and the extender.
 *
 * <p>Why not Hibernate Validator on the records: a request holds up to hundreds of thousands of objects, and
 * bean validation walks them reflectively with constraint metadata per property (measurably slower than parsing
 * itself), reports paths in its own notation and messages without Kubernetes cause reasons, and cannot express the
 * cross-field rules (unions, duplicates per namespace, gates vs nodeName) without custom validators anyway. Here each
 * rule is a plain check that emits exactly the cause upstream would, paths are built only when a cause is reported,
 * and names are checked by hand-written scanners ({@link Names}). Hibernate Validator validates the
 * {@code @ConfigMapping} configuration, where it is the Quarkus convention.
 *
 * <p>Choices where upstream is not explicit: a bound pod with scheduling gates is reported as
 * {@code FieldValueForbidden} on {@code spec.nodeName} (the API server's create-time rule); quantities that do not
 * parse are {@code FieldValueInvalid} causes (422) rather than decoding errors, so all of them are reported at once.
 */
public final class RequestValidator {
    private static final List<String> DISRUPTION_MODES = List.of("Pod", "PodGroup");
    private static final List<String> TAINT_EFFECTS = List.of("NoSchedule", "PreferNoSchedule", "NoExecute");
    private static final List<String> TOLERATION_OPERATORS = List.of("Equal", "Exists");
    private static final List<String> NODE_SELECTOR_OPERATORS = List.of("In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt");
    private static final List<String> LABEL_SELECTOR_OPERATORS = List.of("In", "NotIn", "Exists", "DoesNotExist");
    private static final List<String> WHEN_UNSATISFIABLE = List.of("DoNotSchedule", "ScheduleAnyway");
    private static final List<String> INCLUSION_POLICIES = List.of("Honor", "Ignore");
    private static final List<String> PREEMPTION_POLICIES = List.of("PreemptLowerPriority", "Never");
    private static final List<String> PROTOCOLS = List.of("TCP", "UDP", "SCTP");
    private static final int MAX_TEMPLATES = 8;
    private static final int MAX_CLAIMS = 4;
    private static final int MAX_TOPOLOGY = 1;
    private static final long MAX_USER_PRIORITY = 1_000_000_000L;
    private static final String UNION_NONE = "must specify one of: `basic`, `gang`";
    private static final String UNION_MANY = "must specify exactly one of: `basic`, `gang`";

    private final ValidationLimits limits;

    public RequestValidator(ValidationLimits limits) {
        this.limits = limits;
    }

    /** Every cause of the request; empty when it is valid. */
    public Causes validate(RequestDocument doc) {
        Causes c = new Causes(limits.maxCauses());
        if (doc == null || doc.snapshot() == null) {
            c.required("snapshot", "the cluster snapshot must be set");
            return c;
        }
        validateGroupNames(doc.podGroups(), c);
        validateSnapshot(doc.snapshot(), new FieldPath("snapshot"), c);
        return c;
    }

    /** Validates a bare snapshot (the extender's snapshot file) with paths under {@code root}. */
    public Causes validateSnapshot(RequestDocument.Snapshot s, String root) {
        Causes c = new Causes(limits.maxCauses());
        validateSnapshot(s, new FieldPath(root), c);
        return c;
    }

    private void validateGroupNames(List<String> groups, Causes c) {
        if (groups == null) {
            return;
        }
        if (groups.size() > limits.maxPodGroups()) {
            c.tooMany("podGroups", groups.size(), limits.maxPodGroups());
            return;
        }
        for (int i = 0; i < groups.size(); i++) {
            String g = groups.get(i);
            int slash = g == null ? -1 : g.indexOf('/');
            if (g == null || slash < 0 || !Names.isDnsLabel(g.substring(0, slash))
                    || !Names.isDnsSubdomain(g.substring(slash + 1))) {
                c.invalid("podGroups[" + i + "]", g, "must be \"<namespace>/<name>\" with a DNS label namespace and "
                        + "a DNS subdomain name (e.g. \"some-ns/training-job-workers-pg\")");
            }
        }
    }

    private void validateSnapshot(RequestDocument.Snapshot s, FieldPath p, Causes c) {
        if (s.nodes() == null) {
            c.required(p.at(".nodes"), "the snapshot must list the cluster's nodes");
        } else if (tooMany(s.nodes(), p, ".nodes", limits.maxNodes(), c)) {
            validateNodes(s.nodes(), p.field(".nodes"), c);
            p.pop();
        }
        if (tooMany(s.pods(), p, ".pods", limits.maxPods(), c)) {
            validatePods(s.pods(), p.field(".pods"), c);
            p.pop();
        }
        if (tooMany(s.podGroups(), p, ".podGroups", limits.maxPodGroups(), c)) {
            validatePodGroups(s.podGroups(), p.field(".podGroups"), c);
            p.pop();
        }
        if (tooMany(s.workloads(), p, ".workloads", limits.maxObjects(), c)) {
            validateWorkloads(s.workloads(), p.field(".workloads"), c);
            p.pop();
        }
        if (tooMany(s.priorityClasses(), p, ".priorityClasses", limits.maxObjects(), c)) {
            validatePriorityClasses(s.priorityClasses(), p.field(".priorityClasses"), c);
            p.pop();
        }
        if (tooMany(s.podDisruptionBudgets(), p, ".podDisruptionBudgets", limits.maxObjects(), c)) {
            validatePdbs(s.podDisruptionBudgets(), p.field(".podDisruptionBudgets"), c);
            p.pop();
        }
        validateMetaOnly(s.deviceClasses(), p, ".deviceClasses", false, c);
        validateMetaOnly(s.resourceSlices(), p, ".resourceSlices", false, c);
        validateMetaOnly(s.resourceClaims(), p, ".resourceClaims", true, c);
        validateMetaOnly(s.resourceClaimTemplates(), p, ".resourceClaimTemplates", true, c);
    }

    /** False (and a TooMany cause) when the list is over its limit: its items are then not checked one by one. */
    private static boolean tooMany(List<?> list, FieldPath p, String field, int max, Causes c) {
        if (list == null) {
            return false;
        }
        if (list.size() > max) {
            c.tooMany(p.at(field), list.size(), max);
            return false;
        }
        return true;
    }

    // ---------------------------------------------------------------- metadata

    /**
     * Name required and well-formed, namespace a DNS label, timestamps RFC 3339. Returns the name or null.
     * {@code p} is the object's path.
     */
    private static String validateMeta(Kube.ObjectMeta m, FieldPath p, boolean namespaced, Causes c) {
        if (m == null) {
            c.required(p.at(".metadata.name"), "name is required");
            return null;
        }
        String name = m.name();
        if (name == null || name.isEmpty()) {
            c.required(p.at(".metadata.name"), "name is required");
            name = null;
        } else if (!Names.isDnsSubdomain(name)) {
            c.invalid(p.at(".metadata.name"), name, Names.DNS_SUBDOMAIN_MESSAGE);
        }
        if (namespaced && m.namespace() != null && !m.namespace().isEmpty() && !Names.isDnsLabel(m.namespace())) {
            c.invalid(p.at(".metadata.namespace"), m.namespace(), Names.DNS_LABEL_MESSAGE);
        }
        if (m.creationTimestamp() != null && !m.creationTimestamp().isEmpty() && !Timestamps.isValid(m.creationTimestamp())) {
            c.invalid(p.at(".metadata.creationTimestamp"), m.creationTimestamp(),
                    "must be an RFC 3339 time (e.g. \"2026-04-22T10:15:30Z\")");
        }
        if (m.deletionTimestamp() != null && !m.deletionTimestamp().isEmpty() && !Timestamps.isValid(m.deletionTimestamp())) {
            c.invalid(p.at(".metadata.deletionTimestamp"), m.deletionTimestamp(),
                    "must be an RFC 3339 time (e.g. \"2026-04-22T10:15:30Z\")");
        }
        return name;
    }

    /** The identity of a namespaced object, without concatenating namespace and name. */
    private record NamespacedName(String namespace, String name) {
    }

    private static Object key(Kube.ObjectMeta m, String name, boolean namespaced) {
        return namespaced ? new NamespacedName(m.namespaceOrDefault(), name) : name;
    }

    private static void duplicate(Set<Object> seen, Kube.ObjectMeta m, String name, boolean namespaced, FieldPath p,
                                  Causes c) {
        if (name != null && !seen.add(key(m, name, namespaced))) {
            c.duplicate(p.at(".metadata.name"), name);
        }
    }

    private static Set<Object> seenSet(int size) {
        return new HashSet<>(Math.max(16, (int) (size / 0.75f) + 1));
    }

    // ---------------------------------------------------------------- nodes

    private static void validateNodes(List<Kube.Node> nodes, FieldPath p, Causes c) {
        Set<Object> seen = seenSet(nodes.size());
        for (int i = 0; i < nodes.size(); i++) {
            Kube.Node n = nodes.get(i);
            p.index(i);
            if (n == null) {
                c.required(p.at(""), "must be a Node object");
                p.pop();
                continue;
            }
            String name = validateMeta(n.metadata(), p, false, c);
            duplicate(seen, n.metadata(), name, false, p, c);
            if (n.spec() != null && n.spec().taints() != null) {
                List<Kube.Taint> taints = n.spec().taints();
                p.field(".spec.taints");
                for (int t = 0; t < taints.size(); t++) {
                    Kube.Taint taint = taints.get(t);
                    p.index(t);
                    if (taint == null) {
                        c.required(p.at(""), "must be a taint");
                    } else {
                        labelKey(taint.key(), p, ".key", c);
                        enumRequired(taint.effect(), p, ".effect", TAINT_EFFECTS, c);
                    }
                    p.pop();
                }
                p.pop();
            }
            if (n.status() != null) {
                quantities(n.status().allocatable(), p, ".status.allocatable", c);
                quantities(n.status().capacity(), p, ".status.capacity", c);
            }
            p.pop();
        }
    }

    // ---------------------------------------------------------------- pods

    private static void validatePods(List<Kube.Pod> pods, FieldPath p, Causes c) {
        Set<Object> seen = seenSet(pods.size());
        for (int i = 0; i < pods.size(); i++) {
            Kube.Pod pod = pods.get(i);
            p.index(i);
            if (pod == null) {
                c.required(p.at(""), "must be a Pod object");
                p.pop();
                continue;
            }
            String name = validateMeta(pod.metadata(), p, true, c);
            duplicate(seen, pod.metadata(), name, true, p, c);
            if (pod.spec() != null) {
                validatePodSpec(pod.spec(), p.field(".spec"), c);
                p.pop();
            }
            p.pop();
        }
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

    /** Every quantity parses and none is negative. {@code p + field} is the map's path. */
    private static void quantities(Map<String, Qty> q, FieldPath p, String field, Causes c) {
        if (q == null || q.isEmpty()) {
            return;
        }
        for (Map.Entry<String, Qty> e : q.entrySet()) {
            Qty v = e.getValue();
            if (v == null) {
                c.required(p.at(field) + "[" + e.getKey() + "]", "a quantity is required");
                continue;
            }
            String text = v.text();
            if (!Quantity.isValid(text)) {
                c.invalid(p.at(field) + "[" + e.getKey() + "]", text, Quantity.FORMAT_MESSAGE);
            } else if (Quantity.isNegative(text)) {
                c.invalid(p.at(field) + "[" + e.getKey() + "]", text, "must be greater than or equal to 0");
            }
        }
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

    /** {@code p} is the term's path. */
    private static void nodeSelectorTerm(Kube.NodeSelectorTerm t, FieldPath p, Causes c) {
        if (t == null) {
            return;
        }
        requirements(t.matchExpressions(), p, ".matchExpressions", NODE_SELECTOR_OPERATORS, c);
        requirements(t.matchFields(), p, ".matchFields", NODE_SELECTOR_OPERATORS, c);
    }

    private static void requirements(List<Kube.Requirement> reqs, FieldPath p, String field, List<String> operators,
                                     Causes c) {
        if (reqs == null) {
            return;
        }
        for (int i = 0; i < reqs.size(); i++) {
            Kube.Requirement r = reqs.get(i);
            if (r == null) {
                continue;
            }
            if (r.key() == null || r.key().isEmpty()) {
                c.required(p.at(field, i) + ".key", "a selector requirement needs a key");
            }
            String op = r.operator();
            if (op == null || op.isEmpty()) {
                c.required(p.at(field, i) + ".operator", "");
            } else if (!operators.contains(op)) {
                c.notSupported(p.at(field, i) + ".operator", op, operators);
            }
        }
    }

    private static void labelSelector(Kube.LabelSelector s, FieldPath p, String field, Causes c) {
        if (s != null && s.matchExpressions() != null) {
            p.field(field);
            requirements(s.matchExpressions(), p, ".matchExpressions", LABEL_SELECTOR_OPERATORS, c);
            p.pop();
        }
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

    // ---------------------------------------------------------------- PodGroups and Workloads

    private static void validatePodGroups(List<Kube.PodGroup> groups, FieldPath p, Causes c) {
        Set<Object> seen = seenSet(groups.size());
        for (int i = 0; i < groups.size(); i++) {
            Kube.PodGroup g = groups.get(i);
            p.index(i);
            if (g == null) {
                c.required(p.at(""), "must be a PodGroup object");
                p.pop();
                continue;
            }
            String name = validateMeta(g.metadata(), p, true, c);
            duplicate(seen, g.metadata(), name, true, p, c);
            Kube.PodGroupSpec s = g.spec();
            if (s == null) {
                c.required(p.at(".spec"), "a PodGroup needs a spec with a schedulingPolicy");
                p.pop();
                continue;
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
            p.pop();
        }
    }

    private static void validateWorkloads(List<Kube.Workload> workloads, FieldPath p, Causes c) {
        Set<Object> seen = seenSet(workloads.size());
        for (int i = 0; i < workloads.size(); i++) {
            Kube.Workload w = workloads.get(i);
            int d = p.depth();
            p.index(i);
            if (w == null) {
                c.required(p.at(""), "must be a Workload object");
                p.reset(d);
                continue;
            }
            String name = validateMeta(w.metadata(), p, true, c);
            duplicate(seen, w.metadata(), name, true, p, c);
            Kube.WorkloadSpec s = w.spec();
            if (s == null) {
                c.required(p.at(".spec"), "a Workload needs a spec with podGroupTemplates");
                p.reset(d);
                continue;
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
                p.reset(d);
                continue;
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
            p.reset(d);
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

    /**
     * Pod or PodGroup {@code resourceClaims} (non-empty, at {@code p}): named (DNS label, unique), exactly one of
     * the two references.
     */
    private static void claimRefs(List<Kube.ClaimRef> claims, FieldPath p, int max, Causes c) {
        if (claims.size() > max) {
            c.tooMany(p.at(""), claims.size(), max);
        }
        Map<String, Integer> names = new HashMap<>();
        for (int i = 0; i < claims.size(); i++) {
            Kube.ClaimRef r = claims.get(i);
            p.index(i);
            if (r == null) {
                c.required(p.at(""), "must be a resource claim reference");
                p.pop();
                continue;
            }
            if (shortName(r.name(), p, ".name", true, c) && names.putIfAbsent(r.name(), i) != null) {
                c.duplicate(p.at(""), r.name());
            }
            boolean hasClaim = r.resourceClaimName() != null && !r.resourceClaimName().isEmpty();
            boolean hasTemplate = r.resourceClaimTemplateName() != null && !r.resourceClaimTemplateName().isEmpty();
            if (!hasClaim && !hasTemplate) {
                c.invalid(p.at(""), "", "must specify one of: `resourceClaimName`, `resourceClaimTemplateName`");
            } else if (hasClaim && hasTemplate) {
                c.invalid(p.at(""), "{`resourceClaimName`, `resourceClaimTemplateName`}",
                        "must specify exactly one of: `resourceClaimName`, `resourceClaimTemplateName`");
            }
            if (hasClaim) {
                longName(r.resourceClaimName(), p, ".resourceClaimName", false, c);
            }
            if (hasTemplate) {
                longName(r.resourceClaimTemplateName(), p, ".resourceClaimTemplateName", false, c);
            }
            p.pop();
        }
    }

    // ---------------------------------------------------------------- other objects

    private static void validatePriorityClasses(List<Kube.PriorityClass> pcs, FieldPath p, Causes c) {
        Set<Object> seen = seenSet(pcs.size());
        for (int i = 0; i < pcs.size(); i++) {
            Kube.PriorityClass pc = pcs.get(i);
            p.index(i);
            if (pc == null) {
                c.required(p.at(""), "must be a PriorityClass object");
                p.pop();
                continue;
            }
            String name = validateMeta(pc.metadata(), p, false, c);
            duplicate(seen, pc.metadata(), name, false, p, c);
            if (pc.value() == null) {
                c.required(p.at(".value"), "a PriorityClass needs a value");
            }
            enumOptional(pc.preemptionPolicy(), p, ".preemptionPolicy", PREEMPTION_POLICIES, c);
            p.pop();
        }
    }

    private static void validatePdbs(List<Kube.PodDisruptionBudget> pdbs, FieldPath p, Causes c) {
        Set<Object> seen = seenSet(pdbs.size());
        for (int i = 0; i < pdbs.size(); i++) {
            Kube.PodDisruptionBudget b = pdbs.get(i);
            p.index(i);
            if (b == null) {
                c.required(p.at(""), "must be a PodDisruptionBudget object");
                p.pop();
                continue;
            }
            String name = validateMeta(b.metadata(), p, true, c);
            duplicate(seen, b.metadata(), name, true, p, c);
            if (b.spec() != null) {
                labelSelector(b.spec().selector(), p, ".spec.selector", c);
            }
            p.pop();
        }
    }

    private void validateMetaOnly(List<Kube.MetaOnly> objects, FieldPath p, String field, boolean namespaced,
                                  Causes c) {
        if (!tooMany(objects, p, field, limits.maxObjects(), c)) {
            return;
        }
        Set<Object> seen = seenSet(objects.size());
        p.field(field);
        for (int i = 0; i < objects.size(); i++) {
            Kube.MetaOnly o = objects.get(i);
            p.index(i);
            if (o == null) {
                c.required(p.at(""), "must be an object");
            } else {
                String name = validateMeta(o.metadata(), p, namespaced, c);
                duplicate(seen, o.metadata(), name, namespaced, p, c);
            }
            p.pop();
        }
        p.pop();
    }

    // ---------------------------------------------------------------- field formats (reported at p + field)

    /** DNS label ({@code k8s-short-name}); returns whether it is present and valid. */
    private static boolean shortName(String v, FieldPath p, String field, boolean required, Causes c) {
        if (v == null || v.isEmpty()) {
            if (required) {
                c.required(p.at(field), "");
            }
            return false;
        }
        if (!Names.isDnsLabel(v)) {
            c.invalid(p.at(field), v, Names.DNS_LABEL_MESSAGE);
            return false;
        }
        return true;
    }

    /** DNS subdomain ({@code k8s-long-name}). */
    private static void longName(String v, FieldPath p, String field, boolean required, Causes c) {
        if (v == null || v.isEmpty()) {
            if (required) {
                c.required(p.at(field), "");
            }
        } else if (!Names.isDnsSubdomain(v)) {
            c.invalid(p.at(field), v, Names.DNS_SUBDOMAIN_MESSAGE);
        }
    }

    private static void labelKey(String v, FieldPath p, String field, Causes c) {
        if (v == null || v.isEmpty()) {
            c.required(p.at(field), "");
        } else if (!Names.isQualifiedName(v)) {
            c.invalid(p.at(field), v, Names.QUALIFIED_NAME_MESSAGE);
        }
    }

    private static void pathSegment(String v, FieldPath p, String field, Causes c) {
        if (v == null || v.isEmpty()) {
            c.required(p.at(field), "");
        } else if (!Names.isPathSegmentName(v)) {
            c.invalid(p.at(field), v, Names.PATH_SEGMENT_MESSAGE);
        }
    }

    private static void enumRequired(String v, FieldPath p, String field, List<String> supported, Causes c) {
        if (v == null || v.isEmpty()) {
            c.required(p.at(field), "");
        } else if (!supported.contains(v)) {
            c.notSupported(p.at(field), v, supported);
        }
    }

    private static void enumOptional(String v, FieldPath p, String field, List<String> supported, Causes c) {
        if (v != null && !v.isEmpty() && !supported.contains(v)) {
            c.notSupported(p.at(field), v, supported);
        }
    }
}
