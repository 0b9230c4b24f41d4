package dev.muster.adapter.kube;

import dev.muster.core.decision.DecisionOptions;
import dev.muster.core.decision.DecisionRequest;
import dev.muster.core.dra.DeviceSelector;
import dev.muster.core.dra.DraObjects;
import dev.muster.core.model.Affinity;
import dev.muster.core.model.ClusterState;
import dev.muster.core.model.ExtendedClaimStatus;
import dev.muster.core.model.GroupRef;
import dev.muster.core.model.HostPort;
import dev.muster.core.model.LabelSelector;
import dev.muster.core.model.Node;
import dev.muster.core.model.NodeSelectorRequirement;
import dev.muster.core.model.NodeSelectorTerm;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodAffinityTerm;
import dev.muster.core.model.PodClaimRef;
import dev.muster.core.model.PodDisruptionBudget;
import dev.muster.core.model.PodGroup;
import dev.muster.core.model.PodRef;
import dev.muster.core.model.PreferredSchedulingTerm;
import dev.muster.core.model.PriorityClass;
import dev.muster.core.model.ResourceList;
import dev.muster.core.model.Taint;
import dev.muster.core.model.TaintEffect;
import dev.muster.core.model.Toleration;
import dev.muster.core.model.TopologySpreadConstraint;
import dev.muster.core.model.WeightedPodAffinityTerm;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Compiles a validated {@link RequestDocument} into the core model. Applies what the API server would have applied
 * on admission: defaults (namespace {@code default}, toleration operator {@code Equal}, disruptionMode {@code Pod},
 * spread policies Honor/Ignore), {@code matchLabelKeys}/{@code mismatchLabelKeys} merged into label selectors
 * using the pod's own labels, effective requests ({@link EffectiveRequests}), allocatable falling back to capacity.
 *
 * <p>Precondition: the document passed {@code RequestValidator} without causes; on unvalidated input this may
 * throw. It runs over 50,000-pod snapshots: plain loops, pre-sized lists, no regex, no reflection.
 * PodGroups of every accepted gang shape, Workloads (template links, 1.35 embedded groups) and Jobs become the
 * ClusterState's PodGroups through {@link GangMapper}, which also says which group each pod joins; DRA objects go to
 * the request through {@link DraMapper}.
 */
public final class KubeMapper {
    private KubeMapper() {
    }

    /**
     * The request without DRA selectors compiled: a request whose device classes or claims carry selectors needs
     * {@link #toDecisionRequest(RequestDocument, java.util.function.Function)}.
     */
    public static DecisionRequest toDecisionRequest(RequestDocument doc) {
        return toDecisionRequest(doc, expression -> {
            throw new IllegalStateException("no device selector compiler for " + expression);
        });
    }

    /** @param selectors compiles DRA device selectors (CEL expressions) */
    public static DecisionRequest toDecisionRequest(RequestDocument doc,
                                                    java.util.function.Function<String, DeviceSelector> selectors) {
        DraObjects dra = requestDraObjects(doc.snapshot(), selectors);
        return toDecisionRequest(doc, toClusterState(doc.snapshot()), dra);
    }

    /**
     * The request from its two independent parts, mapped apart (e.g. on two threads): the cluster
     * ({@link #toClusterState}) and the DRA objects ({@link #draObjects}) of the same document.
     */
    public static DecisionRequest toDecisionRequest(RequestDocument doc, ClusterState cluster, DraObjects dra) {
        DecisionOptions options = options(doc.options());
        List<GroupRef> groups = null;
        if (doc.podGroups() != null) {
            groups = new ArrayList<>(doc.podGroups().size());
            for (String s : doc.podGroups()) {
                groups.add(GroupRef.parse(s, "default"));
            }
        }
        List<PodRef> pods = null;
        if (doc.pods() != null) {
            pods = new ArrayList<>(doc.pods().size());
            for (String s : doc.pods()) {
                int slash = s.indexOf('/');
                pods.add(new PodRef(s.substring(0, slash), s.substring(slash + 1)));
            }
        }
        return new DecisionRequest(cluster, groups, options, dra, pods);
    }

    /** The request's options: preemption unless turned off, no explanation unless asked for. */
    public static DecisionOptions options(RequestDocument.Options o) {
        return new DecisionOptions(o == null || o.preemption() == null || o.preemption(),
                o != null && o.explain() != null && o.explain());
    }

