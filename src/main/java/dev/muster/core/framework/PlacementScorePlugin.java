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

    /**
     * Per candidate placement (its node indices), an upper bound of the normalized score this plugin gives any
     * feasible proposal of the group on those nodes, read from {@code cluster} before any member is placed, and valid
     * once the scored proposals {@linkplain #settles settle} the normalization. With bounds from every plugin, the
     * cycle stops trying placements once one scored scores above what any placement not yet tried could. Null, the
     * default: the plugin cannot bound its scores, and every feasible placement is tried, as it is for a group a
     * plugin {@linkplain #rankAlone ranks alone}.
     */
    default long[] scoreBounds(GroupContext group, ClusterView cluster, java.util.List<int[]> candidates) {
        return null;
    }

    /**
     * Whether proposals not yet scored can change none of these proposals' normalized scores. False, the default:
     * normalization may depend on every proposal, so every feasible placement is tried.
     */
    default boolean settles(GroupContext group, java.util.List<Proposal> proposals) {
        return false;
    }
}
