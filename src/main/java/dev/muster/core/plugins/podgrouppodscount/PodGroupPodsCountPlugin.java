package dev.muster.core.plugins.podgrouppodscount;

import dev.muster.core.framework.ClusterView;
import dev.muster.core.framework.GroupContext;
import dev.muster.core.framework.PlacementScorePlugin;
import dev.muster.core.framework.ScorePlugin;

/**
 * Favours placements that hold more of the group (upstream PodGroupPodsCount): raw score = bound members plus the
 * members proposed for the placement; normalized as {@code 100 * raw / max raw} (integer division).
 */
public final class PodGroupPodsCountPlugin implements PlacementScorePlugin {
    public static final String NAME = "PodGroupPodsCount";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public long scorePlacement(GroupContext group, ClusterView cluster, Proposal proposal) {
        return group.bound().size() + proposal.pods().length;
    }

    /** Normalized scores are at most {@link ScorePlugin#MAX_SCORE}. */
    @Override
    public long[] scoreBounds(GroupContext group, ClusterView cluster, java.util.List<int[]> candidates) {
        long[] bounds = new long[candidates.size()];
        java.util.Arrays.fill(bounds, ScorePlugin.MAX_SCORE);
        return bounds;
    }

    /**
     * Normalizing divides by the highest raw score: settled once a proposal places every pending member, the highest
     * raw score any proposal can have.
     */
    @Override
    public boolean settles(GroupContext group, java.util.List<Proposal> proposals) {
        for (Proposal p : proposals) {
            if (p.pods().length >= group.pending().size()) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void normalizePlacementScores(long[] scores) {
        long max = 0;
        for (long s : scores) {
            max = Math.max(max, s);
        }
        for (int i = 0; i < scores.length; i++) {
            scores[i] = max == 0 ? ScorePlugin.MIN_SCORE
                    : ScorePlugin.MIN_SCORE + scores[i] * (ScorePlugin.MAX_SCORE - ScorePlugin.MIN_SCORE) / max;
        }
    }
}
