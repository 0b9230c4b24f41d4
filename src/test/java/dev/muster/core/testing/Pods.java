package dev.muster.core.testing;

import dev.muster.core.model.Affinity;
import dev.muster.core.model.HostPort;
import dev.muster.core.model.LabelSelector;
import dev.muster.core.model.NodeSelectorRequirement;
import dev.muster.core.model.NodeSelectorTerm;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodAffinityTerm;
import dev.muster.core.model.PodRef;
import dev.muster.core.model.PreferredSchedulingTerm;
import dev.muster.core.model.ResourceList;
import dev.muster.core.model.TaintEffect;
import dev.muster.core.model.Toleration;
import dev.muster.core.model.TopologySpreadConstraint;
import dev.muster.core.model.WeightedPodAffinityTerm;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds model Pods for tests: {@code pod("p1").requests("cpu", "2").label("app", "web").on("n1").build()}. */
public final class Pods {
    private final String name;
    private String namespace = "default";
    private final Map<String, String> labels = new LinkedHashMap<>();
    private final Map<String, Long> requests = new LinkedHashMap<>();
    private String nodeName;
    private String phase = "Pending";
    private final Map<String, String> nodeSelector = new LinkedHashMap<>();
    private List<NodeSelectorTerm> requiredNodeTerms;
    private final List<PreferredSchedulingTerm> preferredNodeTerms = new ArrayList<>();
    private final List<PodAffinityTerm> requiredPodAffinity = new ArrayList<>();
    private final List<WeightedPodAffinityTerm> preferredPodAffinity = new ArrayList<>();
    private final List<PodAffinityTerm> requiredPodAntiAffinity = new ArrayList<>();
    private final List<WeightedPodAffinityTerm> preferredPodAntiAffinity = new ArrayList<>();
    private final List<Toleration> tolerations = new ArrayList<>();
    private final List<HostPort> hostPorts = new ArrayList<>();
    private final List<TopologySpreadConstraint> spread = new ArrayList<>();
    private boolean terminating;
    private String preemptionPolicy;

    private Pods(String name) {
        this.name = name;
    }

    public static Pods pod(String name) {
        return new Pods(name);
    }

    public Pods namespace(String ns) {
        this.namespace = ns;
        return this;
    }

    public Pods label(String key, String value) {
        labels.put(key, value);
        return this;
    }

    public Pods requests(String resource, String quantity) {
        requests.put(resource, Quantities.parse(resource, quantity));
        return this;
    }

    /** Bound to a node (counts as running there). */
    public Pods on(String node) {
        this.nodeName = node;
        this.phase = "Running";
        return this;
    }

    public Pods phase(String phase) {
        this.phase = phase;
        return this;
    }

    /** spec.preemptionPolicy ({@code Never} or {@code PreemptLowerPriority}). */
    public Pods preemptionPolicy(String policy) {
        this.preemptionPolicy = policy;
        return this;
    }

    public Pods terminating() {
        this.terminating = true;
        return this;
    }

    public Pods nodeSelector(String key, String value) {
        nodeSelector.put(key, value);
        return this;
    }

    /** Adds an ORed required node affinity term. */
    public Pods requiredNodeTerm(NodeSelectorTerm term) {
        if (requiredNodeTerms == null) {
            requiredNodeTerms = new ArrayList<>();
        }
        requiredNodeTerms.add(term);
        return this;
    }

    /** Required node affinity present but with no terms at all. */
    public Pods requiredNodeTermsEmpty() {
        requiredNodeTerms = new ArrayList<>();
        return this;
    }

    public Pods preferredNodeTerm(int weight, NodeSelectorTerm term) {
        preferredNodeTerms.add(new PreferredSchedulingTerm(weight, term));
        return this;
    }

    public Pods podAffinity(PodAffinityTerm term) {
        requiredPodAffinity.add(term);
        return this;
    }

    public Pods podAntiAffinity(PodAffinityTerm term) {
        requiredPodAntiAffinity.add(term);
        return this;
    }

    public Pods preferredPodAffinity(int weight, PodAffinityTerm term) {
        preferredPodAffinity.add(new WeightedPodAffinityTerm(weight, term));
        return this;
    }

    public Pods preferredPodAntiAffinity(int weight, PodAffinityTerm term) {
        preferredPodAntiAffinity.add(new WeightedPodAffinityTerm(weight, term));
        return this;
    }

    public Pods toleration(String key, Toleration.Operator op, String value, TaintEffect effect) {
        tolerations.add(new Toleration(key, op, value, effect));
        return this;
    }

    public Pods hostPort(String hostIP, String protocol, int port) {
        hostPorts.add(new HostPort(hostIP, protocol, port));
        return this;
    }

    public Pods spread(TopologySpreadConstraint c) {
        spread.add(c);
        return this;
    }

    public Pod build() {
        Affinity affinity = new Affinity(requiredNodeTerms, preferredNodeTerms, requiredPodAffinity,
                preferredPodAffinity, requiredPodAntiAffinity, preferredPodAntiAffinity);
        return new Pod(new PodRef(namespace, name), "uid-" + namespace + "-" + name, labels, 0, nodeName, phase,
                null, ResourceList.of(requests), null, null, preemptionPolicy, nodeSelector, affinity, tolerations, hostPorts,
                spread, List.of(), null, List.of(), null, terminating);
    }

    // ---- small factories for nested objects ----

    public static NodeSelectorRequirement req(String key, NodeSelectorRequirement.Operator op, String... values) {
        return new NodeSelectorRequirement(key, op, List.of(values));
    }

    public static NodeSelectorTerm term(NodeSelectorRequirement... expressions) {
        return new NodeSelectorTerm(List.of(expressions), List.of());
    }

    public static NodeSelectorTerm fieldTerm(NodeSelectorRequirement... fields) {
        return new NodeSelectorTerm(List.of(), List.of(fields));
    }

    /** A label selector with matchLabels from key/value pairs. */
    public static LabelSelector labels(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return new LabelSelector(m, List.of());
    }

    /** A pod affinity term over the pod's own namespace. */
    public static PodAffinityTerm affinityTerm(LabelSelector selector, String topologyKey) {
        return new PodAffinityTerm(selector, List.of(), null, topologyKey);
    }

    public static PodAffinityTerm affinityTerm(LabelSelector selector, String topologyKey, List<String> namespaces,
                                               LabelSelector namespaceSelector) {
        return new PodAffinityTerm(selector, namespaces, namespaceSelector, topologyKey);
    }

    /** A DoNotSchedule constraint honouring node affinity and ignoring taints (the API defaults). */
    public static TopologySpreadConstraint hardSpread(int maxSkew, String key, LabelSelector selector) {
        return new TopologySpreadConstraint(maxSkew, key, true, selector, null, true, false, List.of());
    }

    public static TopologySpreadConstraint softSpread(int maxSkew, String key, LabelSelector selector) {
        return new TopologySpreadConstraint(maxSkew, key, false, selector, null, true, false, List.of());
    }
}
