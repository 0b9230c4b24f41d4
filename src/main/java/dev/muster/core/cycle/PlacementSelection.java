package dev.muster.core.cycle;

import dev.muster.core.framework.FreeCapacity;
import dev.muster.core.framework.GroupContext;
import dev.muster.core.framework.PlacementGeneratePlugin;
import dev.muster.core.framework.PlacementScorePlugin;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.snapshot.SnapshotOverlay;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Steps 4 and 5 of a {@link PodGroupCycle} when PlacementGenerate proposed candidates: each candidate's members are
 * placed in turn (and rolled back), tiers tightest first, and the best feasible candidate of the first tier that
 * has one is chosen by PlacementScore and assumed again.
 * <p>
 * Deliberate differences from upstream: ties between placements break on the placement name, not at random;
 * candidates whose free capacity cannot hold the members needed are pruned before their members run; candidate
 * tiers (multi-level and preferred topology) are tried tightest first; and a group may ask for a placement strategy
 * (BestFit) that ranks its feasible placements in place of the PlacementScore plugins' weighted sum.
 * <p>
 * A candidate equivalent to one that ran already ({@link PlacementSymmetry}) is not run again: it gets that
 * candidate's outcome on its own nodes, exactly what running it would give.
 */
final class PlacementSelection {
    private final SchedulingScope scope;
    private final SnapshotOverlay snapshot;
    private final PodGroupCycle cycle;
    private final GroupContext group;

    PlacementSelection(SchedulingScope scope, PodGroupCycle cycle, GroupContext group) {
        this.scope = scope;
        this.snapshot = scope.snapshot();
        this.cycle = cycle;
        this.group = group;
    }

    /**
     * A feasible candidate. An equivalent of one that ran keeps that one's {@link Twin}: ranking needs only where its
     * members land ({@link #proposal}), so its full result is carried over ({@link #result()}) only if it is chosen.
     */
    private static final class Evaluated {
        final PlacementGeneratePlugin.Candidate candidate;
        final Placement placement;
        private final Twin twin;
        private CycleResult result;

        Evaluated(PlacementGeneratePlugin.Candidate candidate, Placement placement, CycleResult result, Twin twin) {
            this.candidate = candidate;
            this.placement = placement;
            this.result = result;
            this.twin = twin;
        }

        CycleResult result() {
            if (result == null) {
                result = PlacementSymmetry.carryOver(twin.result(), twin.nodes(), candidate.nodes());
            }
            return result;
        }

        int placed() {
            return result != null ? result.placed() : twin.result().placed();
        }
    }

    /** The candidate that ran for a fingerprint, and its result (null: pruned by {@link #canHold}). */
    private record Twin(int[] nodes, CycleResult result) {
    }

    private static String pruned(PlacementGeneratePlugin.Candidate c) {
        return "not enough free capacity in " + c.name() + " for the members needed";
    }

