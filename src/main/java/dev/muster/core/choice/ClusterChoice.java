package dev.muster.core.choice;

import dev.muster.core.decision.DecisionResult;

/**
 * One cluster's answer for a workload: its decisions, read as a {@link Fit}, and its place among the clusters asked.
 *
 * @param rank    1 for the cluster that takes the workload best; 0 until ranked
 * @param victims distinct pods the decisions evict
 * @param highestVictimPriority the highest priority among them (PodGroup priority overriding), 0 without victims
 * @param score   the sum of the decisions' placement scores ({@link dev.muster.core.decision.Decision#score()}); 0
 *                for a cluster the workload does not fit
 * @param message one line that says why the cluster ranks where it does
 */
public record ClusterChoice(String cluster, int rank, Fit fit, DecisionResult result, int victims,
                            int highestVictimPriority, long score, String message) {
    ClusterChoice withRank(int r) {
        return new ClusterChoice(cluster, r, fit, result, victims, highestVictimPriority, score, message);
    }
}
