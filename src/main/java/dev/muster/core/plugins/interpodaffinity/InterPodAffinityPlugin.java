package dev.muster.core.plugins.interpodaffinity;

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
import dev.muster.core.model.Affinity;
import dev.muster.core.model.Pod;
import dev.muster.core.plugins.support.TopologyCounts;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Inter-pod affinity and anti-affinity, against every pod bound or assumed on any node of the snapshot (so
 * members placed earlier in the same cycle count).
 * <p>
 * Filter, in upstream's order: (1) the incoming pod's required affinity: every term's topology key must be on
 * the node and some pod matching all terms must be in the node's domain, except for the first pod of a
 * self-affine set (nothing matches anywhere and the pod matches its own terms) — unresolvable; (2) its required
 * anti-affinity: no matching pod in the node's domain of any term — Unschedulable; (3) existing pods' required
 * anti-affinity: no pod whose term matches the incoming pod may share a domain with the node — Unschedulable.
 * PreFilter counts matches per domain, so Filter is O(terms) per node. The counts come from two per-snapshot
 * indexes the snapshot keeps current as pods are assumed and forgotten ({@link ExistingTerms}: existing pods'
 * terms aggregated per distinct term and domain; {@link PodsByLabel}: pods by label pair), not from a walk over
 * every pod of the cluster for every pod evaluated.
 * <p>
 * Score: per domain, the weights of the incoming pod's preferred terms matched by existing pods (anti-affinity
 * subtracts), plus existing pods' preferred terms matched by the incoming pod, plus existing pods' required
 * affinity terms at hard-affinity weight 1; a node sums its domains; normalized min-max to 0..100.
 */