    AlgorithmResult run(List<PlacementGeneratePlugin.Candidate> candidates) {
        List<PlacementReport> reports = new ArrayList<>();
        CycleResult firstFailure = null;
        PlacementGeneratePlugin.Candidate firstFailureCandidate = null;
        AlgorithmResult.Trial closest = null;
        int maxTier = -1;
        for (PlacementGeneratePlugin.Candidate c : candidates) {
            maxTier = Math.max(maxTier, c.tier());
        }
        PlacementSymmetry symmetry = scope.batching() && candidates.size() > 1 ? PlacementSymmetry.of(scope, group) : null;
        // the last feasible trial of a tier may stay assumed while the tier is ranked (see Kept); only for a run that
        // assumed nothing before this group, whose state without the trial is then the snapshot's own
        boolean mayKeep = scope.batching() && snapshot.mark() == 0;
        Map<Object, Twin> twins = new HashMap<>();
        for (int tier = 0; tier <= maxTier; tier++) {
            List<PlacementGeneratePlugin.Candidate> inTier = new ArrayList<>();
            for (PlacementGeneratePlugin.Candidate c : candidates) {
                if (c.tier() == tier) {
                    inTier.add(c);
                }
            }
            Plan plan = plan(inTier, symmetry, twins.keySet());
            List<Evaluated> feasible = new ArrayList<>();
            Kept kept = null;
            for (int i = 0; i < inTier.size(); i++) {
                PlacementGeneratePlugin.Candidate c = inTier.get(i);
                scope.checkStop();
                Object fingerprint = plan.fingerprints[i];
                Twin twin = fingerprint == null ? null : twins.get(fingerprint);
                if (twin != null) {
                    // An equivalent candidate ran already: this one comes out the same, on its own nodes.
                    if (twin.result() != null && twin.result().feasible()) {
                        feasible.add(new Evaluated(c, scope.placement(c.name(), c.nodes()), null, twin));
                    } else {
                        String msg = twin.result() == null ? pruned(c) : firstMessage(twin.result());
                        reports.add(new PlacementReport(c.name(), tier, c.nodes().length, false,
                                twin.result() == null, 0, twin.result() == null ? 0 : twin.result().placed(), msg));
                    }
                    continue;
                }
                if (plan.pruned[i]) {
                    if (fingerprint != null) {
                        twins.put(fingerprint, new Twin(c.nodes(), null));
                    }
                    reports.add(new PlacementReport(c.name(), tier, c.nodes().length, false, true, 0, 0, pruned(c)));
                    continue;
                }
                if (kept != null) {
                    snapshot.rollbackTo(kept.mark()); // another candidate runs after it: it cannot stay
                    kept = null;
                }
                Placement p = scope.placement(c.name(), c.nodes());
                int mark = snapshot.mark();
                CycleResult r = cycle.placeMembers(group, p);
                if (fingerprint != null) {
                    twins.put(fingerprint, new Twin(c.nodes(), r));
                }
                if (r.feasible()) {
                    Evaluated e = new Evaluated(c, p, r, null);
                    feasible.add(e);
                    if (mayKeep && i == plan.lastRun) {
                        kept = new Kept(mark, e);
                    } else {
                        snapshot.rollbackTo(mark);
                    }
                } else {
                    String msg = firstMessage(r);
                    reports.add(new PlacementReport(c.name(), tier, c.nodes().length, false, false, 0, r.placed(),
                            msg));
                    if (closest == null || r.placed() > closest.result().placed()) {
                        closest = new AlgorithmResult.Trial(c.name(), c.nodes(), r);
                    }
                    if (firstFailure == null) {
                        firstFailure = r;
                        firstFailureCandidate = c;
                    }
                }
            }
            if (!feasible.isEmpty()) {
                return choose(feasible, reports, kept);
            }
        }
        if (candidates.isEmpty()) {
            // Upstream dereferences a missing result here; Muster reports the group as Unschedulable.
            return infeasible(group, "0/0 placements are available: no node has a domain of the pod group's topology key",
                    reports);
        }
        // Report as upstream does: the first candidate's own results, even when it was pruned unevaluated.
        PlacementGeneratePlugin.Candidate first = candidates.get(0);
        CycleResult firstResult;
        if (firstFailure != null && firstFailureCandidate == first) {
            firstResult = firstFailure;
        } else {
            int mark = snapshot.mark();
            firstResult = cycle.placeMembers(group, scope.placement(first.name(), first.nodes()));
            snapshot.rollbackTo(mark);
            if (closest == null || firstResult.placed() > closest.result().placed()) {
                closest = new AlgorithmResult.Trial(first.name(), first.nodes(), firstResult);
            }
            for (int i = 0; i < reports.size(); i++) {
                PlacementReport pr = reports.get(i);
                if (pr.name().equals(first.name()) && pr.tier() == first.tier()) {
                    // It was pruned, but its trial ran for the message: report what that trial placed.
                    reports.set(i, new PlacementReport(pr.name(), pr.tier(), pr.nodes(), false, pr.pruned(), 0,
                            firstResult.placed(), pr.message()));
                }
            }
        }
        String msg = String.format("0/%d placements are available, first placement status: %s", candidates.size(),
                firstMessage(firstResult));
        return new AlgorithmResult(new CycleResult(false, firstResult.members(), 0, firstResult.search()), msg, null,
                reports, closest);
    }

    static AlgorithmResult infeasible(GroupContext group, String message, List<PlacementReport> reports) {
        List<MemberResult> members = new ArrayList<>();
        for (PodInfo p : group.pending()) {
            members.add(new MemberResult(p, -1, null, message));
        }
        return new AlgorithmResult(new CycleResult(false, members, 0, SearchReport.NOT_RUN), message, null, reports);
    }

    private AlgorithmResult choose(List<Evaluated> feasible, List<PlacementReport> reports, Kept kept) {
        // ranked on the state before any trial: with a trial kept, that is a fresh run on the snapshot
        SnapshotOverlay before = kept == null ? snapshot : new SnapshotOverlay(snapshot.snapshot());
        List<Placement> placements = new ArrayList<>();
        List<PlacementScorePlugin.Proposal> proposals = new ArrayList<>();
        Map<Twin, Ran> ran = new java.util.IdentityHashMap<>();
        for (Evaluated e : feasible) {
            placements.add(kept == null ? e.placement
                    : new Placement(e.placement.name(), before, e.placement.nodeIndices()));
            proposals.add(e.twin == null ? proposal(e.candidate, e.result())
                    : ran.computeIfAbsent(e.twin, Ran::of).carriedOver(e.candidate));
        }
        PlacementScorePlugin.Ranking ranking = scope.runtime().runPlacementScore(group,
                kept == null ? scope.allNodes() : Placement.allNodes(before), placements, proposals);
        long[] totals = ranking.scores();
        int best = ranking.best();
        for (int i = 0; i < totals.length; i++) {
            Evaluated e = feasible.get(i);
            reports.add(new PlacementReport(e.candidate.name(), e.candidate.tier(), e.candidate.nodes().length,
                    true, false, totals[i], e.placed(), ""));
        }
        reports.sort((a, b) -> a.tier() != b.tier() ? Integer.compare(a.tier(), b.tier())
                : a.name().compareTo(b.name()));
        Evaluated chosen = feasible.get(best);
        if (kept == null || chosen != kept.evaluated() || !kept.holdsAsReassumed(snapshot)) {
            if (kept != null) {
                snapshot.rollbackTo(kept.mark());
            }
            cycle.assumeChosen(group, chosen.result());
        }
        return new AlgorithmResult(chosen.result(), null, chosen.candidate.name(), reports, null, chosen.placement);
    }

