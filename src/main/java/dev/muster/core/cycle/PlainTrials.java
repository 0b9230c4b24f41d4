package dev.muster.core.cycle;

import dev.muster.core.framework.GroupContext;
import dev.muster.core.framework.PlacementGeneratePlugin;
import dev.muster.core.framework.PlacementScorePlugin;
import dev.muster.core.snapshot.SnapshotOverlay;

/**
 * The reference trial runner: each candidate's members placed in turn ({@link PodGroupCycle#placeMembers}) and
 * rolled back, the chosen one assumed again ({@link PodGroupCycle#assumeChosen}). What the engine runs with batching
 * off, and what the speed-ups decorate.
 */
final class PlainTrials implements Trials {
    private final SchedulingScope scope;
    private final SnapshotOverlay snapshot;
    private final PodGroupCycle cycle;
    private final GroupContext group;

    PlainTrials(SchedulingScope scope, PodGroupCycle cycle, GroupContext group) {
        this.scope = scope;
        this.snapshot = scope.snapshot();
        this.cycle = cycle;
        this.group = group;
    }

    @Override
    public TrialOutcome run(PlacementGeneratePlugin.Candidate candidate) {
        int mark = snapshot.mark();
        TrialOutcome outcome = runHeld(candidate);
        snapshot.rollbackTo(mark);
        return outcome;
    }

    /** The candidate's trial, left assumed when it is feasible (an infeasible one assumes nothing). */
    TrialOutcome runHeld(PlacementGeneratePlugin.Candidate candidate) {
        return new Ran(candidate, cycle.placeMembers(group, scope.placement(candidate.name(), candidate.nodes())));
    }

    @Override
    public void settle(TrialOutcome outcome, boolean lastOfTier) {
        // every trial is rolled back already
    }

    @Override
    public SnapshotOverlay boundState() {
        return snapshot;
    }

    @Override
    public SnapshotOverlay rankState() {
        return snapshot;
    }

    @Override
    public void choose(TrialOutcome chosen) {
        cycle.assumeChosen(group, chosen.result());
    }

    /** A trial that ran on its candidate. */
    private record Ran(PlacementGeneratePlugin.Candidate candidate, CycleResult result) implements TrialOutcome {
        @Override
        public boolean feasible() {
            return result.feasible();
        }

        @Override
        public int placed() {
            return result.placed();
        }

        @Override
        public String message() {
            return TrialOutcome.firstMessage(result);
        }

        @Override
        public boolean ran() {
            return true;
        }

        @Override
        public PlacementScorePlugin.Proposal proposal() {
            return TrialOutcome.proposal(candidate, result);
        }
    }
}
