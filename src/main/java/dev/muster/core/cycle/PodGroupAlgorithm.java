package dev.muster.core.cycle;

import dev.muster.core.framework.GroupContext;
import dev.muster.core.framework.PlacementGeneratePlugin;
import dev.muster.core.framework.PlacementScorePlugin;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.framework.Profile;
import dev.muster.core.framework.ResourceIndex;
import dev.muster.core.framework.NodeInfo;
import dev.muster.core.snapshot.ClusterSnapshot;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Upstream's placement-based PodGroup algorithm (reference §2.5): PlacementGenerate proposes candidate node sets,
 * the {@link PodGroupCycle} runs in each, PlacementScore ranks the feasible ones and the best is kept. Without a
 * generator that constrains the group, one cycle over all nodes.
 * <p>
 * Deliberate differences from upstream: ties between placements break on the tier and then the placement name, not at
 * random; candidates whose free capacity cannot hold the members needed are pruned before their cycle runs; candidate
 * tiers (Muster's multi-level and preferred topology) are tried tightest first; and with the PodGroup annotation
 * {@value #STRATEGY}{@code : BestFit} feasible placements are ranked by the capacity they would leave stranded
 * (least first) instead of by PlacementScore plugins.
 */
public final class PodGroupAlgorithm {
    public static final String STRATEGY = "muster.dev/placement-strategy";
    public static final String BEST_FIT = "BestFit";

    private final Profile profile;
    private final ClusterSnapshot snapshot;
    private final PodGroupCycle cycle;

    private final SchedulingScope scope;

    public PodGroupAlgorithm(SchedulingScope scope, long searchBudget) {
        this.scope = scope;
        this.profile = scope.profile();
        this.snapshot = scope.snapshot();
        this.cycle = new PodGroupCycle(scope, searchBudget);
    }

    public AlgorithmResult run(GroupContext group) {
        Placement all = scope.allNodes();
        List<PlacementGeneratePlugin.Candidate> candidates = null;
        int[] parent = scope.allNodeIndices();
        for (PlacementGeneratePlugin g : profile.placementGenerate()) {
            PlacementGeneratePlugin.Result r = g.generate(group, all, parent);
            if (!r.status().isSuccess()) {
                return infeasible(group, r.status().message(), List.of());
            }
            if (r.candidates() != null) {
                candidates = r.candidates();
                break;
            }
        }
        if (candidates == null) {
            return new AlgorithmResult(cycle.run(group, all), null, null, List.of());
        }
        return runPlacements(group, candidates);
    }

    private AlgorithmResult runPlacements(GroupContext group, List<PlacementGeneratePlugin.Candidate> candidates) {
        List<PlacementReport> reports = new ArrayList<>();
        CycleResult firstFailure = null;
        PlacementGeneratePlugin.Candidate firstFailureCandidate = null;
        int maxTier = -1;
        for (PlacementGeneratePlugin.Candidate c : candidates) {
            maxTier = Math.max(maxTier, c.tier());
        }
        boolean bestFit = BEST_FIT.equalsIgnoreCase(group.group().annotations().get(STRATEGY));
        for (int tier = 0; tier <= maxTier; tier++) {
            List<Evaluated> feasible = new ArrayList<>();
            for (PlacementGeneratePlugin.Candidate c : candidates) {
                if (c.tier() != tier) {
                    continue;
                }
                scope.checkStop();
                if (!canHold(group, c.nodes())) {
                    String msg = "not enough free capacity in " + c.name() + " for the members needed";
                    reports.add(new PlacementReport(c.name(), tier, c.nodes().length, false, true, 0, 0, msg));
                    continue;
                }
                Placement p = scope.placement(c.name(), c.nodes());
                int mark = snapshot.mark();
                CycleResult r = cycle.run(group, p);
                if (r.feasible()) {
                    feasible.add(new Evaluated(c, p, r));
                    snapshot.rollbackTo(mark);
                } else {
                    String msg = firstMessage(r);
                    reports.add(new PlacementReport(c.name(), tier, c.nodes().length, false, false, 0, 0, msg));
                    if (firstFailure == null) {
                        firstFailure = r;
                        firstFailureCandidate = c;
                    }
                }
            }
            if (!feasible.isEmpty()) {
                return choose(group, feasible, reports, bestFit);
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
            firstResult = cycle.run(group, scope.placement(first.name(), first.nodes()));
            snapshot.rollbackTo(mark);
        }
        String msg = String.format("0/%d placements are available, first placement status: %s", candidates.size(),
                firstMessage(firstResult));
        return new AlgorithmResult(new CycleResult(false, firstResult.members(), 0, firstResult.search()), msg, null,
                reports);
    }

    private AlgorithmResult infeasible(GroupContext group, String message, List<PlacementReport> reports) {
        List<MemberResult> members = new ArrayList<>();
        for (PodInfo p : group.pending()) {
            members.add(new MemberResult(p, -1, null, message));
        }
        return new AlgorithmResult(new CycleResult(false, members, 0, SearchReport.NOT_RUN), message, null, reports);
    }

    private record Evaluated(PlacementGeneratePlugin.Candidate candidate, Placement placement, CycleResult result) {
    }

    private AlgorithmResult choose(GroupContext group, List<Evaluated> feasible, List<PlacementReport> reports,
                                   boolean bestFit) {
        long[] totals = new long[feasible.size()];
        if (bestFit) {
            for (int i = 0; i < totals.length; i++) {
                totals[i] = -stranded(feasible.get(i));
            }
        } else {
            for (Profile.WeightedPlacementScore ws : profile.placementScore()) {
                long[] s = new long[feasible.size()];
                for (int i = 0; i < s.length; i++) {
                    s[i] = ws.plugin().scorePlacement(group, feasible.get(i).placement(), proposal(feasible.get(i)));
                }
                ws.plugin().normalizePlacementScores(s);
                for (int i = 0; i < s.length; i++) {
                    totals[i] += ws.weight() * s[i];
                }
            }
        }
        int best = 0;
        for (int i = 1; i < totals.length; i++) {
            if (totals[i] > totals[best]) {
                best = i; // candidates arrive in name order, so the first of equals wins
            }
        }
        for (int i = 0; i < totals.length; i++) {
            Evaluated e = feasible.get(i);
            reports.add(new PlacementReport(e.candidate().name(), e.candidate().tier(), e.candidate().nodes().length,
                    true, false, totals[i], e.result().placed(), ""));
        }
        reports.sort((a, b) -> a.tier() != b.tier() ? Integer.compare(a.tier(), b.tier())
                : a.name().compareTo(b.name()));
        Evaluated chosen = feasible.get(best);
        for (MemberResult m : chosen.result().members()) {
            if (m.placed()) {
                snapshot.assume(m.pod(), m.node());
            }
        }
        return new AlgorithmResult(chosen.result(), null, chosen.candidate().name(), reports);
    }

    private static PlacementScorePlugin.Proposal proposal(Evaluated e) {
        List<MemberResult> placed = new ArrayList<>();
        for (MemberResult m : e.result().members()) {
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
        return new PlacementScorePlugin.Proposal(e.candidate().name(), e.candidate().nodes(), pods, nodes);
    }

    /**
     * Capacity the placement would leave unused, in parts per million of its allocatable cpu plus memory: the
     * best-fit strategy keeps big domains free for big groups.
     */
    private long stranded(Evaluated e) {
        long allocCpu = 0;
        long allocMem = 0;
        long usedCpu = 0;
        long usedMem = 0;
        for (int idx : e.candidate().nodes()) {
            NodeInfo n = snapshot.node(idx);
            allocCpu += n.allocatable(ResourceIndex.CPU);
            allocMem += n.allocatable(ResourceIndex.MEMORY);
            usedCpu += n.requested(ResourceIndex.CPU);
            usedMem += n.requested(ResourceIndex.MEMORY);
        }
        for (MemberResult m : e.result().members()) {
            if (m.placed()) {
                usedCpu += m.pod().request(ResourceIndex.CPU);
                usedMem += m.pod().request(ResourceIndex.MEMORY);
            }
        }
        long cpu = allocCpu == 0 ? 0 : (allocCpu - usedCpu) * 1_000_000L / allocCpu;
        long mem = allocMem == 0 ? 0 : (allocMem - usedMem) * 1_000_000L / allocMem;
        return cpu + mem;
    }

    /**
     * A cheap necessary condition for a candidate: its free capacity (summed over nodes, per resource, and pod
     * slots) holds the smallest members needed to make the group feasible. A candidate that fails it cannot be
     * feasible, so its cycle is skipped.
     */
    private boolean canHold(GroupContext group, int[] nodes) {
        int bound = group.bound().size();
        int need = group.group().policy().isGang() ? group.group().policy().minCount() - bound : 1;
        if (need <= 0) {
            return true;
        }
        List<PodInfo> pending = group.pending();
        if (need > pending.size()) {
            return false;
        }
        int resources = snapshot.resources().size();
        long slots = 0;
        long[] free = new long[resources];
        for (int idx : nodes) {
            NodeInfo n = snapshot.node(idx);
            slots += Math.max(0, n.allowedPodNumber() - n.podCount());
            for (int r = 0; r < resources; r++) {
                free[r] += Math.max(0, n.allocatable(r) - n.requested(r));
            }
        }
        if (slots < need) {
            return false;
        }
        long[] req = new long[pending.size()];
        for (int r = 0; r < resources; r++) {
            for (int i = 0; i < req.length; i++) {
                req[i] = pending.get(i).request(r);
            }
            Arrays.sort(req);
            long sum = 0;
            for (int i = 0; i < need; i++) {
                sum += req[i];
            }
            if (sum > free[r]) {
                return false;
            }
        }
        return true;
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
