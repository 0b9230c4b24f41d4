package dev.muster.core.plugins.podtopologyspread;

import dev.muster.core.framework.ClusterView;
import dev.muster.core.framework.CycleState;
import dev.muster.core.framework.FilterPlugin;
import dev.muster.core.framework.NodeField;
import dev.muster.core.framework.NodeInfo;
import dev.muster.core.framework.PodField;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.framework.PreFilterPlugin;
import dev.muster.core.framework.PreScorePlugin;
import dev.muster.core.framework.ScorePlugin;
import dev.muster.core.framework.SignPlugin;
import dev.muster.core.framework.StateKey;
import dev.muster.core.framework.Status;
import dev.muster.core.model.LabelSelector;
import dev.muster.core.model.Node;
import dev.muster.core.model.Pod;
import dev.muster.core.model.TopologySpreadConstraint;
import dev.muster.core.plugins.support.RequiredNodeAffinity;
import dev.muster.core.plugins.support.TaintMatching;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Pod topology spread constraints.
 * <p>
 * Filter (DoNotSchedule constraints): counts pods matching each constraint's selector (same namespace as the
 * pod, not terminating, bound or assumed) per domain, over nodes that carry every constraint's topology key and
 * pass the node inclusion policies (the pod's node selector/required affinity when nodeAffinityPolicy is
 * Honor, its tolerations of NoSchedule/NoExecute taints when nodeTaintsPolicy is Honor). A node fails when
 * {@code matches in its domain + (1 if the pod matches itself) - global minimum > maxSkew} (Unschedulable), or
 * when it lacks a topology key (unresolvable). With fewer domains than minDomains the global minimum is 0.
 * <p>
 * Score (ScheduleAnyway constraints): for each constraint a node earns
 * {@code matches in its domain * log(domains among feasible nodes + 2) + maxSkew - 1}, rounded; fewer matches
 * rank higher after normalization ({@code 100 * (max + min - score) / max}). Feasible nodes missing a topology
 * key score 0.
 * <p>
 * Cluster-level default constraints are not applied: upstream derives them from the Services, ReplicaSets and
 * StatefulSets selecting the pod, which the snapshot does not carry. A pod without its own constraints is
 * skipped.
 */
