package dev.muster.core.cycle;

/**
 * How one candidate placement fared: feasible with its total score, pruned before evaluation (not enough free
 * capacity), or infeasible with the first member's reason.
 */
public record PlacementReport(String name, int tier, int nodes, boolean feasible, boolean pruned, long score,
                              int placed, String message) {
}
