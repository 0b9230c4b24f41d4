package dev.muster.adapter.validation;

import dev.muster.adapter.kube.Kube;
import dev.muster.adapter.kube.Qty;
import dev.muster.adapter.kube.Quantity;
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
        validateSnapshot(doc.snapshot(), "snapshot", c);
        return c;
    }

    /** Validates a bare snapshot (the extender's snapshot file) with paths under {@code root}. */
    public Causes validateSnapshot(RequestDocument.Snapshot s, String root) {
        Causes c = new Causes(limits.maxCauses());
        validateSnapshot(s, root, c);
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

    private void validateSnapshot(RequestDocument.Snapshot s, String root, Causes c) {
        if (s.nodes() == null) {
            c.required(root + ".nodes", "the snapshot must list the cluster's nodes");
        } else if (tooMany(s.nodes(), root + ".nodes", limits.maxNodes(), c)) {
            validateNodes(s.nodes(), root + ".nodes", c);
        }
        if (tooMany(s.pods(), root + ".pods", limits.maxPods(), c)) {
            validatePods(s.pods(), root + ".pods", c);
        }
        if (tooMany(s.podGroups(), root + ".podGroups", limits.maxPodGroups(), c)) {
            validatePodGroups(s.podGroups(), root + ".podGroups", c);
        }
        if (tooMany(s.workloads(), root + ".workloads", limits.maxObjects(), c)) {
            validateWorkloads(s.workloads(), root + ".workloads", c);
        }
        if (tooMany(s.priorityClasses(), root + ".priorityClasses", limits.maxObjects(), c)) {
            validatePriorityClasses(s.priorityClasses(), root + ".priorityClasses", c);
        }
        if (tooMany(s.podDisruptionBudgets(), root + ".podDisruptionBudgets", limits.maxObjects(), c)) {
            validatePdbs(s.podDisruptionBudgets(), root + ".podDisruptionBudgets", c);
        }
        validateMetaOnly(s.deviceClasses(), root + ".deviceClasses", false, c);
        validateMetaOnly(s.resourceSlices(), root + ".resourceSlices", false, c);
        validateMetaOnly(s.resourceClaims(), root + ".resourceClaims", true, c);
        validateMetaOnly(s.resourceClaimTemplates(), root + ".resourceClaimTemplates", true, c);
    }

    /** False (and a TooMany cause) when the list is over its limit: its items are then not checked one by one. */
    private static boolean tooMany(List<?> list, String path, int max, Causes c) {
        if (list == null) {
            return false;
        }
        if (list.size() > max) {
            c.tooMany(path, list.size(), max);
            return false;
        }
        return true;
    }

    // ---------------------------------------------------------------- metadata

    /** Name required and well-formed, namespace a DNS label, timestamps RFC 3339. Returns the name or null. */
    private static String validateMeta(Kube.ObjectMeta m, String path, boolean namespaced, Causes c) {
        if (m == null) {
            c.required(path + ".metadata.name", "name is required");
            return null;
        }
        String name = m.name();
        if (name == null || name.isEmpty()) {
            c.required(path + ".metadata.name", "name is required");
            name = null;
        } else if (!Names.isDnsSubdomain(name)) {
            c.invalid(path + ".metadata.name", name, Names.DNS_SUBDOMAIN_MESSAGE);
        }
        if (namespaced && m.namespace() != null && !m.namespace().isEmpty() && !Names.isDnsLabel(m.namespace())) {
            c.invalid(path + ".metadata.namespace", m.namespace(), Names.DNS_LABEL_MESSAGE);
        }
        if (m.creationTimestamp() != null && !m.creationTimestamp().isEmpty() && !Timestamps.isValid(m.creationTimestamp())) {
            c.invalid(path + ".metadata.creationTimestamp", m.creationTimestamp(),
                    "must be an RFC 3339 time (e.g. \"2026-04-22T10:15:30Z\")");
        }
        if (m.deletionTimestamp() != null && !m.deletionTimestamp().isEmpty() && !Timestamps.isValid(m.deletionTimestamp())) {
            c.invalid(path + ".metadata.deletionTimestamp", m.deletionTimestamp(),
                    "must be an RFC 3339 time (e.g. \"2026-04-22T10:15:30Z\")");
        }
        return name;
    }

    private static String key(Kube.ObjectMeta m, String name, boolean namespaced) {
        return namespaced ? m.namespaceOrDefault() + "/" + name : name;
    }

    private static void duplicate(Set<String> seen, Kube.ObjectMeta m, String name, boolean namespaced, String path,
                                  Causes c) {
        if (name != null && !seen.add(key(m, name, namespaced))) {
            c.duplicate(path + ".metadata.name", name);
        }
    }

    // ---------------------------------------------------------------- nodes

    private static void validateNodes(List<Kube.Node> nodes, String root, Causes c) {
        Set<String> seen = new HashSet<>(nodes.size() * 2);
        for (int i = 0; i < nodes.size(); i++) {
            Kube.Node n = nodes.get(i);
            String path = root + "[" + i + "]";
            if (n == null) {
                c.required(path, "must be a Node object");
                continue;
            }
            String name = validateMeta(n.metadata(), path, false, c);
            duplicate(seen, n.metadata(), name, false, path, c);
            if (n.spec() != null && n.spec().taints() != null) {
                List<Kube.Taint> taints = n.spec().taints();
                for (int t = 0; t < taints.size(); t++) {
                    Kube.Taint taint = taints.get(t);
                    String tp = path + ".spec.taints[" + t + "]";
                    if (taint == null) {
                        c.required(tp, "must be a taint");
                        continue;
                    }
                    labelKey(taint.key(), tp + ".key", c);
                    enumRequired(taint.effect(), tp + ".effect", TAINT_EFFECTS, c);
                }
            }
            if (n.status() != null) {
                quantities(n.status().allocatable(), path + ".status.allocatable", c);
                quantities(n.status().capacity(), path + ".status.capacity", c);
            }
        }
    }

    // ---------------------------------------------------------------- pods

    private static void validatePods(List<Kube.Pod> pods, String root, Causes c) {
        Set<String> seen = new HashSet<>(pods.size() * 2);
        for (int i = 0; i < pods.size(); i++) {
            Kube.Pod p = pods.get(i);
            String path = root + "[" + i + "]";
            if (p == null) {
                c.required(path, "must be a Pod object");
                continue;
            }
            String name = validateMeta(p.metadata(), path, true, c);
            duplicate(seen, p.metadata(), name, true, path, c);
            if (p.spec() != null) {
                validatePodSpec(p.spec(), path + ".spec", c);
            }
        }
    }

    private static void validatePodSpec(Kube.PodSpec s, String path, Causes c) {
        containers(s.containers(), path + ".containers", c);
        containers(s.initContainers(), path + ".initContainers", c);
        quantities(s.overhead(), path + ".overhead", c);
        if (s.resources() != null) {
            quantities(s.resources().requests(), path + ".resources.requests", c);
            quantities(s.resources().limits(), path + ".resources.limits", c);
        }
        if (s.priorityClassName() != null && !s.priorityClassName().isEmpty() && !Names.isDnsSubdomain(s.priorityClassName())) {
            c.invalid(path + ".priorityClassName", s.priorityClassName(), Names.DNS_SUBDOMAIN_MESSAGE);
        }
        enumOptional(s.preemptionPolicy(), path + ".preemptionPolicy", PREEMPTION_POLICIES, c);
        if (s.affinity() != null) {
            affinity(s.affinity(), path + ".affinity", c);
        }
        tolerations(s.tolerations(), path + ".tolerations", c);
        spreadConstraints(s.topologySpreadConstraints(), path + ".topologySpreadConstraints", c);
        List<Kube.SchedulingGate> gates = s.schedulingGates();
        if (gates != null && !gates.isEmpty()) {
            Set<String> names = new HashSet<>();
            for (int g = 0; g < gates.size(); g++) {
                String gp = path + ".schedulingGates[" + g + "].name";
                String gate = gates.get(g) == null ? null : gates.get(g).name();
                if (gate == null || gate.isEmpty()) {
                    c.required(gp, "a scheduling gate needs a name");
                } else if (!Names.isQualifiedName(gate)) {
                    c.invalid(gp, gate, Names.QUALIFIED_NAME_MESSAGE);
                } else if (!names.add(gate)) {
                    c.duplicate(gp, gate);
                }
            }
            if (s.nodeName() != null && !s.nodeName().isEmpty()) {
                c.forbidden(path + ".nodeName", "cannot be set while the pod has scheduling gates: a bound pod must "
                        + "have empty spec.schedulingGates (remove the gates or the nodeName)");
            }
        }
        Kube.SchedulingGroup group = s.schedulingGroup();
        if (group != null) {
            String gp = path + ".schedulingGroup.podGroupName";
            if (group.podGroupName() == null || group.podGroupName().isEmpty()) {
                c.required(gp, "exactly one of podGroupName must be set");
            } else if (!Names.isDnsSubdomain(group.podGroupName())) {
                c.invalid(gp, group.podGroupName(), Names.DNS_SUBDOMAIN_MESSAGE);
            }
        }
        claimRefs(s.resourceClaims(), path + ".resourceClaims", Integer.MAX_VALUE, c);
    }

    private static void containers(List<Kube.Container> cs, String path, Causes c) {
        if (cs == null) {
            return;
        }
        for (int i = 0; i < cs.size(); i++) {
            Kube.Container k = cs.get(i);
            if (k == null) {
                continue;
            }
            String cp = path + "[" + i + "]";
            if (k.resources() != null) {
                quantities(k.resources().requests(), cp + ".resources.requests", c);
                quantities(k.resources().limits(), cp + ".resources.limits", c);
            }
            if (k.ports() != null) {
                for (int p = 0; p < k.ports().size(); p++) {
                    Kube.ContainerPort port = k.ports().get(p);
                    if (port == null) {
                        continue;
                    }
                    if (port.hostPort() != null && (port.hostPort() < 0 || port.hostPort() > 65535)) {
                        c.invalid(cp + ".ports[" + p + "].hostPort", port.hostPort(), "must be between 1 and 65535, inclusive");
                    }
                    enumOptional(port.protocol(), cp + ".ports[" + p + "].protocol", PROTOCOLS, c);
                }
            }
        }
    }

    /** Every quantity parses and none is negative. */
    private static void quantities(Map<String, Qty> q, String path, Causes c) {
        if (q == null || q.isEmpty()) {
            return;
        }
        for (Map.Entry<String, Qty> e : q.entrySet()) {
            Qty v = e.getValue();
            if (v == null) {
                c.required(path + "[" + e.getKey() + "]", "a quantity is required");
                continue;
            }
            String text = v.text();
            if (!Quantity.isValid(text)) {
                c.invalid(path + "[" + e.getKey() + "]", text, Quantity.FORMAT_MESSAGE);
            } else if (Quantity.isNegative(text)) {
                c.invalid(path + "[" + e.getKey() + "]", text, "must be greater than or equal to 0");
            }
        }
    }

    private static void affinity(Kube.Affinity a, String path, Causes c) {
        Kube.NodeAffinity na = a.nodeAffinity();
        if (na != null) {
            String np = path + ".nodeAffinity";
            Kube.NodeSelector req = na.requiredDuringSchedulingIgnoredDuringExecution();
            if (req != null && req.nodeSelectorTerms() != null) {
                for (int t = 0; t < req.nodeSelectorTerms().size(); t++) {
                    nodeSelectorTerm(req.nodeSelectorTerms().get(t),
                            np + ".requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[" + t + "]", c);
                }
            }
            List<Kube.PreferredSchedulingTerm> pref = na.preferredDuringSchedulingIgnoredDuringExecution();
            if (pref != null) {
                for (int t = 0; t < pref.size(); t++) {
                    String tp = np + ".preferredDuringSchedulingIgnoredDuringExecution[" + t + "]";
                    Kube.PreferredSchedulingTerm term = pref.get(t);
                    if (term == null) {
                        continue;
                    }
                    weight(term.weight(), tp + ".weight", c);
                    nodeSelectorTerm(term.preference(), tp + ".preference", c);
                }
            }
        }
        podAffinity(a.podAffinity(), path + ".podAffinity", c);
        podAffinity(a.podAntiAffinity(), path + ".podAntiAffinity", c);
    }

    private static void weight(Integer w, String path, Causes c) {
        if (w == null || w < 1 || w > 100) {
            c.invalid(path, w, "must be in the range 1-100");
        }
    }

    private static void nodeSelectorTerm(Kube.NodeSelectorTerm t, String path, Causes c) {
        if (t == null) {
            return;
        }
        requirements(t.matchExpressions(), path + ".matchExpressions", NODE_SELECTOR_OPERATORS, c);
        requirements(t.matchFields(), path + ".matchFields", NODE_SELECTOR_OPERATORS, c);
    }

    private static void requirements(List<Kube.Requirement> reqs, String path, List<String> operators, Causes c) {
        if (reqs == null) {
            return;
        }
        for (int i = 0; i < reqs.size(); i++) {
            Kube.Requirement r = reqs.get(i);
            if (r == null) {
                continue;
            }
            String rp = path + "[" + i + "]";
            if (r.key() == null || r.key().isEmpty()) {
                c.required(rp + ".key", "a selector requirement needs a key");
            }
            enumRequired(r.operator(), rp + ".operator", operators, c);
        }
    }

    private static void labelSelector(Kube.LabelSelector s, String path, Causes c) {
        if (s != null) {
            requirements(s.matchExpressions(), path + ".matchExpressions", LABEL_SELECTOR_OPERATORS, c);
        }
    }

    private static void podAffinity(Kube.PodAffinity a, String path, Causes c) {
        if (a == null) {
            return;
        }
        List<Kube.PodAffinityTerm> req = a.requiredDuringSchedulingIgnoredDuringExecution();
        if (req != null) {
            for (int t = 0; t < req.size(); t++) {
                podAffinityTerm(req.get(t), path + ".requiredDuringSchedulingIgnoredDuringExecution[" + t + "]", c);
            }
        }
        List<Kube.WeightedPodAffinityTerm> pref = a.preferredDuringSchedulingIgnoredDuringExecution();
        if (pref != null) {
            for (int t = 0; t < pref.size(); t++) {
                Kube.WeightedPodAffinityTerm w = pref.get(t);
                if (w == null) {
                    continue;
                }
                String tp = path + ".preferredDuringSchedulingIgnoredDuringExecution[" + t + "]";
                weight(w.weight(), tp + ".weight", c);
                if (w.podAffinityTerm() == null) {
                    c.required(tp + ".podAffinityTerm", "a weighted term needs a podAffinityTerm");
                } else {
                    podAffinityTerm(w.podAffinityTerm(), tp + ".podAffinityTerm", c);
                }
            }
        }
    }

    private static void podAffinityTerm(Kube.PodAffinityTerm t, String path, Causes c) {
        if (t == null) {
            return;
        }
        if (t.topologyKey() == null || t.topologyKey().isEmpty()) {
            c.required(path + ".topologyKey", "can not be empty");
        } else if (!Names.isQualifiedName(t.topologyKey())) {
            c.invalid(path + ".topologyKey", t.topologyKey(), Names.QUALIFIED_NAME_MESSAGE);
        }
        labelSelector(t.labelSelector(), path + ".labelSelector", c);
        labelSelector(t.namespaceSelector(), path + ".namespaceSelector", c);
    }

    private static void tolerations(List<Kube.Toleration> ts, String path, Causes c) {
        if (ts == null) {
            return;
        }
        for (int i = 0; i < ts.size(); i++) {
            Kube.Toleration t = ts.get(i);
            if (t == null) {
                continue;
            }
            String tp = path + "[" + i + "]";
            String op = t.operator() == null || t.operator().isEmpty() ? "Equal" : t.operator();
            if (!TOLERATION_OPERATORS.contains(op)) {
                c.notSupported(tp + ".operator", t.operator(), TOLERATION_OPERATORS);
            }
            boolean emptyKey = t.key() == null || t.key().isEmpty();
            if (emptyKey && op.equals("Equal")) {
                c.invalid(tp + ".operator", op, "operator must be Exists when `key` is empty, which means \"match all values and all keys\"");
            } else if (!emptyKey && !Names.isQualifiedName(t.key())) {
                c.invalid(tp + ".key", t.key(), Names.QUALIFIED_NAME_MESSAGE);
            }
            if (op.equals("Exists") && t.value() != null && !t.value().isEmpty()) {
                c.invalid(tp + ".operator", t.value(), "value must be empty when `operator` is 'Exists'");
            }
            enumOptional(t.effect(), tp + ".effect", TAINT_EFFECTS, c);
        }
    }

    private static void spreadConstraints(List<Kube.TopologySpreadConstraint> cs, String path, Causes c) {
        if (cs == null) {
            return;
        }
        for (int i = 0; i < cs.size(); i++) {
            Kube.TopologySpreadConstraint t = cs.get(i);
            if (t == null) {
                continue;
            }
            String tp = path + "[" + i + "]";
            if (t.maxSkew() == null || t.maxSkew() <= 0) {
                c.invalid(tp + ".maxSkew", t.maxSkew(), "must be greater than zero");
            }
            if (t.topologyKey() == null || t.topologyKey().isEmpty()) {
                c.required(tp + ".topologyKey", "can not be empty");
            } else if (!Names.isQualifiedName(t.topologyKey())) {
                c.invalid(tp + ".topologyKey", t.topologyKey(), Names.QUALIFIED_NAME_MESSAGE);
            }
            enumRequired(t.whenUnsatisfiable(), tp + ".whenUnsatisfiable", WHEN_UNSATISFIABLE, c);
            if (t.minDomains() != null) {
                if (t.minDomains() <= 0) {
                    c.invalid(tp + ".minDomains", t.minDomains(), "must be greater than 0");
                } else if (!"DoNotSchedule".equals(t.whenUnsatisfiable())) {
                    c.invalid(tp + ".minDomains", t.minDomains(), "can only use minDomains if whenUnsatisfiable=DoNotSchedule");
                }
            }
            enumOptional(t.nodeAffinityPolicy(), tp + ".nodeAffinityPolicy", INCLUSION_POLICIES, c);
            enumOptional(t.nodeTaintsPolicy(), tp + ".nodeTaintsPolicy", INCLUSION_POLICIES, c);
            labelSelector(t.labelSelector(), tp + ".labelSelector", c);
        }
    }

    // ---------------------------------------------------------------- PodGroups and Workloads

    private static void validatePodGroups(List<Kube.PodGroup> groups, String root, Causes c) {
        Set<String> seen = new HashSet<>(groups.size() * 2);
        for (int i = 0; i < groups.size(); i++) {
            Kube.PodGroup g = groups.get(i);
            String path = root + "[" + i + "]";
            if (g == null) {
                c.required(path, "must be a PodGroup object");
                continue;
            }
            String name = validateMeta(g.metadata(), path, true, c);
            duplicate(seen, g.metadata(), name, true, path, c);
            Kube.PodGroupSpec s = g.spec();
            if (s == null) {
                c.required(path + ".spec", "a PodGroup needs a spec with a schedulingPolicy");
                continue;
            }
            String sp = path + ".spec";
            if (s.podGroupTemplateRef() != null) {
                Kube.WorkloadTemplateRef w = s.podGroupTemplateRef().workload();
                String rp = sp + ".podGroupTemplateRef";
                if (w == null) {
                    c.invalid(rp, "", "must specify one of: `workload`");
                } else {
                    longName(w.workloadName(), rp + ".workload.workloadName", true, c);
                    shortName(w.podGroupTemplateName(), rp + ".workload.podGroupTemplateName", true, c);
                }
            }
            templateFields(sp, s.schedulingPolicy(), s.schedulingConstraints(), s.resourceClaims(), s.disruptionMode(),
                    s.priorityClassName(), s.priority(), c);
        }
    }

    private static void validateWorkloads(List<Kube.Workload> workloads, String root, Causes c) {
        Set<String> seen = new HashSet<>(workloads.size() * 2);
        for (int i = 0; i < workloads.size(); i++) {
            Kube.Workload w = workloads.get(i);
            String path = root + "[" + i + "]";
            if (w == null) {
                c.required(path, "must be a Workload object");
                continue;
            }
            String name = validateMeta(w.metadata(), path, true, c);
            duplicate(seen, w.metadata(), name, true, path, c);
            Kube.WorkloadSpec s = w.spec();
            if (s == null) {
                c.required(path + ".spec", "a Workload needs a spec with podGroupTemplates");
                continue;
            }
            String sp = path + ".spec";
            Kube.TypedLocalObjectReference ref = s.controllerRef();
            if (ref != null) {
                if (ref.apiGroup() != null && !ref.apiGroup().isEmpty() && !Names.isDnsSubdomain(ref.apiGroup())) {
                    c.invalid(sp + ".controllerRef.apiGroup", ref.apiGroup(), Names.DNS_SUBDOMAIN_MESSAGE);
                }
                pathSegment(ref.kind(), sp + ".controllerRef.kind", c);
                pathSegment(ref.name(), sp + ".controllerRef.name", c);
            }
            List<Kube.PodGroupTemplate> ts = s.podGroupTemplates();
            String tp = sp + ".podGroupTemplates";
            if (ts == null || ts.isEmpty()) {
                c.required(tp, "a Workload needs at least one pod group template");
                continue;
            }
            if (ts.size() > MAX_TEMPLATES) {
                c.tooMany(tp, ts.size(), MAX_TEMPLATES);
            }
            Set<String> names = new HashSet<>();
            for (int t = 0; t < ts.size(); t++) {
                Kube.PodGroupTemplate tpl = ts.get(t);
                String ip = tp + "[" + t + "]";
                if (tpl == null) {
                    c.required(ip, "must be a pod group template");
                    continue;
                }
                if (shortName(tpl.name(), ip + ".name", true, c) && !names.add(tpl.name())) {
                    c.duplicate(ip, tpl.name());
                }
                templateFields(ip, tpl.schedulingPolicy(), tpl.schedulingConstraints(), tpl.resourceClaims(),
                        tpl.disruptionMode(), tpl.priorityClassName(), tpl.priority(), c);
            }
        }
    }

    /** The fields a PodGroup spec and a Workload's PodGroupTemplate share, with the same rules. */
    private static void templateFields(String path, Kube.SchedulingPolicy policy, Kube.SchedulingConstraints constraints,
                                       List<Kube.ClaimRef> claims, String disruptionMode, String priorityClassName,
                                       Integer priority, Causes c) {
        String pp = path + ".schedulingPolicy";
        if (policy == null) {
            c.required(pp, "exactly one of `basic`, `gang` must be set");
        } else if (policy.basic() == null && policy.gang() == null) {
            c.invalid(pp, "", UNION_NONE);
        } else if (policy.basic() != null && policy.gang() != null) {
            c.invalid(pp, "{`basic`, `gang`}", UNION_MANY);
        } else if (policy.gang() != null) {
            Integer min = policy.gang().minCount();
            if (min == null || min == 0) {
                c.required(pp + ".gang.minCount", "");
            } else if (min < 1) {
                c.invalid(pp + ".gang.minCount", min, "must be greater than or equal to 1");
            }
        }
        if (constraints != null && constraints.topology() != null) {
            List<Kube.TopologyConstraint> topo = constraints.topology();
            String tp = path + ".schedulingConstraints.topology";
            if (topo.size() > MAX_TOPOLOGY) {
                c.tooMany(tp, topo.size(), MAX_TOPOLOGY);
            }
            for (int i = 0; i < topo.size(); i++) {
                Kube.TopologyConstraint t = topo.get(i);
                labelKey(t == null ? null : t.key(), tp + "[" + i + "].key", c);
            }
        }
        claimRefs(claims, path + ".resourceClaims", MAX_CLAIMS, c);
        if (disruptionMode != null && !DISRUPTION_MODES.contains(disruptionMode)) {
            c.notSupported(path + ".disruptionMode", disruptionMode, DISRUPTION_MODES);
        }
        if (priorityClassName != null && !priorityClassName.isEmpty()) {
            longName(priorityClassName, path + ".priorityClassName", false, c);
        }
        if (priority != null && priority > MAX_USER_PRIORITY) {
            c.invalid(path + ".priority", priority, "must be less than or equal to " + MAX_USER_PRIORITY);
        }
    }

    /** Pod or PodGroup {@code resourceClaims}: named (DNS label, unique), exactly one of the two references. */
    private static void claimRefs(List<Kube.ClaimRef> claims, String path, int max, Causes c) {
        if (claims == null || claims.isEmpty()) {
            return;
        }
        if (claims.size() > max) {
            c.tooMany(path, claims.size(), max);
        }
        Map<String, Integer> names = new HashMap<>();
        for (int i = 0; i < claims.size(); i++) {
            Kube.ClaimRef r = claims.get(i);
            String ip = path + "[" + i + "]";
            if (r == null) {
                c.required(ip, "must be a resource claim reference");
                continue;
            }
            if (shortName(r.name(), ip + ".name", true, c) && names.putIfAbsent(r.name(), i) != null) {
                c.duplicate(ip, r.name());
            }
            boolean hasClaim = r.resourceClaimName() != null && !r.resourceClaimName().isEmpty();
            boolean hasTemplate = r.resourceClaimTemplateName() != null && !r.resourceClaimTemplateName().isEmpty();
            if (!hasClaim && !hasTemplate) {
                c.invalid(ip, "", "must specify one of: `resourceClaimName`, `resourceClaimTemplateName`");
            } else if (hasClaim && hasTemplate) {
                c.invalid(ip, "{`resourceClaimName`, `resourceClaimTemplateName`}",
                        "must specify exactly one of: `resourceClaimName`, `resourceClaimTemplateName`");
            }
            if (hasClaim) {
                longName(r.resourceClaimName(), ip + ".resourceClaimName", false, c);
            }
            if (hasTemplate) {
                longName(r.resourceClaimTemplateName(), ip + ".resourceClaimTemplateName", false, c);
            }
        }
    }

    // ---------------------------------------------------------------- other objects

    private static void validatePriorityClasses(List<Kube.PriorityClass> pcs, String root, Causes c) {
        Set<String> seen = new HashSet<>(pcs.size() * 2);
        for (int i = 0; i < pcs.size(); i++) {
            Kube.PriorityClass pc = pcs.get(i);
            String path = root + "[" + i + "]";
            if (pc == null) {
                c.required(path, "must be a PriorityClass object");
                continue;
            }
            String name = validateMeta(pc.metadata(), path, false, c);
            duplicate(seen, pc.metadata(), name, false, path, c);
            if (pc.value() == null) {
                c.required(path + ".value", "a PriorityClass needs a value");
            }
            enumOptional(pc.preemptionPolicy(), path + ".preemptionPolicy", PREEMPTION_POLICIES, c);
        }
    }

    private static void validatePdbs(List<Kube.PodDisruptionBudget> pdbs, String root, Causes c) {
        Set<String> seen = new HashSet<>(pdbs.size() * 2);
        for (int i = 0; i < pdbs.size(); i++) {
            Kube.PodDisruptionBudget b = pdbs.get(i);
            String path = root + "[" + i + "]";
            if (b == null) {
                c.required(path, "must be a PodDisruptionBudget object");
                continue;
            }
            String name = validateMeta(b.metadata(), path, true, c);
            duplicate(seen, b.metadata(), name, true, path, c);
            if (b.spec() != null) {
                labelSelector(b.spec().selector(), path + ".spec.selector", c);
            }
        }
    }

    private void validateMetaOnly(List<Kube.MetaOnly> objects, String root, boolean namespaced, Causes c) {
        if (!tooMany(objects, root, limits.maxObjects(), c)) {
            return;
        }
        Set<String> seen = new HashSet<>(objects.size() * 2);
        for (int i = 0; i < objects.size(); i++) {
            Kube.MetaOnly o = objects.get(i);
            String path = root + "[" + i + "]";
            if (o == null) {
                c.required(path, "must be an object");
                continue;
            }
            String name = validateMeta(o.metadata(), path, namespaced, c);
            duplicate(seen, o.metadata(), name, namespaced, path, c);
        }
    }

    // ---------------------------------------------------------------- field formats

    /** DNS label ({@code k8s-short-name}); returns whether it is present and valid. */
    private static boolean shortName(String v, String path, boolean required, Causes c) {
        if (v == null || v.isEmpty()) {
            if (required) {
                c.required(path, "");
            }
            return false;
        }
        if (!Names.isDnsLabel(v)) {
            c.invalid(path, v, Names.DNS_LABEL_MESSAGE);
            return false;
        }
        return true;
    }

    /** DNS subdomain ({@code k8s-long-name}). */
    private static void longName(String v, String path, boolean required, Causes c) {
        if (v == null || v.isEmpty()) {
            if (required) {
                c.required(path, "");
            }
        } else if (!Names.isDnsSubdomain(v)) {
            c.invalid(path, v, Names.DNS_SUBDOMAIN_MESSAGE);
        }
    }

    private static void labelKey(String v, String path, Causes c) {
        if (v == null || v.isEmpty()) {
            c.required(path, "");
        } else if (!Names.isQualifiedName(v)) {
            c.invalid(path, v, Names.QUALIFIED_NAME_MESSAGE);
        }
    }

    private static void pathSegment(String v, String path, Causes c) {
        if (v == null || v.isEmpty()) {
            c.required(path, "");
        } else if (!Names.isPathSegmentName(v)) {
            c.invalid(path, v, Names.PATH_SEGMENT_MESSAGE);
        }
    }

    private static void enumRequired(String v, String path, List<String> supported, Causes c) {
        if (v == null || v.isEmpty()) {
            c.required(path, "");
        } else if (!supported.contains(v)) {
            c.notSupported(path, v, supported);
        }
    }

    private static void enumOptional(String v, String path, List<String> supported, Causes c) {
        if (v != null && !v.isEmpty() && !supported.contains(v)) {
            c.notSupported(path, v, supported);
        }
    }
}