    /**
     * The snapshot's DeviceClasses, ResourceSlices, ResourceClaims and templates in the core model, every device
     * attribute kept: for objects that may meet claims from elsewhere (a workload placed on a cluster's snapshot).
     */
    public static DraObjects draObjects(RequestDocument.Snapshot s,
                                        java.util.function.Function<String, DeviceSelector> selectors) {
        return new DraMapper(selectors).map(s.deviceClasses(), s.resourceSlices(), s.resourceClaims(),
                s.resourceClaimTemplates());
    }

    /**
     * The DRA objects of a decision's snapshot, which holds every claim the decision reads: devices keep only the
     * attributes the request's selectors and constraints read ({@link DraMapper#mapRequest}).
     */
    public static DraObjects requestDraObjects(RequestDocument.Snapshot s,
                                               java.util.function.Function<String, DeviceSelector> selectors) {
        return new DraMapper(selectors).mapRequest(s.deviceClasses(), s.resourceSlices(), s.resourceClaims(),
                s.resourceClaimTemplates());
    }

    /**
     * Whether {@link #toClusterState} reads the snapshot list named {@code field}: every list but the DRA objects
     * (DeviceClasses, ResourceSlices, ResourceClaims and their templates), and any field this mapper does not know.
     */
    public static boolean readsForCluster(String field) {
        return switch (field) {
            case "deviceClasses", "resourceSlices", "resourceClaims", "resourceClaimTemplates" -> false;
            default -> true;
        };
    }

    /** Whether two snapshots hold the very same lists (the same objects) of those {@link #toClusterState} reads. */
    public static boolean sameClusterLists(RequestDocument.Snapshot a, RequestDocument.Snapshot b) {
        return a.nodes() == b.nodes() && a.pods() == b.pods() && a.podGroups() == b.podGroups()
                && a.workloads() == b.workloads() && a.priorityClasses() == b.priorityClasses()
                && a.podDisruptionBudgets() == b.podDisruptionBudgets() && a.jobs() == b.jobs()
                && a.compositePodGroups() == b.compositePodGroups() && a.hyperNodes() == b.hyperNodes();
    }

    public static ClusterState toClusterState(RequestDocument.Snapshot s) {
        HyperNodeTiers.Result tiers = HyperNodeTiers.of(s.hyperNodes(), s.nodes());
        List<Node> nodes = tiers.labels().isEmpty() ? map(s.nodes(), KubeMapper::node)
                : map(s.nodes(), n -> withTiers(node(n), tiers.labels().get(n.metadata().name())));
        PodValues shared = new PodValues();
        GangMapper gangs = new GangMapper(s, tiers);
        List<Pod> pods = map(s.pods(), p -> pod(p, shared, gangs));
        List<PodGroup> groups = CompositeMapper.withParents(gangs.groups(), s.podGroups(), s.compositePodGroups());
        List<PriorityClass> pcs = map(s.priorityClasses(), KubeMapper::priorityClass);
        List<PodDisruptionBudget> pdbs = map(s.podDisruptionBudgets(), KubeMapper::pdb);
        return new ClusterState(nodes, pods, groups, pcs, pdbs, CompositeMapper.composites(s.compositePodGroups()));
    }

    private static <A, B> List<B> map(List<A> in, java.util.function.Function<A, B> f) {
        if (in == null || in.isEmpty()) {
            return List.of();
        }
        List<B> out = new ArrayList<>(in.size());
        for (A a : in) {
            out.add(f.apply(a));
        }
        return out;
    }

    // ---------------------------------------------------------------- Node

    public static Node node(Kube.Node n) {
        Kube.ObjectMeta m = n.metadata();
        Kube.NodeSpec spec = n.spec();
        List<Taint> taints = List.of();
        boolean unschedulable = false;
        if (spec != null) {
            unschedulable = Boolean.TRUE.equals(spec.unschedulable());
            if (spec.taints() != null && !spec.taints().isEmpty()) {
                taints = new ArrayList<>(spec.taints().size());
                for (Kube.Taint t : spec.taints()) {
                    taints.add(new Taint(t.key(), t.value(), taintEffect(t.effect())));
                }
            }
        }
        ResourceList allocatable = ResourceList.EMPTY;
        if (n.status() != null) {
            allocatable = EffectiveRequests.ofAmounts(
                    n.status().allocatable() != null ? n.status().allocatable() : n.status().capacity());
        }
        return new Node(m.name(), m.uid(), m.labels(), taints, unschedulable, allocatable);
    }