    /**
     * The last feasible trial of a tier, left assumed while the tier is ranked: when ranking chooses it and its
     * changes are exactly what assuming its members again would make (its placed members in sequence order), it stays
     * as it is instead of being rolled back and assumed again (a quarter of a large gang's cycle). Ranking reads the
     * state before the trial from a fresh run on the snapshot, which only a run that assumed nothing before the group
     * has.
     */
    private record Kept(int mark, Evaluated evaluated) {
        boolean holdsAsReassumed(SnapshotOverlay snapshot) {
            List<MemberResult> placed = PodGroupCycle.inSequence(evaluated.result());
            PodInfo[] pods = new PodInfo[placed.size()];
            int[] nodes = new int[placed.size()];
            for (int i = 0; i < pods.length; i++) {
                pods[i] = placed.get(i).pod();
                nodes[i] = placed.get(i).node();
            }
            return snapshot.assumedExactly(mark, pods, nodes);
        }
    }

    /**
     * How each candidate of a tier is dealt with, decided before any of them runs (every trial is rolled back before
     * the next candidate, so the state is the same either way): its fingerprint, whether its capacity cannot hold
     * the members needed, and the last one that runs.
     */
    private record Plan(Object[] fingerprints, boolean[] pruned, int lastRun) {
    }

    private Plan plan(List<PlacementGeneratePlugin.Candidate> inTier, PlacementSymmetry symmetry,
                      java.util.Set<Object> ranBefore) {
        Object[] fingerprints = new Object[inTier.size()];
        boolean[] pruned = new boolean[inTier.size()];
        java.util.Set<Object> seen = new java.util.HashSet<>(ranBefore);
        int lastRun = -1;
        for (int i = 0; i < fingerprints.length; i++) {
            int[] nodes = inTier.get(i).nodes();
            Object fingerprint = symmetry == null ? null : symmetry.fingerprint(nodes);
            fingerprints[i] = fingerprint;
            if (fingerprint != null && !seen.add(fingerprint)) {
                continue; // a twin of an earlier candidate
            }
            pruned[i] = !canHold(nodes);
            if (!pruned[i]) {
                lastRun = i;
            }
        }
        return new Plan(fingerprints, pruned, lastRun);
    }

    /**
     * The proposal of the candidate that ran for a fingerprint, with each member's position among that candidate's
     * nodes: a twin's proposal puts the members at the same positions of its own nodes (what
     * {@link PlacementSymmetry#carryOver} gives, without the member results).
     */
    private record Ran(PlacementScorePlugin.Proposal ran, int[] positions) {
        static Ran of(Twin twin) {
            PlacementScorePlugin.Proposal p = PlacementSelection.proposal(null, twin.result());
            int[] positions = new int[p.podNodes().length];
            for (int i = 0; i < positions.length; i++) {
                positions[i] = java.util.Arrays.binarySearch(twin.nodes(), p.podNodes()[i]);
            }
            return new Ran(p, positions);
        }

        PlacementScorePlugin.Proposal carriedOver(PlacementGeneratePlugin.Candidate c) {
            int[] podNodes = new int[positions.length];
            for (int i = 0; i < podNodes.length; i++) {
                podNodes[i] = c.nodes()[positions[i]];
            }
            return new PlacementScorePlugin.Proposal(c.name(), c.nodes(), ran.pods(), podNodes);
        }
    }

    /** @param c the candidate, or null for a proposal only read through {@link #carriedOver} */
    private static PlacementScorePlugin.Proposal proposal(PlacementGeneratePlugin.Candidate c, CycleResult result) {
        List<MemberResult> placed = new ArrayList<>();
        for (MemberResult m : result.members()) {
            if (m.placed()) {
                placed.add(m);
            }
        }
        PodInfo[] pods = new PodInfo[placed.size()];
        int[] nodes = new int[placed.size()];
        for (int i = 0; i < pods.length; i++) {
            pods[i] = placed.get(i).pod();
            nodes[i] = placed.get(i).node();
        }
        return new PlacementScorePlugin.Proposal(c == null ? null : c.name(), c == null ? null : c.nodes(), pods, nodes);
    }

    /**
     * A cheap necessary condition for a candidate: its free capacity (summed over nodes, per resource, and pod
     * slots) holds the smallest members needed to make the group feasible. A candidate that fails it cannot be
     * feasible, so its members are not run.
     */
    private boolean canHold(int[] nodes) {
        return FreeCapacity.of(scope.allNodes(), nodes).holdsSmallestNeeded(group);
    }

    private static String firstMessage(CycleResult r) {
        for (MemberResult m : r.members()) {
            if (!m.placed()) {
                return m.message();
            }
        }
        return "pod group is unschedulable";
    }
}
