package dev.muster.core.cycle;

/**
 * What the bounded search did for one group.
 *
 * @param ran       it ran (the greedy pass failed and the group qualifies)
 * @param steps     node evaluations it spent
 * @param budget    its budget
 * @param exhausted it stopped on the budget before proving there is no placement
 * @param found     it found a placement the greedy pass missed
 */
public record SearchReport(boolean ran, long steps, long budget, boolean exhausted, boolean found) {
    public static final SearchReport NOT_RUN = new SearchReport(false, 0, 0, false, false);
}