    /** The node with the tier labels its HyperNodes give it ({@link HyperNodeTiers}); as it is without any. */
    private static Node withTiers(Node n, Map<String, String> tiers) {
        if (tiers == null || tiers.isEmpty()) {
            return n;
        }
        Map<String, String> labels = new java.util.HashMap<>(n.labels());
        labels.putAll(tiers);
        return new Node(n.name(), n.uid(), labels, n.taints(), n.unschedulable(), n.allocatable());
    }

    // ---------------------------------------------------------------- Pod

    /** A pod on its own: it joins a group through its own fields only (no Job is known). */
    public static Pod pod(Kube.Pod p) {
        return pod(p, null, new GangMapper(new RequestDocument.Snapshot(null, null, null, null, null, null, null,
                null, null, null)));
    }

    private static Pod pod(Kube.Pod p, PodValues shared, GangMapper gangs) {
        Kube.ObjectMeta m = p.metadata();
        Kube.PodSpec spec = p.spec();
        Map<String, String> labels = m.labels() == null ? Map.of() : m.labels();
        PodRef ref = new PodRef(m.namespaceOrDefault(), m.name());
        long created = Timestamps.epochSecondsOrMax(m.creationTimestamp());
        boolean terminating = m.deletionTimestamp() != null && !m.deletionTimestamp().isEmpty();
        String phase = p.status() == null ? null : p.status().phase();
        String nominated = p.status() == null ? null : p.status().nominatedNodeName();
        if (nominated != null && nominated.isEmpty()) {
            nominated = null;
        }
        String group = gangs.memberName(p, m, labels);
        String role = gangs.role(group, m, labels);
        Map<String, String> kept = shared == null ? labels : shared.labels(labels);
        if (spec == null) {
            return new Pod(ref, m.uid(), kept, created, null, phase, null, ResourceList.EMPTY, null, null, null,
                    null, null, null, null, null, null, group, null, nominated, terminating, null, role);
        }
        return new Pod(ref, m.uid(), kept, created, spec.nodeName(), phase, spec.schedulerName(),
                shared == null ? EffectiveRequests.of(spec) : shared.requests(spec), spec.priority(), spec.priorityClassName(), spec.preemptionPolicy(),
                spec.nodeSelector(), shared == null ? affinity(spec.affinity(), labels)
                        : shared.affinity(spec.affinity(), labels), tolerations(spec.tolerations(), shared),
                hostPorts(spec), spreadConstraints(spec.topologySpreadConstraints(), labels),
                gates(spec.schedulingGates()), group, claims(spec.resourceClaims()), nominated, terminating,
                claimStatuses(p.status() == null ? null : p.status().resourceClaimStatuses()), role,
                ExtendedRequests.of(spec), extendedClaim(p.status()));
    }

    private static List<Toleration> tolerations(List<Kube.Toleration> in, PodValues shared) {
        if (in == null || in.isEmpty()) {
            return List.of();
        }
        return shared == null ? tolerations(in) : shared.tolerations(in);
    }

    static List<Toleration> tolerations(List<Kube.Toleration> in) {
        Toleration[] out = new Toleration[in.size()];
        for (int i = 0; i < out.length; i++) {
            Kube.Toleration t = in.get(i);
            TaintEffect effect = t.effect() == null || t.effect().isEmpty() ? null : taintEffect(t.effect());
            out[i] = new Toleration(t.key(), tolerationOperator(t.operator()), t.value(), effect);
        }
        return List.of(out);
    }

    /** Host ports of regular containers and sidecars (the containers that run alongside each other). */
    private static List<HostPort> hostPorts(Kube.PodSpec spec) {
        List<HostPort> out = null;
        out = addHostPorts(out, spec.containers(), false);
        out = addHostPorts(out, spec.initContainers(), true);
        return out == null ? List.of() : out;
    }

    private static List<HostPort> addHostPorts(List<HostPort> out, List<Kube.Container> cs, boolean sidecarsOnly) {
        if (cs == null) {
            return out;
        }
        for (Kube.Container c : cs) {
            if (c.ports() == null || (sidecarsOnly && !c.isSidecar())) {
                continue;
            }
            for (Kube.ContainerPort port : c.ports()) {
                if (port.hostPort() != null && port.hostPort() > 0) {
                    if (out == null) {
                        out = new ArrayList<>(2);
                    }
                    out.add(new HostPort(port.hostIP(), port.protocol(), port.hostPort()));
                }
            }
        }
        return out;
    }