public final class InterPodAffinityPlugin implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin,
        SignPlugin {
    public static final String NAME = "InterPodAffinity";
    public static final String REASON_AFFINITY = "node(s) didn't match pod affinity rules";
    public static final String REASON_ANTI_AFFINITY = "node(s) didn't match pod anti-affinity rules";
    public static final String REASON_EXISTING_ANTI_AFFINITY = "node(s) didn't satisfy existing pods anti-affinity rules";

    /** Upstream's default {@code hardPodAffinityWeight}. */
    static final int HARD_POD_AFFINITY_WEIGHT = 1;

    private record FilterState(List<ResolvedTerm> affinity, List<ResolvedTerm> antiAffinity,
                               TopologyCounts affinityCounts, TopologyCounts antiAffinityCounts,
                               TopologyCounts existingAntiAffinityCounts, boolean selfMatchesAllAffinity) {
    }

    private record ScoreState(String[] keys, TopologyCounts scores) {
    }

    private static final StateKey<FilterState> FILTER_STATE = StateKey.of("PreFilter" + NAME);
    private static final StateKey<ScoreState> SCORE_STATE = StateKey.of("PreScore" + NAME);
    private static final StateKey<ExistingTerms> EXISTING_TERMS = StateKey.of(NAME + "/existingTerms");
    private static final StateKey<PodsByLabel> PODS_BY_LABEL = StateKey.of(NAME + "/podsByLabel");

    /** The pod's terms, and its namespace and labels, which its own terms and existing pods' terms match. */
    private static final Set<PodField> READS = Set.of(PodField.NAMESPACE, PodField.LABELS, PodField.AFFINITY);

    private static final Set<PodField> KEYED = Set.of(PodField.LABELS);

    private static final Set<NodeField> NODE_READS = Set.of(NodeField.LABELS, NodeField.PODS);

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Set<PodField> podFields() {
        return READS;
    }

    /** The labels only through {@link #podKey}: they count only when some term can see them. */
    @Override
    public Set<PodField> podKeyFields() {
        return KEYED;
    }

    /**
     * The node's labels (its domain of each term's topology key) and the pods on it and on every other node (their
     * namespaces and labels that terms match, their own terms).
     */
    @Override
    public Set<NodeField> nodeFields() {
        return NODE_READS;
    }

    /** Read only when some pod has terms, and then this plugin does not call the pod symmetric. */
    @Override
    public Set<NodeField> nodeKeyFields() {
        return NODE_READS;
    }

    /** The scheduler itself brings verdicts up to date across the domains of the terms involved. */
    @Override
    public boolean nodeLocal(PodInfo pod, ClusterView cluster) {
        return true;
    }

    /**
     * Not when the pod or any pod in the cluster has terms: a verdict then reads other nodes' pods and the node's
     * labels. Otherwise PreFilter and PreScore skip, and nothing of a node is read.
     */
    @Override
    public boolean symmetric(PodInfo pod, ClusterView cluster) {
        return !pod.pod().affinity().hasPodAffinity() && cluster.podsWithAffinity() == 0;
    }

    /** A member with terms depends on where the others went. */
    @Override
    public boolean interchangeable(PodInfo pod, ClusterView cluster) {
        return !pod.pod().affinity().hasPodAffinity();
    }

    /**
     * The pod's labels, when some pod's terms can read them: its own (a term may match the pod itself), or those of
     * pods already in the cluster. Otherwise labels change no verdict or score of this plugin.
     */
    @Override
    public Object podKey(PodInfo pod, ClusterView cluster) {
        return pod.pod().affinity().hasPodAffinity() || cluster.podsWithAffinity() > 0 ? pod.pod().labels() : null;
    }

    @Override
    public Status preFilter(CycleState state, PodInfo podInfo, ClusterView cluster) {
        Pod pod = podInfo.pod();
        List<ResolvedTerm> affinity = ResolvedTerm.required(pod, pod.affinity().requiredPodAffinity());
        List<ResolvedTerm> anti = ResolvedTerm.required(pod, pod.affinity().requiredPodAntiAffinity());

        boolean anyRequiredAnti = cluster.podsWithRequiredAntiAffinity() > 0;
        if (affinity.isEmpty() && anti.isEmpty() && !anyRequiredAnti) {
            return Status.SKIP; // nothing to check anywhere
        }
        TopologyCounts existingAnti = new TopologyCounts();
        if (anyRequiredAnti) {
            cluster.podIndex(EXISTING_TERMS, ExistingTerms::new).forEachMatching(pod,
                    ExistingTerms.REQUIRED_ANTI_AFFINITY, e -> addCounts(existingAnti, e, 1));
        }
        TopologyCounts affinityCounts = new TopologyCounts();
        TopologyCounts antiCounts = new TopologyCounts();
        if (!affinity.isEmpty() || !anti.isEmpty()) {
            PodsByLabel pods = cluster.podIndex(PODS_BY_LABEL, PodsByLabel::new);
            if (!affinity.isEmpty()) {
                // a pod counts for affinity when it matches every term; the first term's candidates are a superset
                pods.forEachCandidate(affinity.get(0), (existing, node) -> {
                    if (ResolvedTerm.matchesAll(affinity, existing.pod())) {
                        Map<String, String> labels = node.node().labels();
                        for (ResolvedTerm t : affinity) {
                            String value = labels.get(t.topologyKey());
                            if (value != null) {
                                affinityCounts.add(t.topologyKey(), value, 1);
                            }
                        }
                    }
                });
            }
            for (ResolvedTerm t : anti) {
                pods.forEachCandidate(t, (existing, node) -> {
                    String value = node.node().labels().get(t.topologyKey());
                    if (value != null && t.matches(existing.pod())) {
                        antiCounts.add(t.topologyKey(), value, 1);
                    }
                });
            }
        }
        state.put(FILTER_STATE, new FilterState(affinity, anti, affinityCounts, antiCounts, existingAnti,
                ResolvedTerm.matchesAll(affinity, pod)));
        return Status.SUCCESS;
    }

    /** Adds an existing term's pods per domain, times {@code factor}; domains it left are skipped. */
    private static void addCounts(TopologyCounts into, ExistingTerms.Entry e, long factor) {
        String key = e.term.topologyKey();
        for (Map.Entry<String, long[]> d : e.byValue.entrySet()) {
            long pods = d.getValue()[0];
            if (pods != 0) {
                into.add(key, d.getKey(), pods * factor);
            }
        }
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
        FilterState s = state.get(FILTER_STATE);
        if (s == null) {
            return Status.error(NAME, "PreFilter state of " + NAME + " is missing: run PreFilter before Filter");
        }
        Map<String, String> labels = node.node().labels();
        if (!satisfiesAffinity(s, labels)) {
            return Status.unresolvable(NAME, REASON_AFFINITY);
        }
        List<ResolvedTerm> anti = s.antiAffinity();
        for (int i = 0, n = anti.size(); i < n; i++) {
            String key = anti.get(i).topologyKey();
            String value = labels.get(key);
            if (value != null && s.antiAffinityCounts().get(key, value) > 0) {
                return Status.unschedulable(NAME, REASON_ANTI_AFFINITY);
            }
        }
        List<String> keys = s.existingAntiAffinityCounts().keys();
        for (int i = 0, n = keys.size(); i < n; i++) {
            String key = keys.get(i);
            String value = labels.get(key);
            if (value != null && s.existingAntiAffinityCounts().get(key, value) > 0) {
                return Status.unschedulable(NAME, REASON_EXISTING_ANTI_AFFINITY);
            }
        }
        return Status.SUCCESS;
    }

    private static boolean satisfiesAffinity(FilterState s, Map<String, String> labels) {
        List<ResolvedTerm> affinity = s.affinity();
        boolean podsExist = true;
        for (int i = 0, n = affinity.size(); i < n; i++) {
            String key = affinity.get(i).topologyKey();
            String value = labels.get(key);
            if (value == null) {
                return false;
            }
            if (s.affinityCounts().get(key, value) <= 0) {
                podsExist = false;
            }
        }
        if (podsExist) {
            return true;
        }
        // The first pod of a set with affinity to itself: nothing matches anywhere yet, and the pod matches
        // its own terms, so it may start the set rather than stay pending forever.
        return s.affinityCounts().isEmpty() && s.selfMatchesAllAffinity();
    }

    @Override
    public Status preScore(CycleState state, PodInfo podInfo, ClusterView cluster, int[] feasibleNodes) {
        if (feasibleNodes.length == 0) {
            return Status.SKIP;
        }
        Pod pod = podInfo.pod();
        Affinity a = pod.affinity();
        List<ResolvedTerm> preferred = ResolvedTerm.weighted(pod, a.preferredPodAffinity());
        List<ResolvedTerm> preferredAnti = ResolvedTerm.weighted(pod, a.preferredPodAntiAffinity());
        boolean hasConstraints = !preferred.isEmpty() || !preferredAnti.isEmpty();
        if (!hasConstraints && cluster.podsWithAffinity() == 0) {
            return Status.SKIP; // no term on either side
        }

        TopologyCounts scores = new TopologyCounts();
        if (hasConstraints) {
            PodsByLabel pods = cluster.podIndex(PODS_BY_LABEL, PodsByLabel::new);
            addOwnMatches(scores, pods, preferred, 1);
            addOwnMatches(scores, pods, preferredAnti, -1);
        }
        if (cluster.podsWithAffinity() > 0) {
            ExistingTerms existing = cluster.podIndex(EXISTING_TERMS, ExistingTerms::new);
            if (HARD_POD_AFFINITY_WEIGHT > 0) {
                existing.forEachMatching(pod, ExistingTerms.REQUIRED_AFFINITY,
                        e -> addCounts(scores, e, HARD_POD_AFFINITY_WEIGHT));
            }
            existing.forEachMatching(pod, ExistingTerms.PREFERRED_AFFINITY,
                    e -> addCounts(scores, e, e.term.weight()));
            existing.forEachMatching(pod, ExistingTerms.PREFERRED_ANTI_AFFINITY,
                    e -> addCounts(scores, e, -e.term.weight()));
        }
        if (scores.isEmpty()) {
            return Status.SKIP;
        }
        state.put(SCORE_STATE, new ScoreState(scores.keys().toArray(new String[0]), scores));
        return Status.SUCCESS;
    }

    /** The incoming pod's own weighted terms: each matching pod on a node adds ±weight to its domain. */
    private static void addOwnMatches(TopologyCounts scores, PodsByLabel pods, List<ResolvedTerm> terms, int sign) {
        for (ResolvedTerm t : terms) {
            pods.forEachCandidate(t, (existing, node) -> {
                String value = node.node().labels().get(t.topologyKey());
                if (value != null && t.matches(existing.pod())) {
                    scores.add(t.topologyKey(), value, (long) t.weight() * sign);
                }
            });
        }
    }

    @Override
    public long score(CycleState state, PodInfo pod, NodeInfo node) {
        ScoreState s = state.get(SCORE_STATE);
        if (s == null) {
            return 0;
        }
        Map<String, String> labels = node.node().labels();
        long score = 0;
        String[] keys = s.keys();
        for (int i = 0; i < keys.length; i++) {
            String value = labels.get(keys[i]);
            if (value != null) {
                score += s.scores().get(keys[i], value);
            }
        }
        return score;
    }

    /** Min-max scaling: the lowest raw score becomes 0, the highest 100; all equal gives 0 everywhere. */
    @Override
    public boolean normalizesAcrossNodes() {
        return true;
    }

    @Override
    public void normalize(CycleState state, PodInfo pod, long[] scores) {
        if (state.get(SCORE_STATE) == null || scores.length == 0) {
            return;
        }
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (long s : scores) {
            min = Math.min(min, s);
            max = Math.max(max, s);
        }
        long diff = max - min;
        for (int i = 0; i < scores.length; i++) {
            scores[i] = diff > 0 ? (long) (MAX_SCORE * ((double) (scores[i] - min) / (double) diff)) : 0;
        }
    }
}
