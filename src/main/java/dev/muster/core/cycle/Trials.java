package dev.muster.core.cycle;

import dev.muster.core.framework.PlacementGeneratePlugin;
import dev.muster.core.snapshot.SnapshotOverlay;

/**
 * Runs the trials of one group's candidate placements for {@link PlacementSelection}, which keeps to tiers, pruning
 * and ranking. {@link PlainTrials} runs each candidate's members and rolls them back: the reference. The speed-ups
 * decorate it ({@link SpeedupTwins}, {@link SpeedupKeptTrial}) and give the same outcomes, the same rankings and the
 * same state once a placement is chosen; the equivalence tests hold them to the plain runner, which is what the
 * engine runs with batching off.
 */
interface Trials {
    /**
     * The outcome of the candidate's trial. The snapshot is left as it was, except that a feasible trial may stay
     * assumed until {@link #settle} says whether the tier's walk can end with it.
     */
    TrialOutcome run(PlacementGeneratePlugin.Candidate candidate);

    /**
     * Called after each feasible outcome, before the next candidate runs: {@code lastOfTier} when no later candidate
     * of the tier runs (the walk stops, or the candidates left are pruned), so the trial may stay assumed while the
     * tier is ranked.
     */
    void settle(TrialOutcome outcome, boolean lastOfTier);

    /**
     * The state before any trial, as the walk's score-bound check ranks the feasible outcomes so far: the snapshot,
     * or a fresh run on it when trials may stay assumed.
     */
    SnapshotOverlay boundState();

    /**
     * The state before any trial, as the tier's ranking reads it: the snapshot, or a fresh run on it while a trial
     * stays assumed.
     */
    SnapshotOverlay rankState();

    /**
     * Leaves the chosen outcome's members assumed as its trial assumed them (in the same order, with the same
     * Reserve alternative), and no other trial.
     */
    void choose(TrialOutcome chosen);
}