    private static List<String> gates(List<Kube.SchedulingGate> in) {
        if (in == null || in.isEmpty()) {
            return List.of();
        }
        List<String> out = new ArrayList<>(in.size());
        for (Kube.SchedulingGate g : in) {
            out.add(g.name());
        }
        return out;
    }

    static List<PodClaimRef> podClaims(List<Kube.ClaimRef> in) {
        return claims(in);
    }

    private static List<PodClaimRef> claims(List<Kube.ClaimRef> in) {
        if (in == null || in.isEmpty()) {
            return List.of();
        }
        List<PodClaimRef> out = new ArrayList<>(in.size());
        for (Kube.ClaimRef c : in) {
            out.add(new PodClaimRef(c.name(), c.resourceClaimName(), c.resourceClaimTemplateName()));
        }
        return out;
    }

    // ---------------------------------------------------------------- enums
    // Enum.valueOf hashes the (fresh, unhashed) string and looks it up in a map, once per toleration, taint and
    // requirement of 50,000 pods; comparing against the few constants is cheaper. Unknown names still throw.

    static TaintEffect taintEffect(String s) {
        if ("NoSchedule".equals(s)) {
            return TaintEffect.NoSchedule;
        }
        if ("NoExecute".equals(s)) {
            return TaintEffect.NoExecute;
        }
        if ("PreferNoSchedule".equals(s)) {
            return TaintEffect.PreferNoSchedule;
        }
        return TaintEffect.valueOf(s);
    }

    /** The toleration operator, {@code Equal} when absent (the API server's default). */
    static Toleration.Operator tolerationOperator(String s) {
        if (s == null || s.isEmpty() || "Equal".equals(s)) {
            return Toleration.Operator.Equal;
        }
        if ("Exists".equals(s)) {
            return Toleration.Operator.Exists;
        }
        return Toleration.Operator.valueOf(s);
    }

    static NodeSelectorRequirement.Operator nodeOperator(String s) {
        return switch (s.length()) {
            case 2 -> "In".equals(s) ? NodeSelectorRequirement.Operator.In
                    : "Gt".equals(s) ? NodeSelectorRequirement.Operator.Gt
                    : "Lt".equals(s) ? NodeSelectorRequirement.Operator.Lt : NodeSelectorRequirement.Operator.valueOf(s);
            case 5 -> "NotIn".equals(s) ? NodeSelectorRequirement.Operator.NotIn : NodeSelectorRequirement.Operator.valueOf(s);
            case 6 -> "Exists".equals(s) ? NodeSelectorRequirement.Operator.Exists : NodeSelectorRequirement.Operator.valueOf(s);
            default -> NodeSelectorRequirement.Operator.valueOf(s);
        };
    }

    static LabelSelector.Operator labelOperator(String s) {
        return switch (s.length()) {
            case 2 -> "In".equals(s) ? LabelSelector.Operator.In : LabelSelector.Operator.valueOf(s);
            case 5 -> "NotIn".equals(s) ? LabelSelector.Operator.NotIn : LabelSelector.Operator.valueOf(s);
            case 6 -> "Exists".equals(s) ? LabelSelector.Operator.Exists : LabelSelector.Operator.valueOf(s);
            default -> LabelSelector.Operator.valueOf(s);
        };
    }

    // ---------------------------------------------------------------- affinity and selectors

    static Affinity affinity(Kube.Affinity a, Map<String, String> podLabels) {
        if (a == null) {
            return Affinity.NONE;
        }
        List<NodeSelectorTerm> required = null;
        List<PreferredSchedulingTerm> preferred = List.of();
        Kube.NodeAffinity na = a.nodeAffinity();
        if (na != null) {
            if (na.requiredDuringSchedulingIgnoredDuringExecution() != null) {
                List<Kube.NodeSelectorTerm> terms = na.requiredDuringSchedulingIgnoredDuringExecution().nodeSelectorTerms();
                required = new ArrayList<>(terms == null ? 0 : terms.size());
                if (terms != null) {
                    for (Kube.NodeSelectorTerm t : terms) {
                        required.add(nodeSelectorTerm(t));
                    }
                }
            }
            List<Kube.PreferredSchedulingTerm> pref = na.preferredDuringSchedulingIgnoredDuringExecution();
            if (pref != null && !pref.isEmpty()) {
                preferred = new ArrayList<>(pref.size());
                for (Kube.PreferredSchedulingTerm t : pref) {
                    preferred.add(new PreferredSchedulingTerm(t.weight() == null ? 0 : t.weight(),
                            nodeSelectorTerm(t.preference())));
                }
            }
        }
        Kube.PodAffinity pa = a.podAffinity();
        Kube.PodAffinity anti = a.podAntiAffinity();
        return new Affinity(required, preferred,
                pa == null ? null : podTerms(pa.requiredDuringSchedulingIgnoredDuringExecution(), podLabels),
                pa == null ? null : weightedTerms(pa.preferredDuringSchedulingIgnoredDuringExecution(), podLabels),
                anti == null ? null : podTerms(anti.requiredDuringSchedulingIgnoredDuringExecution(), podLabels),
                anti == null ? null : weightedTerms(anti.preferredDuringSchedulingIgnoredDuringExecution(), podLabels));
    }

