package dev.muster.core.cycle;

import java.util.List;

/**
 * The outcome of the PodGroup algorithm: the cycle result of the chosen placement (or of the first evaluated one
 * when none was feasible), the group-level message when placements were involved, the chosen placement's name, and
 * every candidate placement's report (empty when the group has no topology constraint).
 *
 * @param closest when nothing was feasible: the evaluated placement whose trial placed the most members (the first
 *                such candidate; all nodes for a group without candidates), else null. It costs nothing: the trial
 *                ran anyway, and only its result is kept.
 * @param chosen  the node set the feasible placement was chosen in (one domain, or every node); null when nothing
 *                was feasible
 */
public record AlgorithmResult(CycleResult cycle, String message, String placement, List<PlacementReport> placements,
                              Trial closest, Placement chosen) {
    public AlgorithmResult(CycleResult cycle, String message, String placement, List<PlacementReport> placements) {
        this(cycle, message, placement, placements, null, null);
    }

    public AlgorithmResult(CycleResult cycle, String message, String placement, List<PlacementReport> placements,
                           Trial closest) {
        this(cycle, message, placement, placements, closest, null);
    }

    /**
     * One placement's trial that did not hold the group: the placement's name ({@code *} for all nodes), its nodes
     * (snapshot indices) and the members' results as the trial left them (placed members with their nodes, though
     * the trial was rolled back).
     */
    public record Trial(String name, int[] nodes, CycleResult result) {
    }
}
