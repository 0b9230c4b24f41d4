package dev.muster.core.cycle;

/**
 * The result of filtering and scoring one pod over a placement: the chosen node (snapshot index) or -1 with the
 * diagnosis, and the number of node evaluations it cost.
 */
record PodAttempt(int node, Diagnosis diagnosis, int evaluations) {
    boolean fits() {
        return node >= 0;
    }
}