    static List<NodeSelectorTerm> nodeSelectorTerms(Kube.NodeSelector s) {
        List<NodeSelectorTerm> out = new ArrayList<>();
        if (s.nodeSelectorTerms() != null) {
            for (Kube.NodeSelectorTerm t : s.nodeSelectorTerms()) {
                out.add(nodeSelectorTerm(t));
            }
        }
        return out;
    }

    private static NodeSelectorTerm nodeSelectorTerm(Kube.NodeSelectorTerm t) {
        if (t == null) {
            return new NodeSelectorTerm(List.of(), List.of());
        }
        return new NodeSelectorTerm(nodeRequirements(t.matchExpressions()), nodeRequirements(t.matchFields()));
    }

    private static List<NodeSelectorRequirement> nodeRequirements(List<Kube.Requirement> in) {
        if (in == null || in.isEmpty()) {
            return List.of();
        }
        List<NodeSelectorRequirement> out = new ArrayList<>(in.size());
        for (Kube.Requirement r : in) {
            out.add(new NodeSelectorRequirement(r.key(), nodeOperator(r.operator()),
                    r.values()));
        }
        return out;
    }

    private static List<PodAffinityTerm> podTerms(List<Kube.PodAffinityTerm> in, Map<String, String> podLabels) {
        if (in == null || in.isEmpty()) {
            return List.of();
        }
        List<PodAffinityTerm> out = new ArrayList<>(in.size());
        for (Kube.PodAffinityTerm t : in) {
            out.add(podTerm(t, podLabels));
        }
        return out;
    }

    private static List<WeightedPodAffinityTerm> weightedTerms(List<Kube.WeightedPodAffinityTerm> in,
                                                               Map<String, String> podLabels) {
        if (in == null || in.isEmpty()) {
            return List.of();
        }
        List<WeightedPodAffinityTerm> out = new ArrayList<>(in.size());
        for (Kube.WeightedPodAffinityTerm t : in) {
            out.add(new WeightedPodAffinityTerm(t.weight() == null ? 0 : t.weight(),
                    podTerm(t.podAffinityTerm(), podLabels)));
        }
        return out;
    }

    private static PodAffinityTerm podTerm(Kube.PodAffinityTerm t, Map<String, String> podLabels) {
        LabelSelector selector = labelSelector(t.labelSelector());
        if (selector != null) {
            selector = mergeKeys(selector, t.matchLabelKeys(), LabelSelector.Operator.In, podLabels);
            selector = mergeKeys(selector, t.mismatchLabelKeys(), LabelSelector.Operator.NotIn, podLabels);
        }
        return new PodAffinityTerm(selector, t.namespaces(), labelSelector(t.namespaceSelector()), t.topologyKey());
    }

    /** A Kubernetes label selector; null stays null (matches nothing where the API allows a null selector). */
    public static LabelSelector labelSelector(Kube.LabelSelector s) {
        if (s == null) {
            return null;
        }
        List<LabelSelector.Requirement> reqs = List.of();
        if (s.matchExpressions() != null && !s.matchExpressions().isEmpty()) {
            reqs = new ArrayList<>(s.matchExpressions().size());
            for (Kube.Requirement r : s.matchExpressions()) {
                reqs.add(new LabelSelector.Requirement(r.key(), labelOperator(r.operator()),
                        r.values()));
            }
        }
        return new LabelSelector(s.matchLabels(), reqs);
    }

