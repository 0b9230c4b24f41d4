package dev.muster.core.framework;

/**
 * Ranks feasible placements of a PodGroup (upstream's PlacementScore). Runs once per feasible placement, sequentially,
 * with the members the cycle proposed for it; {@link #normalize} then rescales all placements' scores into
 * [{@link ScorePlugin#MIN_SCORE}, {@link ScorePlugin#MAX_SCORE}]. The profile's weight multiplies the result.
 */
public interface PlacementScorePlugin extends Plugin {
    /** The members proposed for one placement: pods and the snapshot node index each would go to. */
    record Proposal(String placement, int[] nodes, PodInfo[] pods, int[] podNodes) {
    }

    long scorePlacement(GroupContext group, ClusterView cluster, Proposal proposal);

    default void normalizePlacementScores(long[] scores) {
    }
}
