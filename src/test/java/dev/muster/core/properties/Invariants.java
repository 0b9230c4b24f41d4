package dev.muster.core.properties;

import dev.muster.core.decision.Assignment;
import dev.muster.core.decision.Decision;
import dev.muster.core.decision.DecisionResult;
import dev.muster.core.decision.Outcome;
import dev.muster.core.decision.PodStatus;
import dev.muster.core.model.ClusterState;
import dev.muster.core.model.GroupRef;
import dev.muster.core.model.HostPort;
import dev.muster.core.model.LabelSelector;
import dev.muster.core.model.Node;
import dev.muster.core.model.NodeSelectorRequirement;
import dev.muster.core.model.NodeSelectorTerm;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodAffinityTerm;
import dev.muster.core.model.PodGroup;
import dev.muster.core.model.PodRef;
import dev.muster.core.model.Taint;
import dev.muster.core.model.TaintEffect;
import dev.muster.core.model.Toleration;
import dev.muster.core.model.TopologySpreadConstraint;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The invariants of docs/api.md, checked from outside the engine: only the request's model objects and the response
 * are read, and every rule (capacity, taints, selectors, ports, anti-affinity, spread, gang, topology, gates) is
 * re-implemented here in the plainest way, without calling any engine or plugin code. {@link #check} returns one
 * line per violation; an empty list means the response keeps every invariant.
 */
public final class Invariants {
    static final String[] RESOURCES = {"cpu", "memory", ClusterGen.GPU};

    private final ClusterState state;
    private final DecisionResult result;
    private final Map<String, Node> nodes = new TreeMap<>();
    private final Map<PodRef, Pod> pods = new HashMap<>();
    private final Map<GroupRef, PodGroup> groups = new HashMap<>();
    /** Where each pod is in the final state: bound non-terminal pods and every placement of the response. */
    private final Map<String, List<Pod>> onNode = new TreeMap<>();
    private final Map<PodRef, String> placedOn = new HashMap<>();
    private final List<String> violations = new ArrayList<>();

    private Invariants(ClusterState state, DecisionResult result) {
        this.state = state;
        this.result = result;
        for (Node n : state.nodes()) {
            nodes.put(n.name(), n);
            onNode.put(n.name(), new ArrayList<>());
        }
        for (Pod p : state.pods()) {
            pods.put(p.ref(), p);
            if (p.nodeName() != null && !terminal(p) && onNode.containsKey(p.nodeName())) {
                onNode.get(p.nodeName()).add(p);
            }
        }
        for (PodGroup g : state.podGroups()) {
            groups.put(g.ref(), g);
        }
    }

    public static List<String> check(ClusterState state, DecisionResult result) {
        return check(state, result, null);
    }

    /**
     * As {@link #check(ClusterState, DecisionResult)} for a request that named {@code selectedGroups} (null: it named
     * nothing, so every group with a pending member is decided): a named group is decided, no other group is.
     */
    public static List<String> check(ClusterState state, DecisionResult result, Set<GroupRef> selectedGroups) {
        Invariants inv = new Invariants(state, result);
        inv.selectedGroups = selectedGroups;
        inv.plain = new PlainPodInvariants(inv.pods, inv.groups, inv::fail);
        inv.run();
        return inv.violations;
    }

    private Set<GroupRef> selectedGroups;
    private PlainPodInvariants plain;

    private void fail(String format, Object... args) {
        violations.add(String.format(format, args));
    }

    private void run() {
        checkPlacementsNamePendingMembers();
        if (!violations.isEmpty()) {
            return; // the remaining checks assume placements name real pending pods and nodes
        }
        applyPreemptions();
        checkCapacity();
        for (Decision d : result.decisions()) {
            for (Assignment a : d.placements()) {
                checkFilters(pods.get(a.pod()), nodes.get(a.node()));
            }
            if (d.pod() != null) {
                plain.checkDecision(d);
                continue;
            }
            checkGroupPolicy(d);
            checkTopology(d);
        }
        checkGated();
        checkDecisionOrder();
    }

    static boolean terminal(Pod p) {
        return "Succeeded".equals(p.phase()) || "Failed".equals(p.phase());
    }

    static boolean pending(Pod p) {
        return p.nodeName() == null && !terminal(p) && !p.terminating();
    }

    // (f) placements name only pending, ungated members of the decided group, each pod at most once.
    private void checkPlacementsNamePendingMembers() {
        Set<PodRef> seen = new HashSet<>();
        for (Decision d : result.decisions()) {
            for (Assignment a : d.placements()) {
                Pod p = pods.get(a.pod());
                if (p == null) {
                    fail("%s: placement of unknown pod %s", d.podGroup(), a.pod());
                    continue;
                }
                if (!nodes.containsKey(a.node())) {
                    fail("%s: %s placed on unknown node %s", d.podGroup(), a.pod(), a.node());
                    continue;
                }
                if (!seen.add(a.pod())) {
                    fail("%s placed more than once in the response", a.pod());
                }
                if (!pending(p)) {
                    fail("%s placed but it is not pending (nodeName=%s phase=%s)", a.pod(), p.nodeName(), p.phase());
                }
                if (!p.schedulingGates().isEmpty()) {
                    fail("%s placed although it has scheduling gates %s", a.pod(), p.schedulingGates());
                }
                if (d.pod() != null) {
                    if (!d.pod().equals(a.pod()) || p.podGroupName() != null) {
                        fail("%s placed in the plain pod decision of %s (its group: %s)", a.pod(), d.pod(),
                                p.podGroupName());
                    }
                } else if (!d.podGroup().name().equals(p.podGroupName())
                        || !d.podGroup().namespace().equals(p.ref().namespace())) {
                    fail("%s placed in the decision of %s but its group is %s", a.pod(), d.podGroup(),
                            p.podGroupName());
                }
                placedOn.put(a.pod(), a.node());
                onNode.get(a.node()).add(p);
            }
        }
    }

    /**
     * Victims of a Preempting decision are gone for every later decision, and its nominated pods hold their nodes:
     * the final state the capacity and filter checks read.
     */
    private void applyPreemptions() {
        for (Decision d : result.decisions()) {
            for (Assignment v : d.victims()) {
                List<Pod> here = onNode.get(v.node());
                if (here != null) {
                    here.removeIf(p -> p.ref().equals(v.pod()));
                }
            }
            for (Assignment n : d.nominations()) {
                Pod p = pods.get(n.pod());
                if (p != null && onNode.containsKey(n.node())) {
                    onNode.get(n.node()).add(p);
                }
            }
        }
    }

    // (a) no node given more than its allocatable.
    private void checkCapacity() {
        Set<String> touched = new TreeSet<>(placedOn.values());
        for (String name : touched) {
            Node n = nodes.get(name);
            List<Pod> here = onNode.get(name);
            for (String res : RESOURCES) {
                long sum = 0;
                for (Pod p : here) {
                    sum += p.requests().get(res);
                }
                long alloc = n.allocatable().get(res);
                if (sum > alloc) {
                    boolean anyRequest = false;
                    for (Pod p : here) {
                        anyRequest |= placedOn.containsKey(p.ref()) && p.requests().get(res) > 0;
                    }
                    if (anyRequest) {
                        fail("node %s: %s requested %d > allocatable %d after placements", name, res, sum, alloc);
                    }
                }
            }
            if (here.size() > n.allocatable().get("pods")) {
                fail("node %s: %d pods > allocatable pods %d", name, here.size(), n.allocatable().get("pods"));
            }
        }
    }

    // (b) the filters a kube-scheduler applies, for one placement, over the final state.
    private void checkFilters(Pod p, Node n) {
        String where = p.ref().name() + " on " + n.name();
        if (n.unschedulable() && !tolerates(p.tolerations(),
                new Taint(ClusterGen.UNSCHEDULABLE_TAINT, "", TaintEffect.NoSchedule))) {
            fail("%s: node is unschedulable and not tolerated", where);
        }
        for (Taint t : n.taints()) {
            if (t.effect() != TaintEffect.PreferNoSchedule && !tolerates(p.tolerations(), t)) {
                fail("%s: untolerated taint %s=%s:%s", where, t.key(), t.value(), t.effect());
            }
        }
        for (Map.Entry<String, String> e : p.nodeSelector().entrySet()) {
            if (!e.getValue().equals(n.labels().get(e.getKey()))) {
                fail("%s: nodeSelector %s=%s does not match", where, e.getKey(), e.getValue());
            }
        }
        if (!requiredTermsMatch(p, n)) {
            fail("%s: required node affinity %s does not match labels %s", where, p.affinity().requiredNodeTerms(),
                    n.labels());
        }
        for (Pod q : onNode.get(n.name())) {
            if (q == p) {
                continue;
            }
            for (HostPort a : p.hostPorts()) {
                for (HostPort b : q.hostPorts()) {
                    if (portsConflict(a, b)) {
                        fail("%s: host port %s/%d also used by %s", where, a.protocol(), a.port(), q.ref().name());
                    }
                }
            }
        }
        checkAntiAffinity(p, n, where);
        checkSpread(p, n, where);
    }

    /** Required node affinity: terms ORed, requirements ANDed; no terms at all matches nothing. */
    static boolean requiredTermsMatch(Pod p, Node n) {
        List<NodeSelectorTerm> terms = p.affinity().requiredNodeTerms();
        if (terms == null) {
            return true;
        }
        for (NodeSelectorTerm t : terms) {
            if (t.matchExpressions().isEmpty() && t.matchFields().isEmpty()) {
                continue;
            }
            boolean all = true;
            for (NodeSelectorRequirement req : t.matchExpressions()) {
                all &= requirementMatches(req, n.labels().get(req.key()));
            }
            for (NodeSelectorRequirement req : t.matchFields()) {
                if (!"metadata.name".equals(req.key())) {
                    throw new IllegalStateException("field " + req.key() + " is not checked by this test");
                }
                all &= requirementMatches(req, n.name());
            }
            if (all) {
                return true;
            }
        }
        return false;
    }

    private static boolean requirementMatches(NodeSelectorRequirement req, String value) {
        return switch (req.operator()) {
            case In -> value != null && req.values().contains(value);
            case NotIn -> value == null || !req.values().contains(value);
            case Exists -> value != null;
            case DoesNotExist -> value == null;
            case Gt, Lt -> {
                if (value == null) {
                    yield false;
                }
                long have;
                try {
                    have = Long.parseLong(value);
                } catch (NumberFormatException e) {
                    yield false;
                }
                long bound = Long.parseLong(req.values().get(0));
                yield req.operator() == NodeSelectorRequirement.Operator.Gt ? have > bound : have < bound;
            }
        };
    }

    static boolean tolerates(List<Toleration> tolerations, Taint t) {
        for (Toleration tol : tolerations) {
            boolean effect = tol.effect() == null || tol.effect() == t.effect();
            boolean key = tol.key().isEmpty() || tol.key().equals(t.key());
            boolean value = tol.operator() == Toleration.Operator.Exists || tol.value().equals(t.value());
            if (effect && key && value) {
                return true;
            }
        }
        return false;
    }

    static boolean portsConflict(HostPort a, HostPort b) {
        if (a.port() != b.port() || !a.protocol().equals(b.protocol())) {
            return false;
        }
        return a.hostIP().equals("0.0.0.0") || b.hostIP().equals("0.0.0.0") || a.hostIP().equals(b.hostIP());
    }

    /** matchLabels only (the generators use nothing else); a null selector matches nothing. */
    static boolean selects(LabelSelector s, Map<String, String> labels) {
        if (s == null) {
            return false;
        }
        if (!s.matchExpressions().isEmpty()) {
            throw new IllegalStateException("matchExpressions are not checked by this test; extend Invariants");
        }
        for (Map.Entry<String, String> e : s.matchLabels().entrySet()) {
            if (!e.getValue().equals(labels.get(e.getKey()))) {
                return false;
            }
        }
        return true;
    }

    /** Whether an anti-affinity term of {@code owner} matches {@code other} (namespaces: the owner's own). */
    static boolean termMatches(PodAffinityTerm t, Pod owner, Pod other) {
        if (!t.namespaces().isEmpty() || t.namespaceSelector() != null) {
            throw new IllegalStateException("term namespaces are not checked by this test; extend Invariants");
        }
        return owner.ref().namespace().equals(other.ref().namespace()) && selects(t.labelSelector(), other.labels());
    }

    /** Required anti-affinity both ways between the placed pod and every pod in the same domain of each term. */
    private void checkAntiAffinity(Pod p, Node n, String where) {
        for (Map.Entry<String, List<Pod>> e : onNode.entrySet()) {
            Node m = nodes.get(e.getKey());
            for (Pod q : e.getValue()) {
                if (q == p) {
                    continue;
                }
                for (PodAffinityTerm t : p.affinity().requiredPodAntiAffinity()) {
                    if (sameDomain(n, m, t.topologyKey()) && termMatches(t, p, q)) {
                        fail("%s: its anti-affinity %s matches %s on %s", where, t.labelSelector().matchLabels(),
                                q.ref().name(), m.name());
                    }
                }
                for (PodAffinityTerm t : q.affinity().requiredPodAntiAffinity()) {
                    if (sameDomain(n, m, t.topologyKey()) && termMatches(t, q, p)) {
                        fail("%s: anti-affinity %s of %s on %s matches it", where, t.labelSelector().matchLabels(),
                                q.ref().name(), m.name());
                    }
                }
            }
        }
        if (!p.affinity().requiredPodAffinity().isEmpty()) {
            fail("%s: required pod affinity is not checked by this test; extend Invariants", where);
        }
    }

    private static boolean sameDomain(Node a, Node b, String key) {
        String va = a.labels().get(key);
        return va != null && va.equals(b.labels().get(key));
    }

    /**
     * DoNotSchedule spread over the final state. Sound under {@link ClusterGen}'s rule (all pending pods a selector
     * matches carry the same constraint and node selector): the last such pod placed into the domain saw every other
     * match there and a global minimum no larger than the final one, so {@code final count - final min <= maxSkew}.
     */
    private void checkSpread(Pod p, Node n, String where) {
        List<TopologySpreadConstraint> hard = new ArrayList<>();
        for (TopologySpreadConstraint c : p.topologySpreadConstraints()) {
            if (c.doNotSchedule()) {
                hard.add(c);
            }
        }
        for (TopologySpreadConstraint c : hard) {
            String domain = n.labels().get(c.topologyKey());
            if (domain == null) {
                fail("%s: node lacks spread topology key %s", where, c.topologyKey());
                continue;
            }
            if (!selects(c.labelSelector(), p.labels())) {
                continue; // the pod does not count toward its own constraint: no bound from the final state
            }
            Map<String, Long> counts = new TreeMap<>();
            for (Node m : nodes.values()) {
                if (!eligibleForSpread(p, hard, c, m)) {
                    continue;
                }
                long k = 0;
                for (Pod q : onNode.get(m.name())) {
                    if (!q.terminating() && q.ref().namespace().equals(p.ref().namespace())
                            && selects(c.labelSelector(), q.labels())) {
                        k++;
                    }
                }
                counts.merge(m.labels().get(c.topologyKey()), k, Long::sum);
            }
            int minDomains = c.minDomains() == null ? 1 : c.minDomains();
            long min = counts.size() < minDomains ? 0
                    : counts.values().stream().mapToLong(Long::longValue).min().orElse(0);
            long mine = counts.getOrDefault(domain, 0L);
            if (mine - min > c.maxSkew()) {
                fail("%s: spread on %s: domain %s has %d matching pods, global min %d, maxSkew %d (counts %s)", where,
                        c.topologyKey(), domain, mine, min, c.maxSkew(), counts);
            }
        }
    }

    private static boolean eligibleForSpread(Pod p, List<TopologySpreadConstraint> hard, TopologySpreadConstraint c,
                                             Node m) {
        for (TopologySpreadConstraint h : hard) {
            if (!m.labels().containsKey(h.topologyKey())) {
                return false;
            }
        }
        if (c.honorNodeAffinity()) {
            for (Map.Entry<String, String> e : p.nodeSelector().entrySet()) {
                if (!e.getValue().equals(m.labels().get(e.getKey()))) {
                    return false;
                }
            }
            if (!requiredTermsMatch(p, m)) {
                return false;
            }
        }
        if (c.honorNodeTaints()) {
            for (Taint t : m.taints()) {
                if (t.effect() != TaintEffect.PreferNoSchedule && !tolerates(p.tolerations(), t)) {
                    return false;
                }
            }
        }
        return true;
    }

    private List<Pod> boundMembers(GroupRef g) {
        List<Pod> out = new ArrayList<>();
        for (Pod p : state.pods()) {
            if (p.nodeName() != null && !terminal(p) && g.name().equals(p.podGroupName())
                    && g.namespace().equals(p.ref().namespace())) {
                out.add(p);
            }
        }
        return out;
    }

    // (c) gang all-or-nothing; basic places something when it says Scheduled and has an ungated pending member.
    private void checkGroupPolicy(Decision d) {
        PodGroup g = groups.get(d.podGroup());
        int placed = d.placements().size();
        if (d.outcome() != Outcome.Scheduled) {
            if (placed > 0) {
                fail("%s: outcome %s but %d placements", d.podGroup(), d.outcome(), placed);
            }
            return;
        }
        if (g == null) {
            fail("%s: Scheduled although the PodGroup is not in the snapshot", d.podGroup());
            return;
        }
        if (g.policy().isGang()) {
            int bound = boundMembers(g.ref()).size();
            if (bound + placed < g.policy().minCount()) {
                fail("%s: gang Scheduled with %d bound + %d placed < minCount %d", d.podGroup(), bound, placed,
                        g.policy().minCount());
            }
        } else {
            boolean schedulable = false;
            for (Pod p : state.pods()) {
                schedulable |= pending(p) && p.schedulingGates().isEmpty() && g.ref().name().equals(p.podGroupName())
                        && g.ref().namespace().equals(p.ref().namespace());
            }
            if (schedulable && placed == 0) {
                fail("%s: basic group Scheduled with no placement", d.podGroup());
            }
        }
    }

    // (d) a topology-constrained group lives in one domain of its key, on labelled nodes only.
    private void checkTopology(Decision d) {
        PodGroup g = groups.get(d.podGroup());
        if (g == null || g.topologyKeys().isEmpty() || (d.outcome() != Outcome.Scheduled && d.placements().isEmpty())) {
            return;
        }
        String key = g.topologyKeys().get(0);
        Set<String> domains = new TreeSet<>();
        List<String> where = new ArrayList<>();
        for (Pod p : boundMembers(g.ref())) {
            where.add(p.nodeName());
        }
        for (Assignment a : d.placements()) {
            where.add(a.node());
        }
        for (String nodeName : where) {
            Node n = nodes.get(nodeName);
            String v = n == null ? null : n.labels().get(key);
            if (v == null) {
                fail("%s: member on node %s without topology label %s", d.podGroup(), nodeName, key);
            } else {
                domains.add(v);
            }
        }
        if (domains.size() > 1) {
            fail("%s: members in %d domains of %s: %s", d.podGroup(), domains.size(), key, domains);
        }
    }

    // (e) gated pods are never placed (see (f)) and are reported as SchedulingGated; nothing else is.
    private void checkGated() {
        Map<PodRef, String> statuses = new HashMap<>();
        for (PodStatus s : result.pods()) {
            statuses.put(s.pod(), s.status());
        }
        for (Pod p : state.pods()) {
            boolean gated = pending(p) && !p.schedulingGates().isEmpty();
            // A gated pod being deleted may be reported either way; a gated pod that is bound or done may not.
            boolean mayReport = p.nodeName() == null && !terminal(p) && !p.schedulingGates().isEmpty();
            boolean reported = PodStatus.SCHEDULING_GATED.equals(statuses.get(p.ref()));
            if (gated && !reported) {
                fail("gated pod %s is not reported as SchedulingGated (status %s)", p.ref(), statuses.get(p.ref()));
            }
            if (!mayReport && reported) {
                fail("pod %s reported SchedulingGated but has no gates or is not pending", p.ref());
            }
        }
    }

    /** Decision order: PodGroup priority descending, then older, then namespace/name. Each group once. */
    private void checkDecisionOrder() {
        Set<GroupRef> seen = new HashSet<>();
        Decision prev = null;
        Set<PodRef> seenPods = new HashSet<>();
        Decision prevAny = null;
        for (Decision d : result.decisions()) {
            // One queue: groups that exist and plain pods, by priority, then age, then namespace/name.
            boolean ordered = d.pod() != null || groups.containsKey(d.podGroup());
            if (ordered && prevAny != null && plain.compareEntries(prevAny, d) > 0) {
                fail("queue order: %s before %s", PlainPodInvariants.label(prevAny), PlainPodInvariants.label(d));
            }
            if (ordered) {
                prevAny = d;
            }
            if (d.pod() != null) {
                if (!seenPods.add(d.pod())) {
                    fail("plain pod %s decided twice", d.pod());
                }
                continue;
            }
            if (!seen.add(d.podGroup())) {
                fail("%s decided twice", d.podGroup());
            }
            boolean known = groups.containsKey(d.podGroup());
            if (known && prev != null && compare(prev.podGroup(), d.podGroup()) > 0) {
                fail("decision order: %s before %s", prev.podGroup(), d.podGroup());
            }
            if (known) {
                prev = d; // the order of decisions for missing groups is not part of the contract
            }
        }
        for (Pod p : state.pods()) {
            GroupRef g = p.podGroupName() == null ? null : new GroupRef(p.ref().namespace(), p.podGroupName());
            boolean named = selectedGroups == null || selectedGroups.contains(g);
            if (g != null && named && pending(p) && p.schedulingGates().isEmpty() && !groups.containsKey(g)) {
                boolean reported = false;
                for (Decision d : result.decisions()) {
                    reported |= g.equals(d.podGroup()) && d.outcome() == Outcome.PodGroupNotFound;
                }
                if (!reported) {
                    fail("%s names missing PodGroup %s but no PodGroupNotFound decision says so", p.ref(), g);
                }
            }
        }
        for (PodGroup g : state.podGroups()) {
            boolean hasPending = false;
            for (Pod p : state.pods()) {
                // A group is attempted when a member could be placed now: gated members alone do not count.
                hasPending |= pending(p) && p.schedulingGates().isEmpty() && g.ref().name().equals(p.podGroupName())
                        && g.ref().namespace().equals(p.ref().namespace());
            }
            if (selectedGroups != null) {
                if (selectedGroups.contains(g.ref()) != seen.contains(g.ref())) {
                    fail("%s: named %s but decided %s", g.ref(), selectedGroups.contains(g.ref()),
                            seen.contains(g.ref()));
                }
            } else if (hasPending != seen.contains(g.ref())) {
                fail("%s: has pending members %s but decided %s", g.ref(), hasPending, seen.contains(g.ref()));
            }
        }
    }

    private int compare(GroupRef a, GroupRef b) {
        PodGroup ga = groups.get(a);
        PodGroup gb = groups.get(b);
        int pa = ga == null || ga.priority() == null ? 0 : ga.priority();
        int pb = gb == null || gb.priority() == null ? 0 : gb.priority();
        if (pa != pb) {
            return Integer.compare(pb, pa);
        }
        long ca = ga == null ? Long.MAX_VALUE : ga.creationEpochSec();
        long cb = gb == null ? Long.MAX_VALUE : gb.creationEpochSec();
        if (ca != cb) {
            return Long.compare(ca, cb);
        }
        int ns = a.namespace().compareTo(b.namespace());
        return ns != 0 ? ns : a.name().compareTo(b.name());
    }
}