    /** The API server's merge of matchLabelKeys (In) / mismatchLabelKeys (NotIn): keys the pod has a label for. */
    private static LabelSelector mergeKeys(LabelSelector selector, List<String> keys, LabelSelector.Operator op,
                                           Map<String, String> podLabels) {
        if (keys == null || keys.isEmpty()) {
            return selector;
        }
        List<LabelSelector.Requirement> reqs = new ArrayList<>(selector.matchExpressions().size() + keys.size());
        reqs.addAll(selector.matchExpressions());
        boolean added = false;
        for (String key : keys) {
            String v = podLabels.get(key);
            if (v != null) {
                reqs.add(new LabelSelector.Requirement(key, op, List.of(v)));
                added = true;
            }
        }
        return added ? new LabelSelector(selector.matchLabels(), reqs) : selector;
    }

    private static List<TopologySpreadConstraint> spreadConstraints(List<Kube.TopologySpreadConstraint> in,
                                                                    Map<String, String> podLabels) {
        if (in == null || in.isEmpty()) {
            return List.of();
        }
        List<TopologySpreadConstraint> out = new ArrayList<>(in.size());
        for (Kube.TopologySpreadConstraint c : in) {
            LabelSelector selector = labelSelector(c.labelSelector());
            if (selector != null) {
                selector = mergeKeys(selector, c.matchLabelKeys(), LabelSelector.Operator.In, podLabels);
            }
            out.add(new TopologySpreadConstraint(c.maxSkew() == null ? 1 : c.maxSkew(), c.topologyKey(),
                    !"ScheduleAnyway".equals(c.whenUnsatisfiable()), selector, c.minDomains(),
                    !"Ignore".equals(c.nodeAffinityPolicy()), "Honor".equals(c.nodeTaintsPolicy()),
                    c.matchLabelKeys()));
        }
        return out;
    }

    // ---------------------------------------------------------------- PodGroup, PriorityClass, PDB

    /** One PodGroup of any accepted shape, without the Workload link checks (see {@link GangMapper}). */
    public static PodGroup podGroup(Kube.PodGroup g) {
        return new GangMapper(new RequestDocument.Snapshot(null, null, List.of(g), null, null, null, null, null,
                null, null)).podGroup(g);
    }

    /** {@code status.resourceClaimStatuses}: entry name → generated claim name ("" when none is needed). */
    static Map<String, String> claimStatuses(List<Kube.ClaimStatus> in) {
        if (in == null || in.isEmpty()) {
            return Map.of();
        }
        Kube.ClaimStatus only = in.size() == 1 ? in.get(0) : null;
        if (only != null && only.name() != null) { // the usual pod: one claim (the pod's model sorts the map anyway)
            return Map.of(only.name(), only.resourceClaimName() == null ? "" : only.resourceClaimName());
        }
        Map<String, String> out = new java.util.TreeMap<>();
        for (Kube.ClaimStatus c : in) {
            if (c != null && c.name() != null) { // a status without a name is refused by validation; read as absent
                out.put(c.name(), c.resourceClaimName() == null ? "" : c.resourceClaimName());
            }
        }
        return out;
    }

    /** {@code status.extendedResourceClaimStatus}, or null when absent or naming no claim. */
    static ExtendedClaimStatus extendedClaim(Kube.PodStatus status) {
        Kube.ExtendedClaimStatus in = status == null ? null : status.extendedResourceClaimStatus();
        if (in == null || in.resourceClaimName() == null || in.resourceClaimName().isEmpty()) {
            return null;
        }
        List<ExtendedClaimStatus.Mapping> mappings = new ArrayList<>();
        if (in.requestMappings() != null) {
            for (Kube.ExtendedRequestMapping m : in.requestMappings()) {
                if (m != null) {
                    mappings.add(new ExtendedClaimStatus.Mapping(orEmpty(m.containerName()), orEmpty(m.resourceName()),
                            orEmpty(m.requestName())));
                }
            }
        }
        return new ExtendedClaimStatus(in.resourceClaimName(), mappings);
    }

    private static String orEmpty(String s) {
        return s == null ? "" : s;
    }

    public static PriorityClass priorityClass(Kube.PriorityClass pc) {
        return new PriorityClass(pc.metadata().name(), pc.value() == null ? 0 : pc.value(),
                Boolean.TRUE.equals(pc.globalDefault()), pc.preemptionPolicy());
    }

    public static PodDisruptionBudget pdb(Kube.PodDisruptionBudget b) {
        Kube.ObjectMeta m = b.metadata();
        LabelSelector selector = b.spec() == null ? null : labelSelector(b.spec().selector());
        int allowed = b.status() == null || b.status().disruptionsAllowed() == null ? 0 : b.status().disruptionsAllowed();
        return new PodDisruptionBudget(new PodRef(m.namespaceOrDefault(), m.name()), selector, allowed);
    }
}
