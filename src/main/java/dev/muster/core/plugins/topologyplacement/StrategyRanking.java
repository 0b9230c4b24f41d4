package dev.muster.core.plugins.topologyplacement;

import dev.muster.core.framework.ClusterView;
import dev.muster.core.framework.GroupContext;
import dev.muster.core.framework.PlacementScorePlugin;

import java.util.List;

/**
 * A PlacementScore plugin for a placement strategy a group asks for by annotation: it ranks the group's placements
 * alone when asked ({@link #rankAlone}, {@link #ranksAlone}) and adds nothing to the weighted sum otherwise, so its
 * score is 0 for every placement, bounded by 0, and needs no normalization.
 */
interface StrategyRanking extends PlacementScorePlugin {
    @Override
    default long scorePlacement(GroupContext group, ClusterView cluster, Proposal proposal) {
        return 0;
    }

    @Override
    default long[] scoreBounds(GroupContext group, ClusterView cluster, List<int[]> candidates) {
        return new long[candidates.size()];
    }

    @Override
    default boolean settles(GroupContext group, List<Proposal> proposals) {
        return true;
    }
}
