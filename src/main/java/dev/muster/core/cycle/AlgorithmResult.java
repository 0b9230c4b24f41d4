package dev.muster.core.cycle;

import java.util.List;

/**
 * The outcome of the PodGroup algorithm: the cycle result of the chosen placement (or of the first evaluated one
 * when none was feasible), the group-level message when placements were involved, the chosen placement's name, and
 * every candidate placement's report (empty when the group has no topology constraint).
 */
public record AlgorithmResult(CycleResult cycle, String message, String placement, List<PlacementReport> placements) {
}
