package dev.muster.core.cycle;

import dev.muster.core.framework.GroupContext;
import dev.muster.core.framework.PlacementGeneratePlugin;
import dev.muster.core.framework.PlacementScorePlugin;
import dev.muster.core.snapshot.SnapshotOverlay;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Placement symmetry over a trial runner: a candidate equivalent to one that ran ({@link SpeedupPlacementSymmetry})
 * is not run again but gets that one's outcome on its own nodes, exactly what running it would give. Its full result
 * is carried over only when asked for (when it is chosen); ranking needs only where its members land.
 * <p>
 * The candidates that ran are kept by fingerprint. Fingerprints are taken only once a later candidate is to be
 * compared (a tier that stops after its first trial takes none), and only while no trial is assumed: the runner
 * below rolls every trial back before the next candidate, unless it is the last of its tier to run. The first of a
 * fingerprint to run stands for it.
 */
final class SpeedupTwins implements Trials {
    private final Trials inner;
    private final SchedulingScope scope;
    private final GroupContext group;
    private boolean enabled = true;
    private SpeedupPlacementSymmetry symmetry;
    private final Map<Object, Source> byFingerprint = new HashMap<>();
    private final List<Source> unprinted = new ArrayList<>();
    private final Map<int[], Object> prints = new IdentityHashMap<>();

    SpeedupTwins(Trials inner, SchedulingScope scope, GroupContext group) {
        this.inner = inner;
        this.scope = scope;
        this.group = group;
    }

    @Override
    public TrialOutcome run(PlacementGeneratePlugin.Candidate candidate) {
        Source twin = twinOf(candidate.nodes());
        if (twin != null) {
            return new CarriedOver(candidate, twin);
        }
        TrialOutcome outcome = inner.run(candidate);
        if (enabled) {
            unprinted.add(new Source(outcome));
        }
        return outcome;
    }

    @Override
    public void settle(TrialOutcome outcome, boolean lastOfTier) {
        inner.settle(outcome, lastOfTier);
    }

    @Override
    public SnapshotOverlay boundState() {
        return inner.boundState();
    }

    @Override
    public SnapshotOverlay rankState() {
        return inner.rankState();
    }

    @Override
    public void choose(TrialOutcome chosen) {
        inner.choose(chosen);
    }

    /** The outcome that ran for a candidate equivalent to one on {@code nodes}, or null. */
    private Source twinOf(int[] nodes) {
        if (!enabled || byFingerprint.isEmpty() && unprinted.isEmpty()) {
            return null;
        }
        if (symmetry == null) {
            symmetry = SpeedupPlacementSymmetry.of(scope, group);
            if (symmetry == null) { // the group's members do not allow it
                enabled = false;
                unprinted.clear();
                return null;
            }
        }
        for (Source s : unprinted) {
            Object f = fingerprint(s.outcome.candidate().nodes());
            if (f != null) {
                byFingerprint.putIfAbsent(f, s);
            }
        }
        unprinted.clear();
        Object f = fingerprint(nodes);
        return f == null ? null : byFingerprint.get(f);
    }

    private Object fingerprint(int[] nodes) {
        return prints.computeIfAbsent(nodes, symmetry::fingerprint);
    }

    /**
     * An outcome that ran, and (once a twin is ranked) its proposal with each member's position among its nodes: a
     * twin's proposal puts the members at the same positions of its own nodes (what
     * {@link SpeedupPlacementSymmetry#carryOver} gives, without the member results).
     */
    private static final class Source {
        final TrialOutcome outcome;
        private PlacementScorePlugin.Proposal proposal;
        private int[] positions;

        Source(TrialOutcome outcome) {
            this.outcome = outcome;
        }

        PlacementScorePlugin.Proposal carriedOver(PlacementGeneratePlugin.Candidate c) {
            if (positions == null) {
                int[] nodes = outcome.candidate().nodes();
                proposal = TrialOutcome.proposal(null, outcome.result());
                positions = new int[proposal.podNodes().length];
                for (int i = 0; i < positions.length; i++) {
                    positions[i] = Arrays.binarySearch(nodes, proposal.podNodes()[i]);
                }
            }
            int[] podNodes = new int[positions.length];
            for (int i = 0; i < podNodes.length; i++) {
                podNodes[i] = c.nodes()[positions[i]];
            }
            return new PlacementScorePlugin.Proposal(c.name(), c.nodes(), proposal.pods(), podNodes);
        }
    }

    /** A twin's outcome: its source's, on the twin's own nodes. */
    private static final class CarriedOver implements TrialOutcome {
        private final PlacementGeneratePlugin.Candidate candidate;
        private final Source from;
        private CycleResult result;

        CarriedOver(PlacementGeneratePlugin.Candidate candidate, Source from) {
            this.candidate = candidate;
            this.from = from;
        }

        @Override
        public PlacementGeneratePlugin.Candidate candidate() {
            return candidate;
        }

        @Override
        public CycleResult result() {
            if (result == null) {
                result = SpeedupPlacementSymmetry.carryOver(from.outcome.result(), from.outcome.candidate().nodes(),
                        candidate.nodes());
            }
            return result;
        }

        @Override
        public boolean feasible() {
            return from.outcome.feasible();
        }

        @Override
        public int placed() {
            return from.outcome.placed();
        }

        @Override
        public String message() {
            return from.outcome.message();
        }

        @Override
        public boolean ran() {
            return false;
        }

        @Override
        public PlacementScorePlugin.Proposal proposal() {
            return from.carriedOver(candidate);
        }
    }
}
