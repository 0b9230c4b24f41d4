package dev.muster.core.framework;

/**
 * Ranks feasible placements of a PodGroup (upstream's PlacementScore). Runs once per feasible placement, sequentially,
 * with the members the cycle proposed for it; {@link #normalizePlacementScores} then rescales all placements' scores into
 * [{@link ScorePlugin#MIN_SCORE}, {@link ScorePlugin#MAX_SCORE}]. The profile's weight multiplies the result.
 */
public interface PlacementScorePlugin extends Plugin {
    /** The members proposed for one placement: pods and the snapshot node index each would go to. */
    record Proposal(String placement, int[] nodes, PodInfo[] pods, int[] podNodes) {
    }

    /** Each placement's score as reported (higher is better) and the index of the winning placement. */
    record Ranking(long[] scores, int best) {
    }

    long scorePlacement(GroupContext group, ClusterView cluster, Proposal proposal);

    default void normalizePlacementScores(long[] scores) {
    }

    /**
     * A placement strategy a group asks for (Muster's extension, e.g. BestFit): a plugin that returns a ranking for
     * the group ranks its feasible placements alone, in place of the weighted sum of every PlacementScore plugin.
     * Null, the default: the plugin only adds its weighted score.
     *
     * @param cluster every node of the snapshot, as before any proposal is placed
     */
    default Ranking rankAlone(GroupContext group, ClusterView cluster, java.util.List<Proposal> proposals) {
        return null;
    }

    /** Whether {@link #rankAlone} returns a ranking for the group's placements. */
    default boolean ranksAlone(GroupContext group) {
        return false;
    }

    /** {@link #scoreBound}'s answer when the plugin cannot bound a placement's score. */
    long UNBOUNDED = Long.MAX_VALUE;

    /**
     * An upper bound of the normalized score this plugin gives any feasible proposal of the group on {@code nodes}
     * (a candidate placement's node indices), read from {@code cluster} before any member is placed, and valid once
     * the scored proposals {@linkplain #settles settle} the normalization. With a bound from every plugin, the cycle
     * stops trying placements once one scored scores above what any placement not yet tried could. The default,
     * {@link #UNBOUNDED}, has every feasible placement tried, as has a group a plugin {@linkplain #rankAlone ranks
     * alone}.
     */
    default long scoreBound(GroupContext group, ClusterView cluster, int[] nodes) {
        return UNBOUNDED;
    }

    /**
     * Whether proposals not yet scored can change none of these proposals' normalized scores. False, the default:
     * normalization may depend on every proposal, so every feasible placement is tried.
     */
    default boolean settles(GroupContext group, java.util.List<Proposal> proposals) {
        return false;
    }
}
