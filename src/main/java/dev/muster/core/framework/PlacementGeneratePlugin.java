package dev.muster.core.framework;

import java.util.List;

/**
 * Proposes the node sets a PodGroup may be placed in (upstream's PlacementGenerate, KEP-5732). Runs once per group
 * cycle, sequentially, before any member is filtered. Returns the candidate placements as subsets of the parent's
 * nodes (snapshot node indices, ascending), or null to leave the parent unchanged (the plugin does not constrain this
 * group). An empty list means no placement is valid. A rejection or Error status ends the cycle with its reason.
 */
public interface PlacementGeneratePlugin extends Plugin {
    /**
     * One candidate: a name (the domain value), its nodes, and its tier. Tier 0 candidates are tried first; a
     * higher tier is tried only when no candidate of a lower tier is feasible (Muster's multi-level and preferred
     * topology; upstream generates tier 0 only).
     */
    record Candidate(String name, int[] nodes, int tier) {
    }

    /** The candidates, or a status explaining why there are none. */
    record Result(List<Candidate> candidates, Status status) {
        private static final Result UNCHANGED = new Result(null, Status.SUCCESS);

        public static Result unchanged() {
            return UNCHANGED;
        }
    }

    Result generate(GroupContext group, ClusterView cluster, int[] parentNodes);
}
