package dev.muster.core.cycle;

import dev.muster.core.framework.PlacementGeneratePlugin;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.snapshot.SnapshotOverlay;

import java.util.List;

/**
 * The kept trial, over the plain runner: the tier's last feasible trial stays assumed while the tier is ranked, and
 * when ranking chooses it and its changes are exactly what assuming its members again would make (its placed members
 * in sequence order), it stays as it is instead of being rolled back and assumed again (a quarter of a large gang's
 * cycle). Every other trial is rolled back before the next candidate runs.
 * <p>
 * Ranking reads the state before any trial from a fresh run on the snapshot, which is that state only for a run that
 * assumed nothing before the group; and a strategy that ranks alone may read what the run remembered while
 * generating. {@link PlacementSelection} composes it only for a run with nothing assumed and a ranking that is a sum
 * of scores.
 */
final class SpeedupKeptTrial implements Trials {
    private final PlainTrials plain;
    private final SnapshotOverlay snapshot;
    /** A fresh run on the snapshot, made when ranking first needs it. */
    private SnapshotOverlay before;
    /** The feasible trial still assumed, and the mark it rolls back to; null when none is. */
    private TrialOutcome held;
    private int heldMark;

    SpeedupKeptTrial(PlainTrials plain, SnapshotOverlay snapshot) {
        this.plain = plain;
        this.snapshot = snapshot;
    }

    @Override
    public TrialOutcome run(PlacementGeneratePlugin.Candidate candidate) {
        if (held != null) {
            release(); // another candidate runs after it: it cannot stay
        }
        int mark = snapshot.mark();
        TrialOutcome outcome = plain.runHeld(candidate);
        if (outcome.feasible()) {
            held = outcome;
            heldMark = mark;
        }
        return outcome;
    }

    @Override
    public void settle(TrialOutcome outcome, boolean lastOfTier) {
        if (outcome == held && !lastOfTier) {
            release();
        }
    }

    @Override
    public SnapshotOverlay boundState() {
        return beforeTrials();
    }

    @Override
    public SnapshotOverlay rankState() {
        return held == null ? snapshot : beforeTrials();
    }

    @Override
    public void choose(TrialOutcome chosen) {
        if (held != null && chosen == held && holdsAsReassumed()) {
            return;
        }
        if (held != null) {
            release();
        }
        plain.choose(chosen);
    }

    private void release() {
        snapshot.rollbackTo(heldMark);
        held = null;
    }

    /** Whether the held trial's changes are exactly what {@link PodGroupCycle#assumeChosen} would make of it. */
    private boolean holdsAsReassumed() {
        List<MemberResult> placed = PodGroupCycle.inSequence(held.result());
        PodInfo[] pods = new PodInfo[placed.size()];
        int[] nodes = new int[placed.size()];
        for (int i = 0; i < pods.length; i++) {
            pods[i] = placed.get(i).pod();
            nodes[i] = placed.get(i).node();
        }
        return snapshot.assumedExactly(heldMark, pods, nodes);
    }

    /** The state before any trial while one may stay assumed: a fresh run on the snapshot. */
    private SnapshotOverlay beforeTrials() {
        if (before == null) {
            before = new SnapshotOverlay(snapshot.snapshot());
        }
        return before;
    }
}
