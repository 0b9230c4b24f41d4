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
    /** A fresh run on the snapshot, made when first needed ({@link #beforeTrials}). */
    private SnapshotOverlay before;

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
        /** The candidate's position among all candidates: feasible ones are ranked in candidate order. */
        final int order;
        final Placement placement;
        private final Twin twin;
        private CycleResult result;

        Evaluated(PlacementGeneratePlugin.Candidate candidate, int order, Placement placement, CycleResult result,
                  Twin twin) {
            this.candidate = candidate;
            this.order = order;
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

        int order() {
            return order;
        }
    }

    /** A candidate that ran, and its result. */
    private record Twin(int[] nodes, CycleResult result) {
    }

    private static String pruned(PlacementGeneratePlugin.Candidate c) {
        return "not enough free capacity in " + c.name() + " for the members needed";
    }

    AlgorithmResult run(List<PlacementGeneratePlugin.Candidate> candidates) {
        List<Reported> reports = new ArrayList<>();
        PlacementGeneratePlugin.Candidate first = candidates.isEmpty() ? null : candidates.get(0);
        CycleResult firstFailure = null;
        AlgorithmResult.Trial closest = null;
        int closestOrder = Integer.MAX_VALUE;
        int maxTier = -1;
        for (PlacementGeneratePlugin.Candidate c : candidates) {
            maxTier = Math.max(maxTier, c.tier());
        }
        Twins twins = new Twins(scope.batching() && candidates.size() > 1);
        // the last feasible trial of a tier may stay assumed while the tier is ranked (see Kept); only for a run that
        // assumed nothing before this group, whose state without the trial is then the snapshot's own, and when the
        // ranking is a sum of scores: a plugin ranking alone may read what the run remembered while generating
        boolean mayKeep = scope.batching() && snapshot.mark() == 0 && !scope.runtime().placementRankedAlone(group);
        for (int tier = 0; tier <= maxTier; tier++) {
            List<PlacementGeneratePlugin.Candidate> inTier = new ArrayList<>();
            List<Integer> orders = new ArrayList<>();
            for (int k = 0; k < candidates.size(); k++) {
                if (candidates.get(k).tier() == tier) {
                    inTier.add(candidates.get(k));
                    orders.add(k);
                }
            }
            Walk walk = walk(inTier, orders);
            Plan plan = plan(walk.candidates);
            List<Evaluated> feasible = new ArrayList<>();
            Kept kept = null;
            for (int i = 0; i < walk.candidates.size(); i++) {
                PlacementGeneratePlugin.Candidate c = walk.candidates.get(i);
                int order = walk.orders[i];
                scope.checkStop();
                if (plan.pruned[i]) {
                    reports.add(new Reported(order, new PlacementReport(c.name(), tier, c.nodes().length, false, true,
                            0, 0, pruned(c))));
                    continue;
                }
                Twin twin = twins.of(c.nodes());
                if (twin != null) {
                    // An equivalent candidate ran already: this one comes out the same, on its own nodes.
                    if (twin.result().feasible()) {
                        feasible.add(new Evaluated(c, order, scope.placement(c.name(), c.nodes()), null, twin));
                        if (walk.bounds != null && noLaterCanWin(walk, plan, i, feasible, mayKeep)) {
                            break;
                        }
                    } else {
                        reports.add(new Reported(order, new PlacementReport(c.name(), tier, c.nodes().length, false,
                                false, 0, twin.result().placed(), firstMessage(twin.result()))));
                    }
                    continue;
                }
                if (kept != null) {
                    snapshot.rollbackTo(kept.mark()); // another candidate runs after it: it cannot stay
                    kept = null;
                }
                Placement p = scope.placement(c.name(), c.nodes());
                int mark = snapshot.mark();
                CycleResult r = cycle.placeMembers(group, p);
                twins.ran(c.nodes(), r);
                if (r.feasible()) {
                    Evaluated e = new Evaluated(c, order, p, r, null);
                    feasible.add(e);
                    if (!mayKeep) {
                        snapshot.rollbackTo(mark);
                    }
                    boolean last = walk.bounds != null && noLaterCanWin(walk, plan, i, feasible, mayKeep);
                    if (mayKeep) {
                        if (last || i == plan.lastRun) {
                            kept = new Kept(mark, e);
                        } else {
                            snapshot.rollbackTo(mark);
                        }
                    }
                    if (last) {
                        break;
                    }
                } else {
                    String msg = firstMessage(r);
                    reports.add(new Reported(order, new PlacementReport(c.name(), tier, c.nodes().length, false, false,
                            0, r.placed(), msg)));
                    if (closest == null || r.placed() > closest.result().placed()
                            || r.placed() == closest.result().placed() && order < closestOrder) {
                        closest = new AlgorithmResult.Trial(c.name(), c.nodes(), r);
                        closestOrder = order;
                    }
                    if (c == first) {
                        firstFailure = r;
                    }
                }
            }
            if (!feasible.isEmpty()) {
                feasible.sort(java.util.Comparator.comparingInt(Evaluated::order));
                return choose(feasible, Reported.unwrap(reports), kept);
            }
        }
        if (candidates.isEmpty()) {
            // Upstream dereferences a missing result here; Muster reports the group as Unschedulable.
            return infeasible(group, "0/0 placements are available: no node has a domain of the pod group's topology key",
                    List.of());
        }
        List<PlacementReport> reported = Reported.unwrap(reports);
        // Report as upstream does: the first candidate's own results, even when it was pruned unevaluated.
        CycleResult firstResult;
        if (firstFailure != null) {
            firstResult = firstFailure;
        } else {
            int mark = snapshot.mark();
            firstResult = cycle.placeMembers(group, scope.placement(first.name(), first.nodes()));
            snapshot.rollbackTo(mark);
            if (closest == null || firstResult.placed() > closest.result().placed()) {
                closest = new AlgorithmResult.Trial(first.name(), first.nodes(), firstResult);
            }
            for (int i = 0; i < reported.size(); i++) {
                PlacementReport pr = reported.get(i);
                if (pr.name().equals(first.name()) && pr.tier() == first.tier()) {
                    // It was pruned, but its trial ran for the message: report what that trial placed.
                    reported.set(i, new PlacementReport(pr.name(), pr.tier(), pr.nodes(), false, pr.pruned(), 0,
                            firstResult.placed(), pr.message()));
                }
            }
        }
        String msg = String.format("0/%d placements are available, first placement status: %s", candidates.size(),
                firstMessage(firstResult));
        return new AlgorithmResult(new CycleResult(false, firstResult.members(), 0, firstResult.search()), msg, null,
                reported, closest);
    }

    /** A report and its candidate's position among all candidates: reports are listed in candidate order. */
    private record Reported(int order, PlacementReport report) {
        static List<PlacementReport> unwrap(List<Reported> reports) {
            reports.sort(java.util.Comparator.comparingInt(Reported::order));
            List<PlacementReport> out = new ArrayList<>(reports.size());
            for (Reported r : reports) {
                out.add(r.report());
            }
            return out;
        }
    }

    /**
     * The order a tier's candidates are tried in, with each one's position among all candidates and, when every
     * PlacementScore plugin bounds its score ({@link dev.muster.core.framework.FrameworkRuntime#placementScoreBounds}),
     * the bound of each: then highest bound first (ties in candidate order), so that the candidates no later one can
     * outrank come early and the rest need not run ({@link #noLaterCanWin}). Otherwise candidate order, every
     * candidate tried (also with batching off, the reference, and when decisions are explained: an explanation
     * reports every candidate).
     */
    private record Walk(List<PlacementGeneratePlugin.Candidate> candidates, int[] orders, long[] bounds) {
    }

    private Walk walk(List<PlacementGeneratePlugin.Candidate> inTier, List<Integer> orders) {
        long[] bounds = null;
        if (scope.stopsAtUnbeatable() && inTier.size() > 1) {
            List<int[]> nodes = new ArrayList<>(inTier.size());
            for (PlacementGeneratePlugin.Candidate c : inTier) {
                nodes.add(c.nodes());
            }
            bounds = scope.runtime().placementScoreBounds(group, scope.allNodes(), nodes);
        }
        Integer[] idx = new Integer[inTier.size()];
        for (int i = 0; i < idx.length; i++) {
            idx[i] = i;
        }
        if (bounds != null) {
            long[] b = bounds;
            java.util.Arrays.sort(idx, (x, y) -> b[x] != b[y] ? Long.compare(b[y], b[x]) : Integer.compare(x, y));
        }
        List<PlacementGeneratePlugin.Candidate> walked = new ArrayList<>(idx.length);
        int[] walkedOrders = new int[idx.length];
        long[] walkedBounds = bounds == null ? null : new long[idx.length];
        for (int i = 0; i < idx.length; i++) {
            walked.add(inTier.get(idx[i]));
            walkedOrders[i] = orders.get(idx[i]);
            if (bounds != null) {
                walkedBounds[i] = bounds[idx[i]];
            }
        }
        return new Walk(walked, walkedOrders, walkedBounds);
    }

    /**
     * Whether no candidate after position {@code i} of the walk can be chosen over the feasible ones so far: their
     * normalization is settled and the best of them, ranked as {@link #choose} ranks, scores above the next candidate's
     * bound that could run (or equal to it and comes first in candidate order, which wins a tie). Reads the state
     * before any trial: the snapshot, or a fresh run on it while a trial stays assumed ({@code keeping}).
     */
    private boolean noLaterCanWin(Walk walk, Plan plan, int i, List<Evaluated> feasible, boolean keeping) {
        int next = i + 1;
        while (next < walk.candidates.size() && plan.pruned[next]) {
            next++;
        }
        if (next >= walk.candidates.size()) {
            return false; // nothing left to skip: the walk ends as it would
        }
        List<Evaluated> sorted = new ArrayList<>(feasible);
        sorted.sort(java.util.Comparator.comparingInt(Evaluated::order));
        List<PlacementScorePlugin.Proposal> proposals = new ArrayList<>(sorted.size());
        List<Placement> placements = new ArrayList<>(sorted.size());
        SnapshotOverlay before = keeping ? beforeTrials() : snapshot;
        Map<Twin, Ran> ran = new java.util.IdentityHashMap<>();
        for (Evaluated e : sorted) {
            proposals.add(e.twin == null ? proposal(e.candidate, e.result())
                    : ran.computeIfAbsent(e.twin, Ran::of).carriedOver(e.candidate));
            placements.add(before == snapshot ? e.placement
                    : new Placement(e.placement.name(), before, e.placement.nodeIndices()));
        }
        if (!scope.runtime().placementScoresSettled(group, proposals)) {
            return false;
        }
        PlacementScorePlugin.Ranking ranking = scope.runtime().runPlacementScore(group,
                before == snapshot ? scope.allNodes() : Placement.allNodes(before), placements, proposals);
        long best = ranking.scores()[ranking.best()];
        int bestOrder = sorted.get(ranking.best()).order;
        return walk.bounds[next] < best || walk.bounds[next] == best && walk.orders[next] > bestOrder;
    }

    /** A fresh run on the snapshot: the state before any trial, while a trial stays assumed (see {@link Kept}). */
    private SnapshotOverlay beforeTrials() {
        if (before == null) {
            before = new SnapshotOverlay(snapshot.snapshot());
        }
        return before;
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
        SnapshotOverlay before = kept == null ? snapshot : beforeTrials();
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
     * Which candidates of a tier cannot hold the members needed (decided before any of them runs, on the state before
     * any trial), and the last one that runs unless it turns out an equivalent of one that ran.
     */
    private record Plan(boolean[] pruned, int lastRun) {
    }

    private Plan plan(List<PlacementGeneratePlugin.Candidate> inTier) {
        boolean[] pruned = new boolean[inTier.size()];
        int lastRun = -1;
        for (int i = 0; i < pruned.length; i++) {
            pruned[i] = !canHold(inTier.get(i).nodes());
            if (!pruned[i]) {
                lastRun = i;
            }
        }
        return new Plan(pruned, lastRun);
    }

    /**
     * The candidates that ran, by fingerprint ({@link PlacementSymmetry}), so that an equivalent one is not run again
     * but gets that one's outcome on its own nodes. Fingerprints are taken only once a later candidate is to be
     * compared (a tier that stops after its first trial takes none), and only while no trial is assumed: every
     * trial is rolled back before the next candidate, unless it is the last to run. The first of a fingerprint to
     * run stands for it.
     */
    private final class Twins {
        private boolean enabled;
        private PlacementSymmetry symmetry;
        private final Map<Object, Twin> byFingerprint = new HashMap<>();
        private final List<Twin> unprinted = new ArrayList<>();
        private final Map<int[], Object> prints = new java.util.IdentityHashMap<>();

        Twins(boolean enabled) {
            this.enabled = enabled;
        }

        /** The candidate that ran and is equivalent to one on {@code nodes}, or null. */
        Twin of(int[] nodes) {
            if (!enabled || byFingerprint.isEmpty() && unprinted.isEmpty()) {
                return null;
            }
            if (symmetry == null) {
                symmetry = PlacementSymmetry.of(scope, group);
                if (symmetry == null) { // the group's members do not allow it
                    enabled = false;
                    unprinted.clear();
                    return null;
                }
            }
            for (Twin t : unprinted) {
                Object f = fingerprint(t.nodes());
                if (f != null) {
                    byFingerprint.putIfAbsent(f, t);
                }
            }
            unprinted.clear();
            Object f = fingerprint(nodes);
            return f == null ? null : byFingerprint.get(f);
        }

        /** Records a candidate that ran. */
        void ran(int[] nodes, CycleResult result) {
            if (enabled) {
                unprinted.add(new Twin(nodes, result));
            }
        }

        private Object fingerprint(int[] nodes) {
            return prints.computeIfAbsent(nodes, symmetry::fingerprint);
        }
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
