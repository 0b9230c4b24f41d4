package dev.muster.core.cycle;

import dev.muster.core.framework.CycleState;

/**
 * The result of filtering and scoring one pod over a placement: the chosen node (snapshot index) or -1 with the
 * diagnosis, the number of node evaluations it cost, and the PreFilter state the verdicts were made with (what
 * Reserve receives).
 */
record PodAttempt(int node, Diagnosis diagnosis, int evaluations, CycleState state) {
    boolean fits() {
        return node >= 0;
    }
}
