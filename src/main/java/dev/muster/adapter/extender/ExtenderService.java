package dev.muster.adapter.extender;

import com.fasterxml.jackson.databind.JsonNode;
import dev.muster.adapter.clusterview.WatchedClusterVersion;
import dev.muster.adapter.extender.ExtenderWire.ExtenderArgs;
import dev.muster.adapter.extender.ExtenderWire.ExtenderFilterResult;
import dev.muster.adapter.extender.ExtenderWire.ExtenderPreemptionArgs;
import dev.muster.adapter.extender.ExtenderWire.ExtenderPreemptionResult;
import dev.muster.adapter.extender.ExtenderWire.HostPriority;
import dev.muster.adapter.extender.ExtenderWire.MetaPod;
import dev.muster.adapter.extender.ExtenderWire.MetaVictims;
import dev.muster.adapter.extender.ExtenderWire.NodeList;
import dev.muster.adapter.extender.ExtenderWire.Victims;
import dev.muster.adapter.kube.Kube;
import dev.muster.adapter.kube.KubeMapper;
import dev.muster.core.decision.Assignment;
import dev.muster.core.decision.Decision;
import dev.muster.core.decision.DecisionEngine;
import dev.muster.core.decision.DecisionOptions;
import dev.muster.core.decision.DecisionRequest;
import dev.muster.core.decision.DecisionResult;
import dev.muster.core.decision.PodMessage;
import dev.muster.core.model.ClusterState;
import dev.muster.core.model.Condition;
import dev.muster.core.model.GroupRef;
import dev.muster.core.model.Node;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodRef;
import dev.muster.core.model.VictimUnits;
import dev.muster.core.snapshot.Priorities;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * The extender's verbs over a cluster view, without HTTP: group-consistent filter and prioritize, and victim
 * screening for preempt. Thread-safe.
 *
 * <h2>Group consistency</h2>
 * For a pod in a PodGroup, the engine decides every pending group of the view (request pod and nodes merged over
 * it, preemption off, in the engine's order: higher PodGroup priority, older, then namespace/name) once per view
 * generation and request overlay ({@link DecisionCache});
 * filter keeps only the node the group's decision gives this pod and prioritize gives it {@value #MAX_SCORE}.
 * A group that cannot be placed fails every node with the decision's message: {@code FailedAndUnresolvableNodes}
 * for WaitingForMembers and PodGroupNotFound (no preemption can add members or create the group),
 * {@code FailedNodes} otherwise.
 *
 * <h2>Devices (DRA)</h2>
 * The view's DRA objects (device classes, resource slices, resource claims and claim templates) go into every
 * decision, so a group is placed only where its members' claims can get devices, and on the node a shared claim's
 * devices are bound to. The extender steers nodes only: kube-scheduler's own DynamicResources plugin allocates the
 * devices and writes the claims' status, and the allocation results of Muster's decision are not handed on.
 *
 * <h2>Pods outside any group</h2>
 * Pass every node and score 0. The scheduler calls an extender only after its in-tree filters and only with the
 * nodes that passed them, so running the engine's filters again would answer the same; {@code managedResources}
 * in the scheduler's extender stanza is the way to keep such pods from calling at all.
 */
public final class ExtenderService {
    static final long MAX_SCORE = 10;
    private static final DecisionOptions NO_PREEMPTION = new DecisionOptions(false, false);

    private final Supplier<WatchedClusterVersion> views;
    private final DecisionEngine engine;
    private final ExtenderCodec codec;
    private final DecisionCache cache;

    public ExtenderService(Supplier<WatchedClusterVersion> views, DecisionEngine engine, ExtenderCodec codec,
                           int cacheSize) {
        this.views = views;
        this.engine = engine;
        this.codec = codec;
        this.cache = new DecisionCache(cacheSize);
        if (views instanceof PreparedViews prepared) {
            prepared.onPrepare(this::prepare);
        }
    }

    /** Makes and caches the decision a call without overlay reads: what {@link PreparedViews} does ahead of calls. */
    void prepare(WatchedClusterVersion view) {
        cache.get(new DecisionCache.Key(view.generation(), null, List.of()), () -> decideView(view));
    }

    private DecisionResult decideView(WatchedClusterVersion view) {
        return engine.decideGroups(view.compiled(), null, NO_PREEMPTION, () -> false);
    }

    /** Decisions computed so far (the rest came from the cache). */
    public long decisionsComputed() {
        return cache.computedCount();
    }

    // ---------------------------------------------------------------- filter

    public ExtenderFilterResult filter(ExtenderArgs args) {
        Candidates c;
        Plan plan;
        try {
            c = candidates(args);
            plan = plan(args.pod(), c);
        } catch (RequestException e) {
            return ExtenderFilterResult.error(e.getMessage());
        }
        if (plan instanceof Plan.Failed f) {
            return ExtenderFilterResult.error(f.message()); // kube-scheduler ends the pod's cycle with this error
        }
        Map<String, String> failed = new TreeMap<>();
        Map<String, String> unresolvable = new TreeMap<>();
        boolean[] keep = new boolean[c.names.size()];
        for (int i = 0; i < keep.length; i++) {
            String name = c.names.get(i);
            if (plan instanceof Plan.OnNode on) {
                keep[i] = on.node().equals(name);
                if (!keep[i]) {
                    failed.put(name, on.othersMessage());
                }
            } else if (plan instanceof Plan.FailAll f) {
                (f.unresolvable() ? unresolvable : failed).put(name, f.message());
            } else {
                keep[i] = true;
            }
        }
        NodeList outNodes = null;
        if (c.items != null) {
            List<JsonNode> items = new ArrayList<>();
            for (int i = 0; i < keep.length; i++) {
                if (keep[i]) {
                    items.add(c.items.get(i));
                }
            }
            outNodes = new NodeList(Map.of(), items);
        }
        List<String> outNames = null;
        if (c.namesGiven) {
            outNames = new ArrayList<>();
            for (int i = 0; i < keep.length; i++) {
                if (keep[i]) {
                    outNames.add(c.names.get(i));
                }
            }
        }
        return new ExtenderFilterResult(outNodes, outNames, failed, unresolvable, "");
    }

    // ---------------------------------------------------------------- prioritize

    /** Scores in the order of the request's nodes; the planned node gets {@value #MAX_SCORE}, every other 0. */
    public List<HostPriority> prioritize(ExtenderArgs args) throws RequestException {
        Candidates c = candidates(args);
        Plan plan = plan(args.pod(), c);
        String planned = plan instanceof Plan.OnNode on ? on.node() : null;
        List<HostPriority> out = new ArrayList<>(c.names.size());
        for (String name : c.names) {
            out.add(new HostPriority(name, name.equals(planned) ? MAX_SCORE : 0));
        }
        return out;
    }

    // ---------------------------------------------------------------- planning

    /** What filter and prioritize answer for one pod. */
    sealed interface Plan {
        record PassThrough() implements Plan {
        }

        record OnNode(String node, String othersMessage) implements Plan {
        }

        record FailAll(String message, boolean unresolvable) implements Plan {
        }

        /** The group's cycle ended with a scheduler error: the filter answers with it as its {@code Error}. */
        record Failed(String message) implements Plan {
        }
    }

    /** The request's candidate nodes: names always; the JSON items and their compiled form in Nodes mode. */
    private record Candidates(List<String> names, List<JsonNode> items, List<Node> nodes, boolean namesGiven) {
    }

    private Candidates candidates(ExtenderArgs args) throws RequestException {
        if (args.pod() == null || args.pod().metadata() == null || args.pod().metadata().name() == null) {
            throw new RequestException("ExtenderArgs.Pod with metadata.name is required");
        }
        if (args.nodes() != null && args.nodes().items() != null) {
            List<JsonNode> items = args.nodes().items();
            List<String> names = new ArrayList<>(items.size());
            List<Node> nodes = new ArrayList<>(items.size());
            for (JsonNode item : items) {
                Kube.Node kn;
                try {
                    kn = codec.node(item);
                } catch (ExtenderCodec.WireException e) {
                    throw new RequestException(e.getMessage());
                }
                if (kn == null || kn.metadata() == null || kn.metadata().name() == null) {
                    throw new RequestException("every node in Nodes.items needs metadata.name");
                }
                try {
                    nodes.add(KubeMapper.node(kn));
                } catch (RuntimeException e) {
                    throw new RequestException("node \"" + kn.metadata().name() + "\" is invalid: " + e.getMessage());
                }
                names.add(kn.metadata().name());
            }
            return new Candidates(names, items, nodes, args.nodeNames() != null);
        }
        if (args.nodeNames() != null) {
            return new Candidates(List.copyOf(args.nodeNames()), null, null, true);
        }
        throw new RequestException("ExtenderArgs has neither Nodes nor NodeNames");
    }

    private Plan plan(Kube.Pod kubePod, Candidates c) throws RequestException {
        Pod pod;
        try {
            pod = KubeMapper.pod(kubePod);
        } catch (RuntimeException e) {
            throw new RequestException("pod \"" + kubePod.metadata().name() + "\" is invalid: " + e.getMessage());
        }
        GroupRef group = pod.groupRef();
        if (group == null || pod.isBound()) {
            return new Plan.PassThrough();
        }
        WatchedClusterVersion view = views.get();
        if (views instanceof PreparedViews prepared && !prepared.synchronous() && !pod.equals(view.pod(pod.ref()))
                && prepared.behind(view)) {
            // The pod is new (or changed) and the source already has a newer view: wait for it rather than decide
            // a view with the pod merged in.
            view = prepared.awaitLatest();
        }
        Decision d = decisionFor(view, pod, c.nodes);
        String g = "pod group \"" + group + "\"";
        if (d == null) {
            return new Plan.FailAll(g + " has no decision for this pod in Muster's cluster view (" + view.source()
                    + ", generation " + view.generation() + ")", true);
        }
        switch (d.outcome()) {
            case Scheduled -> {
                for (Assignment a : d.placements()) {
                    if (a.pod().equals(pod.ref())) {
                        String placed = g + " places this pod on node \"" + a.node() + "\"";
                        if (!c.names.contains(a.node())) {
                            return new Plan.FailAll(placed + ", which is not among the candidate nodes", false);
                        }
                        return new Plan.OnNode(a.node(), placed);
                    }
                }
                for (PodMessage m : d.unschedulablePods()) {
                    if (m.pod().equals(pod.ref())) {
                        return new Plan.FailAll(g + " is scheduled without this pod: " + m.message(), false);
                    }
                }
                return new Plan.FailAll(g + " is scheduled without a place for this pod", false);
            }
            case WaitingForMembers, PodGroupNotFound -> {
                return new Plan.FailAll(g + ": " + d.message(), true);
            }
            default -> {
                for (Condition k : d.conditions()) {
                    if (SCHEDULER_ERROR.equals(k.reason())) {
                        return new Plan.Failed(g + ": " + d.message());
                    }
                }
                return new Plan.FailAll(g + ": " + d.message(), false);
            }
        }
    }

    /** The condition reason of a cycle that ended with an error. */
    private static final String SCHEDULER_ERROR = "SchedulerError";

    /** The decision of the pod's group over the view with the request merged in, from the cache when possible. */
    private Decision decisionFor(WatchedClusterVersion view, Pod pod, List<Node> requestNodes) {
        Pod known = view.pod(pod.ref());
        Pod podOverlay = pod.equals(known) ? null : pod;
        List<Node> overlay = List.of();
        if (requestNodes != null) {
            TreeMap<String, Node> differing = new TreeMap<>();
            for (Node n : requestNodes) {
                if (!n.equals(view.node(n.name()))) {
                    differing.put(n.name(), n);
                }
            }
            overlay = List.copyOf(differing.values());
        }
        List<Node> nodeOverlay = overlay;
        DecisionCache.Key key = new DecisionCache.Key(view.generation(), podOverlay, nodeOverlay);
        DecisionResult result = cache.get(key, () -> podOverlay == null && nodeOverlay.isEmpty() ? decideView(view)
                : engine.decideGroups(DecisionEngine.compile(new DecisionRequest(merge(view.state(), podOverlay,
                nodeOverlay), null, NO_PREEMPTION, view.dra())), null, NO_PREEMPTION, () -> false));
        GroupRef group = pod.groupRef();
        for (Decision d : result.decisions()) {
            if (group != null && group.equals(d.podGroup())) {
                return d;
            }
        }
        return null;
    }

    /** The view with the request's pod and nodes put over it: the request wins for those objects. */
    static ClusterState merge(ClusterState base, Pod pod, List<Node> nodes) {
        if (pod == null && nodes.isEmpty()) {
            return base;
        }
        List<Pod> pods = base.pods();
        if (pod != null) {
            pods = new ArrayList<>(base.pods().size() + 1);
            boolean replaced = false;
            for (Pod p : base.pods()) {
                if (p.ref().equals(pod.ref())) {
                    pods.add(pod);
                    replaced = true;
                } else {
                    pods.add(p);
                }
            }
            if (!replaced) {
                pods.add(pod);
            }
        }
        List<Node> allNodes = base.nodes();
        if (!nodes.isEmpty()) {
            Map<String, Node> byName = new LinkedHashMap<>();
            for (Node n : base.nodes()) {
                byName.put(n.name(), n);
            }
            for (Node n : nodes) {
                byName.put(n.name(), n);
            }
            allNodes = new ArrayList<>(byName.values());
        }
        return new ClusterState(allNodes, pods, base.podGroups(), base.priorityClasses(),
                base.podDisruptionBudgets(), base.compositePodGroups());
    }

    // ---------------------------------------------------------------- preempt

    /**
     * Keeps the candidate nodes whose victims are whole victim units the preemptor may evict, by the engine's rule
     * ({@link VictimUnits}, priorities resolved through the view's PriorityClasses as the engine resolves them): each
     * unit below the preemptor's effective priority (a PodGroup's priority stands for its members on both sides, and a
     * CompositePodGroup's that sets one for its tree), neither the preemptor's own group nor its own tree, and every
     * running pod of a {@code disruptionMode: PodGroup} group or of a tree evicted whole among the node's victims. A
     * node with one disallowed victim is dropped whole rather than answered with fewer victims: the scheduler's victim
     * set is already minimal (it reprieves every pod it can), so a smaller set would not make room. Victims the view
     * does not know (by UID, or by namespace/name in the full form) cannot be checked and drop their node too.
     */
    public ExtenderPreemptionResult preempt(ExtenderPreemptionArgs args) throws RequestException {
        if (args.pod() == null || args.pod().metadata() == null || args.pod().metadata().name() == null) {
            throw new RequestException("ExtenderPreemptionArgs.Pod with metadata.name is required");
        }
        WatchedClusterVersion view = views.get();
        Pod preemptor;
        try {
            preemptor = KubeMapper.pod(args.pod());
        } catch (RuntimeException e) {
            throw new RequestException("pod \"" + args.pod().metadata().name() + "\" is invalid: " + e.getMessage());
        }
        // Candidates as (node -> victims as view pods, or null entries for unknown ones), in the meta form's order.
        Map<String, List<Pod>> byNode = new TreeMap<>();
        Map<String, List<String>> uids = new TreeMap<>();
        Map<String, Long> pdbViolations = new TreeMap<>();
        if (args.nodeNameToMetaVictims() != null) {
            for (Map.Entry<String, MetaVictims> e : args.nodeNameToMetaVictims().entrySet()) {
                List<Pod> pods = new ArrayList<>();
                List<String> ids = new ArrayList<>();
                MetaVictims mv = e.getValue();
                if (mv != null && mv.pods() != null) {
                    for (MetaPod mp : mv.pods()) {
                        pods.add(view.podByUid(mp.uid()));
                        ids.add(mp.uid());
                    }
                }
                byNode.put(e.getKey(), pods);
                uids.put(e.getKey(), ids);
                pdbViolations.put(e.getKey(), mv == null ? 0 : mv.numPDBViolations());
            }
        } else if (args.nodeNameToVictims() != null) {
            for (Map.Entry<String, Victims> e : args.nodeNameToVictims().entrySet()) {
                List<Pod> pods = new ArrayList<>();
                List<String> ids = new ArrayList<>();
                Victims v = e.getValue();
                if (v != null && v.pods() != null) {
                    for (Kube.Pod kp : v.pods()) {
                        Pod p = null;
                        if (kp != null && kp.metadata() != null && kp.metadata().name() != null) {
                            p = view.pod(new PodRef(kp.metadata().namespaceOrDefault(), kp.metadata().name()));
                        }
                        pods.add(p);
                        ids.add(kp == null || kp.metadata() == null || kp.metadata().uid() == null ? ""
                                : kp.metadata().uid());
                    }
                }
                byNode.put(e.getKey(), pods);
                uids.put(e.getKey(), ids);
                pdbViolations.put(e.getKey(), v == null ? 0 : v.numPDBViolations());
            }
        }
        Priorities prio = Priorities.of(view.state());
        VictimUnits<Pod> units = VictimUnits.of(view.state(), prio::effective);
        GroupRef self = preemptor.groupRef();
        int preemptorPriority = prio.effective(preemptor);
        Map<String, MetaVictims> out = new TreeMap<>();
        for (Map.Entry<String, List<Pod>> e : byNode.entrySet()) {
            if (allowed(units, e.getValue(), self, preemptorPriority)) {
                List<MetaPod> metas = new ArrayList<>();
                for (String id : uids.get(e.getKey())) {
                    metas.add(new MetaPod(id));
                }
                out.put(e.getKey(), new MetaVictims(metas, pdbViolations.get(e.getKey())));
            }
        }
        return new ExtenderPreemptionResult(out);
    }

    /**
     * Whether a node's victims are whole units the preemptor may evict: each victim known, and the unit it is evicted
     * in eligible and entirely among the node's victims.
     */
    private static boolean allowed(VictimUnits<Pod> units, List<Pod> victims, GroupRef self, int preemptorPriority) {
        Set<PodRef> onNode = new HashSet<>();
        for (Pod v : victims) {
            if (v == null) {
                return false;
            }
            onNode.add(v.ref());
        }
        for (Pod v : victims) {
            VictimUnits.Unit<Pod> u = units.unitOf(v);
            if (!units.eligible(u, self, preemptorPriority)) {
                return false;
            }
            for (Pod member : u.pods()) {
                if (!onNode.contains(member.ref())) {
                    return false;
                }
            }
        }
        return true;
    }

    /** A request the extender cannot act on; its message goes to the scheduler as {@code Error}. */
    public static final class RequestException extends Exception {
        public RequestException(String message) {
            super(message);
        }
    }
}