public final class PodTopologySpreadPlugin implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin,
        SignPlugin {
    public static final String NAME = "PodTopologySpread";
    public static final String REASON = "node(s) didn't match pod topology spread constraints";
    public static final String REASON_MISSING_LABEL = REASON + " (missing required label)";
    public static final String HOSTNAME = "kubernetes.io/hostname";

    /** Score of a feasible node that lacks a topology key; normalize turns it into 0. */
    static final long IGNORED = -1;

    /** Per constraint: matches per domain value, global minimum and number of domains. */
    private record FilterState(TopologySpreadConstraint[] constraints, boolean[] selfMatch,
                               List<Map<String, long[]>> counts, long[] minMatch, int[] domains) {
    }

    private record ScoreState(TopologySpreadConstraint[] constraints, List<Map<String, long[]>> counts,
                              double[] weights, boolean[] ignored, String namespace) {
    }

    private static final StateKey<FilterState> FILTER_STATE = StateKey.of("PreFilter" + NAME);
    private static final StateKey<ScoreState> SCORE_STATE = StateKey.of("PreScore" + NAME);

    /**
     * The constraints; the namespace and labels their selectors match; the node selector, node affinity and
     * tolerations the node inclusion policies honour.
     */
    private static final Set<PodField> READS = Set.of(PodField.NAMESPACE, PodField.LABELS, PodField.NODE_SELECTOR,
            PodField.AFFINITY, PodField.TOLERATIONS, PodField.TOPOLOGY_SPREAD);

    private static final Set<PodField> KEYED = Set.of(PodField.LABELS);

    private static final Set<NodeField> NODE_READS = Set.of(NodeField.LABELS, NodeField.TAINTS, NodeField.PODS);

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Set<PodField> podFields() {
        return READS;
    }

    /** The labels only through {@link #podKey}: they count only when the pod has constraints. */
    @Override
    public Set<PodField> podKeyFields() {
        return KEYED;
    }

    /**
     * The labels (the topology keys, and the node selector and affinity a constraint honours), the taints a constraint
     * honours, and the pods there its selectors count, of every node.
     */
    @Override
    public Set<NodeField> nodeFields() {
        return NODE_READS;
    }

    /** Read only for a pod with constraints, which this plugin does not call symmetric. */
    @Override
    public Set<NodeField> nodeKeyFields() {
        return NODE_READS;
    }

    /** The scheduler itself knows that spreading reaches beyond one node (a pod with constraints is never refreshed). */
    @Override
    public boolean nodeLocal(PodInfo pod, ClusterView cluster) {
        return true;
    }

    /** Not with constraints: their counts read other nodes' labels and pods. Without, nothing of a node is read. */
    @Override
    public boolean symmetric(PodInfo pod, ClusterView cluster) {
        return pod.pod().topologySpreadConstraints().isEmpty();
    }

    /** A member with constraints depends on where the others went. */
    @Override
    public boolean interchangeable(PodInfo pod, ClusterView cluster) {
        return pod.pod().topologySpreadConstraints().isEmpty();
    }

    /** The pod's labels when it has constraints: their selectors (and {@code matchLabelKeys}) read them. */
    @Override
    public Object podKey(PodInfo pod, ClusterView cluster) {
        return pod.pod().topologySpreadConstraints().isEmpty() ? null : pod.pod().labels();
    }

    private static TopologySpreadConstraint[] constraints(Pod pod, boolean doNotSchedule) {
        List<TopologySpreadConstraint> out = new ArrayList<>();
        for (TopologySpreadConstraint c : pod.topologySpreadConstraints()) {
            if (c.doNotSchedule() == doNotSchedule) {
                out.add(c);
            }
        }
        return out.toArray(new TopologySpreadConstraint[0]);
    }

    private static boolean hasAllKeys(Node node, TopologySpreadConstraint[] constraints) {
        Map<String, String> labels = node.labels();
        for (TopologySpreadConstraint c : constraints) {
            if (!labels.containsKey(c.topologyKey())) {
                return false;
            }
        }
        return true;
    }

    /** Node inclusion policies: Honor nodeAffinityPolicy / nodeTaintsPolicy. */
    private static boolean included(TopologySpreadConstraint c, Pod pod, Node node, RequiredNodeAffinity affinity) {
        if (c.honorNodeAffinity() && !affinity.matches(node)) {
            return false;
        }
        return !c.honorNodeTaints()
                || TaintMatching.firstUntoleratedDoNotSchedule(node.taints(), pod.tolerations()) == null;
    }

    /** Pods on the node in {@code namespace}, not terminating, matching the selector (null matches none). */
    static long countMatching(NodeInfo node, LabelSelector selector, String namespace) {
        if (selector == null) {
            return 0;
        }
        List<PodInfo> pods = node.pods();
        long n = 0;
        for (int i = 0, size = pods.size(); i < size; i++) {
            Pod p = pods.get(i).pod();
            if (!p.terminating() && p.ref().namespace().equals(namespace) && selector.matches(p.labels())) {
                n++;
            }
        }
        return n;
    }

    private static boolean selects(LabelSelector selector, Pod pod) {
        return selector != null && selector.matches(pod.labels());
    }

    @Override
    public Status preFilter(CycleState state, PodInfo podInfo, ClusterView cluster) {
        Pod pod = podInfo.pod();
        TopologySpreadConstraint[] cs = constraints(pod, true);
        if (cs.length == 0) {
            return Status.SKIP;
        }
        RequiredNodeAffinity affinity = RequiredNodeAffinity.of(pod);
        String ns = pod.ref().namespace();
        List<Map<String, long[]>> counts = new ArrayList<>(cs.length);
        for (int k = 0; k < cs.length; k++) {
            counts.add(new HashMap<>());
        }
        int all = cluster.allNodeCount();
        for (int i = 0; i < all; i++) {
            NodeInfo node = cluster.anyNode(i);
            if (!hasAllKeys(node.node(), cs)) {
                continue;
            }
            for (int k = 0; k < cs.length; k++) {
                TopologySpreadConstraint c = cs[k];
                if (!included(c, pod, node.node(), affinity)) {
                    continue;
                }
                String value = node.node().labels().get(c.topologyKey());
                long n = countMatching(node, c.labelSelector(), ns);
                counts.get(k).computeIfAbsent(value, v -> new long[1])[0] += n;
            }
        }
        long[] min = new long[cs.length];
        int[] domains = new int[cs.length];
        boolean[] self = new boolean[cs.length];
        for (int k = 0; k < cs.length; k++) {
            long m = Long.MAX_VALUE;
            for (long[] c : counts.get(k).values()) {
                m = Math.min(m, c[0]);
            }
            min[k] = m;
            domains[k] = counts.get(k).size();
            self[k] = selects(cs[k].labelSelector(), pod);
        }
        state.put(FILTER_STATE, new FilterState(cs, self, counts, min, domains));
        return Status.SUCCESS;
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
        FilterState s = state.get(FILTER_STATE);
        if (s == null) {
            return Status.error(NAME, "PreFilter state of " + NAME + " is missing: run PreFilter before Filter");
        }
        Map<String, String> labels = node.node().labels();
        TopologySpreadConstraint[] cs = s.constraints();
        for (int k = 0; k < cs.length; k++) {
            TopologySpreadConstraint c = cs[k];
            String value = labels.get(c.topologyKey());
            if (value == null) {
                return Status.unresolvable(NAME, REASON_MISSING_LABEL);
            }
            int minDomains = c.minDomains() == null ? 1 : c.minDomains();
            long min = s.domains()[k] < minDomains ? 0 : s.minMatch()[k];
            long[] count = s.counts().get(k).get(value);
            long matchNum = count == null ? 0 : count[0];
            long skew = matchNum + (s.selfMatch()[k] ? 1 : 0) - min;
            if (skew > c.maxSkew()) {
                return Status.unschedulable(NAME, REASON);
            }
        }
        return Status.SUCCESS;
    }

    @Override
    public Status preScore(CycleState state, PodInfo podInfo, ClusterView cluster, int[] feasibleNodes) {
        Pod pod = podInfo.pod();
        TopologySpreadConstraint[] cs = constraints(pod, false);
        int all = cluster.allNodeCount();
        if (cs.length == 0 || all == 0) {
            return Status.SKIP;
        }
        List<Map<String, long[]>> counts = new ArrayList<>(cs.length);
        for (int k = 0; k < cs.length; k++) {
            counts.add(new HashMap<>());
        }
        int maxIndex = 0;
        for (int i = 0; i < all; i++) {
            maxIndex = Math.max(maxIndex, cluster.anyNode(i).index());
        }
        boolean[] ignored = new boolean[maxIndex + 1];
        int ignoredCount = 0;
        // Domains come from the feasible nodes only; their counts from every node.
        for (int f : feasibleNodes) {
            NodeInfo node = cluster.anyNode(f);
            if (!hasAllKeys(node.node(), cs)) {
                ignored[node.index()] = true;
                ignoredCount++;
                continue;
            }
            for (int k = 0; k < cs.length; k++) {
                if (!HOSTNAME.equals(cs[k].topologyKey())) {
                    counts.get(k).putIfAbsent(node.node().labels().get(cs[k].topologyKey()), new long[1]);
                }
            }
        }
        double[] weights = new double[cs.length];
        for (int k = 0; k < cs.length; k++) {
            int size = HOSTNAME.equals(cs[k].topologyKey())
                    ? feasibleNodes.length - ignoredCount : counts.get(k).size();
            weights[k] = Math.log(size + 2);
        }
        RequiredNodeAffinity affinity = RequiredNodeAffinity.of(pod);
        String ns = pod.ref().namespace();
        for (int i = 0; i < all; i++) {
            NodeInfo node = cluster.anyNode(i);
            if (!hasAllKeys(node.node(), cs)) {
                continue;
            }
            for (int k = 0; k < cs.length; k++) {
                TopologySpreadConstraint c = cs[k];
                if (HOSTNAME.equals(c.topologyKey()) || !included(c, pod, node.node(), affinity)) {
                    continue;
                }
                long[] domain = counts.get(k).get(node.node().labels().get(c.topologyKey()));
                if (domain != null) {
                    domain[0] += countMatching(node, c.labelSelector(), ns);
                }
            }
        }
        state.put(SCORE_STATE, new ScoreState(cs, counts, weights, ignored, ns));
        return Status.SUCCESS;
    }

    /** Raw score: weighted matches in the node's domains (lower is better), or {@link #IGNORED}. */
    @Override
    public long score(CycleState state, PodInfo pod, NodeInfo node) {
        ScoreState s = state.get(SCORE_STATE);
        if (s == null) {
            return 0;
        }
        if (node.index() < s.ignored().length && s.ignored()[node.index()]) {
            return IGNORED;
        }
        Map<String, String> labels = node.node().labels();
        TopologySpreadConstraint[] cs = s.constraints();
        double score = 0;
        for (int k = 0; k < cs.length; k++) {
            TopologySpreadConstraint c = cs[k];
            String value = labels.get(c.topologyKey());
            if (value == null) {
                continue;
            }
            long cnt;
            if (HOSTNAME.equals(c.topologyKey())) {
                cnt = countMatching(node, c.labelSelector(), s.namespace());
            } else {
                long[] domain = s.counts().get(k).get(value);
                cnt = domain == null ? 0 : domain[0];
            }
            score += cnt * s.weights()[k] + (c.maxSkew() - 1);
        }
        return Math.round(score);
    }

    @Override
    public boolean normalizesAcrossNodes() {
        return true;
    }

    @Override
    public void normalize(CycleState state, PodInfo pod, long[] scores) {
        if (state.get(SCORE_STATE) == null) {
            return;
        }
        long min = Long.MAX_VALUE;
        long max = 0;
        for (long s : scores) {
            if (s == IGNORED) {
                continue;
            }
            min = Math.min(min, s);
            max = Math.max(max, s);
        }
        for (int i = 0; i < scores.length; i++) {
            if (scores[i] == IGNORED) {
                scores[i] = 0;
            } else if (max == 0) {
                scores[i] = MAX_SCORE;
            } else {
                scores[i] = MAX_SCORE * (max + min - scores[i]) / max;
            }
        }
    }
}
