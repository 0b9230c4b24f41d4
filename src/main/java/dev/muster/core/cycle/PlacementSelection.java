package dev.muster.core.cycle;

import dev.muster.core.framework.FreeCapacity;
import dev.muster.core.framework.GroupContext;
import dev.muster.core.framework.PlacementGeneratePlugin;
import dev.muster.core.framework.PlacementScorePlugin;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.snapshot.SnapshotOverlay;

import java.util.ArrayList;
import java.util.List;

/**
 * Steps 4 and 5 of a {@link PodGroupCycle} when PlacementGenerate proposed candidates: tiers tightest first, each
 * tier's candidates pruned and walked, their trials run by a {@link Trials} runner, and the best feasible candidate of
 * the first tier that has one chosen by PlacementScore and left assumed.
 * <p>
 * Deliberate differences from upstream: ties between placements break on the placement name, not at random;
 * candidates whose free capacity cannot hold the members needed are pruned before their members run; candidate
 * tiers (multi-level and preferred topology) are tried tightest first; and a group may ask for a placement strategy
 * (BestFit) that ranks its feasible placements in place of the PlacementScore plugins' weighted sum.
 * <p>
 * The runner is the plain one ({@link PlainTrials}) with the speed-ups batching allows ({@link #trials}); whichever
 * runs, the same candidates are chosen, scored and reported.
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

    /** A feasible candidate's outcome and where it is ranked: feasible ones are ranked in candidate order. */
    private record Evaluated(TrialOutcome outcome, int order, Placement placement) {
    }

    private static String pruned(PlacementGeneratePlugin.Candidate c) {
        return "not enough free capacity in " + c.name() + " for the members needed";
    }

    /**
     * The plain runner with the speed-ups batching allows: placement symmetry when there is more than one candidate,
     * and the kept trial for a run that assumed nothing before this group (its state without the trial is then the
     * snapshot's own) and when the ranking is a sum of scores (a plugin ranking alone may read what the run
     * remembered while generating). With batching off, the plain runner alone: the reference.
     */
    private Trials trials(PlainTrials plain, int candidates) {
        boolean twins = scope.batching() && candidates > 1;
        boolean keep = scope.batching() && snapshot.mark() == 0 && !scope.runtime().placementRankedAlone(group);
        Trials trials = keep ? new SpeedupKeptTrial(plain, snapshot) : plain;
        return twins ? new SpeedupTwins(trials, scope, group) : trials;
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
        PlainTrials plain = new PlainTrials(scope, cycle, group);
        Trials trials = trials(plain, candidates.size());
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
            for (int i = 0; i < walk.candidates.size(); i++) {
                PlacementGeneratePlugin.Candidate c = walk.candidates.get(i);
                int order = walk.orders[i];
                scope.checkStop();
                if (plan.pruned[i]) {
                    reports.add(new Reported(order, new PlacementReport(c.name(), tier, c.nodes().length, false, true,
                            0, 0, pruned(c))));
                    continue;
                }
                TrialOutcome outcome = trials.run(c);
                if (outcome.feasible()) {
                    feasible.add(new Evaluated(outcome, order, scope.placement(c.name(), c.nodes())));
                    boolean last = walk.bounds != null && noLaterCanWin(walk, plan, i, feasible, trials);
                    trials.settle(outcome, last || i == plan.lastRun);
                    if (last) {
                        break;
                    }
                    continue;
                }
                reports.add(new Reported(order, new PlacementReport(c.name(), tier, c.nodes().length, false, false,
                        0, outcome.placed(), outcome.message())));
                if (outcome.ran()) {
                    CycleResult r = outcome.result();
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
                return choose(feasible, Reported.unwrap(reports), trials);
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
            firstResult = plain.run(first).result();
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
                TrialOutcome.firstMessage(firstResult));
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
     * before any trial ({@link Trials#boundState}).
     */
    private boolean noLaterCanWin(Walk walk, Plan plan, int i, List<Evaluated> feasible, Trials trials) {
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
        SnapshotOverlay before = trials.boundState();
        for (Evaluated e : sorted) {
            proposals.add(e.outcome.proposal());
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

    static AlgorithmResult infeasible(GroupContext group, String message, List<PlacementReport> reports) {
        List<MemberResult> members = new ArrayList<>();
        for (PodInfo p : group.pending()) {
            members.add(new MemberResult(p, -1, null, message));
        }
        return new AlgorithmResult(new CycleResult(false, members, 0, SearchReport.NOT_RUN), message, null, reports);
    }

    /**
     * Ranks a tier's feasible candidates (in candidate order) on the state before any trial ({@link Trials#rankState})
     * and has the runner leave the best assumed.
     */
    private AlgorithmResult choose(List<Evaluated> feasible, List<PlacementReport> reports, Trials trials) {
        SnapshotOverlay before = trials.rankState();
        List<Placement> placements = new ArrayList<>();
        List<PlacementScorePlugin.Proposal> proposals = new ArrayList<>();
        for (Evaluated e : feasible) {
            placements.add(before == snapshot ? e.placement
                    : new Placement(e.placement.name(), before, e.placement.nodeIndices()));
            proposals.add(e.outcome.proposal());
        }
        PlacementScorePlugin.Ranking ranking = scope.runtime().runPlacementScore(group,
                before == snapshot ? scope.allNodes() : Placement.allNodes(before), placements, proposals);
        long[] totals = ranking.scores();
        int best = ranking.best();
        for (int i = 0; i < totals.length; i++) {
            PlacementGeneratePlugin.Candidate c = feasible.get(i).outcome.candidate();
            reports.add(new PlacementReport(c.name(), c.tier(), c.nodes().length, true, false, totals[i],
                    feasible.get(i).outcome.placed(), ""));
        }
        reports.sort((a, b) -> a.tier() != b.tier() ? Integer.compare(a.tier(), b.tier())
                : a.name().compareTo(b.name()));
        Evaluated chosen = feasible.get(best);
        trials.choose(chosen.outcome);
        return new AlgorithmResult(chosen.outcome.result(), null, chosen.outcome.candidate().name(), reports, null,
                chosen.placement);
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
     * A cheap necessary condition for a candidate: its free capacity (summed over nodes, per resource, and pod
     * slots) holds the smallest members needed to make the group feasible. A candidate that fails it cannot be
     * feasible, so its members are not run.
     */
    private boolean canHold(int[] nodes) {
        return FreeCapacity.of(scope.allNodes(), nodes).holdsSmallestNeeded(group);
    }
}
