package dev.muster.core.framework;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * Runs a {@link Profile}'s plugins at each extension point, in profile order, with kube-scheduler's rules for
 * combining their verdicts (upstream's {@code frameworkImpl}). Every loop over plugins lives here; the PodGroup
 * cycle decides <em>when</em> each point runs, this class decides <em>how</em>. Stateless and thread-safe; the
 * Filter and Score methods are the only ones called concurrently (over nodes).
 */
public final class FrameworkRuntime {
    private final Profile profile;
    private final List<FilterPlugin> filters;
    private final List<Profile.WeightedScore> scores;
    private final List<ReservePlugin> reserves;
    private final int[][] filtersOfPreFilter; // per PreFilter plugin: the Filter plugins it may skip (same name)
    private final int[][] scoresOfPreScore;   // per PreScore plugin: the Score plugins it may skip (same name)
    private final boolean[] normalizing;      // per Score plugin: whether it normalizes across nodes
    private final PodFields signedPodFields;
    private final Set<NodeField> lookedNodeFields;

    public FrameworkRuntime(Profile profile) {
        this.profile = profile;
        this.filters = profile.filter();
        this.scores = profile.score();
        this.reserves = profile.reserve();
        this.filtersOfPreFilter = new int[profile.preFilter().size()][];
        for (int p = 0; p < filtersOfPreFilter.length; p++) {
            String name = profile.preFilter().get(p).name();
            filtersOfPreFilter[p] = indicesNamed(name, filters.stream().map(Plugin::name).toList());
        }
        this.scoresOfPreScore = new int[profile.preScore().size()][];
        for (int p = 0; p < scoresOfPreScore.length; p++) {
            String name = profile.preScore().get(p).name();
            scoresOfPreScore[p] = indicesNamed(name, scores.stream().map(s -> s.plugin().name()).toList());
        }
        this.normalizing = new boolean[scores.size()];
        for (int k = 0; k < normalizing.length; k++) {
            normalizing[k] = scores.get(k).plugin().normalizesAcrossNodes();
        }
        this.signedPodFields = PodFields.of(signedPodFieldsOf(profile));
        this.lookedNodeFields = Collections.unmodifiableSet(lookedNodeFieldsOf(profile));
    }

    /** The PreFilter, Filter, PreScore and Score plugins, each once: what reads pods and nodes for verdicts. */
    private static List<Plugin> readers(Profile profile) {
        Set<Plugin> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        List<Plugin> all = new ArrayList<>();
        all.addAll(profile.preFilter());
        all.addAll(profile.filter());
        all.addAll(profile.preScore());
        for (Profile.WeightedScore s : profile.score()) {
            all.add(s.plugin());
        }
        List<Plugin> readers = new ArrayList<>();
        for (Plugin p : all) {
            if (seen.add(p)) {
                readers.add(p);
            }
        }
        return readers;
    }

    /**
     * The union of what the readers declare of a node ({@link Plugin#nodeFields}), less what a signing plugin's
     * {@link SignPlugin#nodeKeyFields} account for when no other plugin reads it plainly.
     */
    private static EnumSet<NodeField> lookedNodeFieldsOf(Profile profile) {
        return unkeyedReads(profile, EnumSet.noneOf(NodeField.class), "node", Plugin::nodeFields,
                SignPlugin::nodeKeyFields);
    }

    /**
     * The union of what the PreFilter, Filter, PreScore and Score plugins read of a pod ({@link Plugin#podFields}),
     * less what a signing plugin's key stands for ({@link SignPlugin#podKeyFields}) when no other plugin reads it
     * plainly, plus the scheduler name, which upstream's framework signs every pod with as it picks the profile.
     */
    private static Set<PodField> signedPodFieldsOf(Profile profile) {
        return unkeyedReads(profile, EnumSet.of(PodField.SCHEDULER_NAME), "pod", Plugin::podFields,
                SignPlugin::podKeyFields);
    }

    /**
     * {@code out} plus, for every reader of the profile, what it reads less what its own key stands for; a plugin that
     * keys a field it does not read is a programming error.
     */
    private static <F extends Enum<F>> EnumSet<F> unkeyedReads(Profile profile, EnumSet<F> out, String what,
                                                               java.util.function.Function<Plugin, Set<F>> reads,
                                                               java.util.function.Function<SignPlugin, Set<F>> keys) {
        for (Plugin p : readers(profile)) {
            Set<F> read = reads.apply(p);
            Set<F> keyed = p instanceof SignPlugin s ? keys.apply(s) : Set.of();
            if (!read.containsAll(keyed)) {
                throw new IllegalArgumentException("plugin " + p.name() + " keys " + what + " fields it does not read: "
                        + keyed + " not all in " + read);
            }
            for (F f : read) {
                if (!keyed.contains(f)) {
                    out.add(f);
                }
            }
        }
        return out;
    }

    private static int[] indicesNamed(String name, List<String> names) {
        return java.util.stream.IntStream.range(0, names.size()).filter(i -> names.get(i).equals(name)).toArray();
    }

    public Profile profile() {
        return profile;
    }

    /**
     * The pod fields a pod signature compares for this profile, computed once: what its PreFilter, Filter, PreScore
     * and Score plugins declare they read ({@link Plugin#podFields}), but for fields only a signing plugin's key stands
     * for ({@link SignPlugin#podKeyFields}), and the scheduler name.
     */
    public PodFields signedPodFields() {
        return signedPodFields;
    }

    /**
     * The node fields node looks compare for this profile, computed once: what its PreFilter, Filter, PreScore and
     * Score plugins declare they read ({@link Plugin#nodeFields}), but for fields that tell no two nodes apart for a
     * pod every signing plugin calls symmetric ({@link SignPlugin#nodeKeyFields}). With {@link NodeField#NAME} among
     * them, no two nodes look alike.
     */
    public Set<NodeField> lookedNodeFields() {
        return lookedNodeFields;
    }

    public int filterCount() {
        return filters.size();
    }

    public int scoreCount() {
        return scores.size();
    }

    /**
     * Sign: whether every plugin that signs pods says the pod's Filter verdicts and Scores depend only on each node's
     * own state (see {@link SignPlugin}); true when none signs.
     */
    public boolean runSign(PodInfo pod, ClusterView cluster) {
        for (SignPlugin p : profile.sign()) {
            if (!p.nodeLocal(pod, cluster)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether every signing plugin calls the pod node-local and reads nothing of a node beyond its look and key
     * ({@link SignPlugin#symmetric}): the condition for treating alike nodes, and placements of them, as one.
     */
    public boolean runSymmetric(PodInfo pod, ClusterView cluster) {
        for (SignPlugin p : profile.sign()) {
            if (!p.nodeLocal(pod, cluster) || !p.symmetric(pod, cluster)) {
                return false;
            }
        }
        return true;
    }

    /** Whether every signing plugin calls pods like this one interchangeable ({@link SignPlugin#interchangeable}). */
    public boolean runInterchangeable(PodInfo pod, ClusterView cluster) {
        for (SignPlugin p : profile.sign()) {
            if (!p.interchangeable(pod, cluster)) {
                return false;
            }
        }
        return true;
    }

    /** What the signing plugins read of a pod beyond its signature's fields ({@link SignPlugin#podKey}), or null. */
    public Object runPodKey(PodInfo pod, ClusterView cluster) {
        List<SignPlugin> sign = profile.sign();
        Object[] keys = null;
        for (int i = 0; i < sign.size(); i++) {
            Object k = sign.get(i).podKey(pod, cluster);
            if (k != null) {
                if (keys == null) {
                    keys = new Object[sign.size()];
                }
                keys[i] = k;
            }
        }
        return keys == null ? null : java.util.Arrays.asList(keys);
    }

    /** What the signing plugins read of a node beyond its NodeInfo ({@link SignPlugin#nodeKey}), or null. */
    public Object runNodeKey(NodeInfo node, ClusterView cluster) {
        List<SignPlugin> sign = profile.sign();
        if (sign.isEmpty()) {
            return null;
        }
        Object[] keys = new Object[sign.size()];
        boolean any = false;
        for (int i = 0; i < keys.length; i++) {
            keys[i] = sign.get(i).nodeKey(node, cluster);
            any |= keys[i] != null;
        }
        return any ? new NodeKey(keys) : null;
    }

    /** The signing plugins' keys of one node, hashed once (placement symmetry looks each node's key up). */
    private static final class NodeKey {
        private final Object[] keys;
        private final int hash;

        NodeKey(Object[] keys) {
            this.keys = keys;
            this.hash = java.util.Arrays.hashCode(keys);
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof NodeKey k) || k.hash != hash) {
                return false;
            }
            for (int i = 0; i < keys.length; i++) {
                if (keys[i] != k.keys[i] && (keys[i] == null || !keys[i].equals(k.keys[i]))) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    /** PreEnqueue: the first verdict that is not Success, else Success. */
    public Status runPreEnqueue(GroupContext group) {
        for (PreEnqueuePlugin p : profile.preEnqueue()) {
            Status s = p.preEnqueue(group);
            if (!s.isSuccess()) {
                return s;
            }
        }
        return Status.SUCCESS;
    }

    /**
     * PlacementGenerate: the candidates of the first plugin that constrains the group, {@link
     * PlacementGeneratePlugin.Result#unchanged()} when none does, or the first failure.
     */
    public PlacementGeneratePlugin.Result runPlacementGenerate(GroupContext group, ClusterView all, int[] parent) {
        for (PlacementGeneratePlugin g : profile.placementGenerate()) {
            PlacementGeneratePlugin.Result r = g.generate(group, all, parent);
            if (!r.status().isSuccess() || r.candidates() != null) {
                return r;
            }
        }
        return PlacementGeneratePlugin.Result.unchanged();
    }

    /**
     * PreFilter: runs every plugin; a Skip flags the Filter plugins of the same name in {@code filterSkipped}.
     * Returns the first failure, attributed to its plugin, or null.
     */
    public Status runPreFilter(CycleState state, PodInfo pod, ClusterView placement, boolean[] filterSkipped) {
        List<PreFilterPlugin> pre = profile.preFilter();
        for (int p = 0; p < pre.size(); p++) {
            Status st = pre.get(p).preFilter(state, pod, placement);
            if (st.code() == Code.Skip) {
                for (int k : filtersOfPreFilter[p]) {
                    filterSkipped[k] = true;
                }
            } else if (!st.isSuccess()) {
                return st.plugin() != null ? st : new Status(st.code(), st.reasons(), pre.get(p).name());
            }
        }
        return null;
    }

    /** Filter on one node: the first rejection, or null when every plugin not skipped passes. Concurrent. */
    public Status runFilter(CycleState state, PodInfo pod, NodeInfo node, boolean[] filterSkipped) {
        for (int k = 0; k < filters.size(); k++) {
            if (filterSkipped[k]) {
                continue;
            }
            Status st = filters.get(k).filter(state, pod, node);
            if (!st.isSuccess()) {
                return st;
            }
        }
        return null;
    }

    /** PreScore over the feasible nodes; a Skip flags the Score plugins of the same name in {@code scoreSkipped}. */
    public void runPreScore(CycleState state, PodInfo pod, ClusterView placement, int[] feasibleNodes,
                            boolean[] scoreSkipped) {
        List<PreScorePlugin> pre = profile.preScore();
        for (int p = 0; p < pre.size(); p++) {
            if (pre.get(p).preScore(state, pod, placement, feasibleNodes).code() == Code.Skip) {
                for (int k : scoresOfPreScore[p]) {
                    scoreSkipped[k] = true;
                }
            }
        }
    }

    /** Score plugin {@code k}'s raw score of one node (0 when skipped). Concurrent. */
    public long runScore(int k, CycleState state, PodInfo pod, NodeInfo node, boolean[] scoreSkipped) {
        return scoreSkipped[k] ? 0 : scores.get(k).plugin().score(state, pod, node);
    }

    /** Whether score plugin {@code k} rescales across nodes (else its normalized score is its raw score). */
    public boolean normalizesAcrossNodes(int k) {
        return normalizing[k];
    }

    /** Score plugin {@code k}'s normalization of the feasible nodes' raw scores, in place. */
    public void runNormalize(int k, CycleState state, PodInfo pod, long[] scores) {
        this.scores.get(k).plugin().normalize(state, pod, scores);
    }

    /** The weighted total of one node's normalized scores. */
    public long weightedTotal(long[][] normalized, int node, boolean[] scoreSkipped) {
        long t = 0;
        for (int k = 0; k < scores.size(); k++) {
            if (!scoreSkipped[k]) {
                t += scores.get(k).weight() * normalized[k][node];
            }
        }
        return t;
    }

    /**
     * Reserve: every plugin in order. On a failure the plugins that had reserved are unreserved, newest first, and
     * the failure is returned; Success otherwise.
     */
    public Status runReserve(CycleState state, PodInfo pod, NodeInfo node, ClusterView cluster) {
        for (int i = 0; i < reserves.size(); i++) {
            Status s = reserves.get(i).reserve(state, pod, node, cluster);
            if (!s.isSuccess()) {
                for (int j = i - 1; j >= 0; j--) {
                    reserves.get(j).unreserve(state, pod, node, cluster);
                }
                return s.plugin() != null ? s : new Status(s.code(), s.reasons(), reserves.get(i).name());
            }
        }
        return Status.SUCCESS;
    }

    /** Unreserve: every plugin, newest first. */
    public void runUnreserve(CycleState state, PodInfo pod, NodeInfo node, ClusterView cluster) {
        for (int j = reserves.size() - 1; j >= 0; j--) {
            reserves.get(j).unreserve(state, pod, node, cluster);
        }
    }

    /** Whether any plugin reserves anything (the cycle skips Reserve bookkeeping otherwise). */
    public boolean hasReserve() {
        return !reserves.isEmpty();
    }

    /** Permit in validation mode: a rejection or Error wins, then Wait, else Success. */
    public Status runPermit(GroupContext group, PodInfo pod, NodeInfo node, int placedInCycle) {
        Status result = Status.SUCCESS;
        for (PermitPlugin p : profile.permit()) {
            Status s = p.permit(group, pod, node, placedInCycle);
            if (s.isRejected() || s.code() == Code.Error) {
                return s;
            }
            if (s.code() == Code.Wait) {
                result = s;
            }
        }
        return result;
    }

    /**
     * Per candidate placement, an upper bound of the total {@link #runPlacementScore} can give any feasible proposal
     * on its nodes (the weighted sum of each plugin's {@linkplain PlacementScorePlugin#scoreBounds bound}); null when a
     * plugin cannot bound its score.
     *
     * @param cluster every node, as before any proposal is placed
     */
    public long[] placementScoreBounds(GroupContext group, ClusterView cluster, List<int[]> candidates) {
        if (placementRankedAlone(group)) {
            return null;
        }
        long[] bounds = new long[candidates.size()];
        for (Profile.WeightedPlacementScore ws : profile.placementScore()) {
            long[] b = ws.plugin().scoreBounds(group, cluster, candidates);
            if (b == null) {
                return null;
            }
            for (int i = 0; i < bounds.length; i++) {
                bounds[i] += ws.weight() * b[i];
            }
        }
        return bounds;
    }

    /** Whether a PlacementScore plugin {@linkplain PlacementScorePlugin#ranksAlone ranks} the group's placements alone. */
    public boolean placementRankedAlone(GroupContext group) {
        for (Profile.WeightedPlacementScore ws : profile.placementScore()) {
            if (ws.plugin().ranksAlone(group)) {
                return true;
            }
        }
        return false;
    }

    /** Whether every PlacementScore plugin {@linkplain PlacementScorePlugin#settles settles} on these proposals. */
    public boolean placementScoresSettled(GroupContext group, List<PlacementScorePlugin.Proposal> proposals) {
        for (Profile.WeightedPlacementScore ws : profile.placementScore()) {
            if (!ws.plugin().settles(group, proposals)) {
                return false;
            }
        }
        return true;
    }

    /**
     * PlacementScore: the first plugin that ranks the group's placements alone (a strategy the group asked for)
     * decides; otherwise each plugin scores every feasible placement, normalizes, and adds weight × score to the
     * placement's total, and the highest total wins (the first among equals: callers pass placements in name order).
     *
     * @param cluster    every node, as before any proposal is placed
     * @param placements each proposal's own placement
     */
    public PlacementScorePlugin.Ranking runPlacementScore(GroupContext group, ClusterView cluster,
                                                         List<? extends ClusterView> placements,
                                                         List<PlacementScorePlugin.Proposal> proposals) {
        for (Profile.WeightedPlacementScore ws : profile.placementScore()) {
            PlacementScorePlugin.Ranking alone = ws.plugin().rankAlone(group, cluster, proposals);
            if (alone != null) {
                return alone;
            }
        }
        long[] totals = new long[proposals.size()];
        for (Profile.WeightedPlacementScore ws : profile.placementScore()) {
            long[] s = new long[proposals.size()];
            for (int i = 0; i < s.length; i++) {
                s[i] = ws.plugin().scorePlacement(group, placements.get(i), proposals.get(i));
            }
            ws.plugin().normalizePlacementScores(s);
            for (int i = 0; i < s.length; i++) {
                totals[i] += ws.weight() * s[i];
            }
        }
        int best = 0;
        for (int i = 1; i < totals.length; i++) {
            if (totals[i] > totals[best]) {
                best = i;
            }
        }
        return new PlacementScorePlugin.Ranking(totals, best);
    }

    /** Whether any PostFilter plugin is enabled. */
    public boolean hasPostFilter() {
        return !profile.postFilter().isEmpty();
    }

    /**
     * PostFilter: plugins in order, each on a fresh simulation, until {@code accept} takes one's result (the caller
     * checks the victims make the group fit, and undoes the simulation otherwise). Returns the accepted result, or
     * a result without victims carrying the first plugin's failure.
     */
    public PostFilterPlugin.Result runPostFilter(GroupContext group, int groupPriority,
                                                 java.util.function.Supplier<PostFilterPlugin.Simulation> simulations,
                                                 java.util.function.Predicate<PostFilterPlugin.Result> accept) {
        Status firstFailure = null;
        for (PostFilterPlugin plugin : profile.postFilter()) {
            PostFilterPlugin.Result r = plugin.postFilter(group, groupPriority, simulations.get());
            if (accept.test(r)) {
                return r;
            }
            if (firstFailure == null && !r.status().isSuccess()) {
                firstFailure = r.status();
            }
        }
        return new PostFilterPlugin.Result(List.of(), firstFailure == null ? Status.SUCCESS : firstFailure);
    }
}
