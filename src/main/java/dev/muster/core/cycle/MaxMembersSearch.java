package dev.muster.core.cycle;

import dev.muster.core.framework.GroupContext;
import dev.muster.core.framework.PodFields;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.snapshot.SnapshotOverlay;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * After a feasible pass over a placement that left members out, looks for a placement of the same nodes that holds
 * more of them (docs/placement.md): a basic group places as many members as fit together, a gang every member
 * beyond minCount that fits. The greedy pass places members one by one in cycle order, so heterogeneous members can
 * block each other (a big member arriving after small ones found every node partly used).
 * <p>
 * Each round asks a {@link BoundedSearch} for a placement of one more member than the best so far (members largest
 * first, completed greedily, so a round may gain several), until every member is placed, a round proves that no
 * more fit, or the budget, shared by all rounds, runs out. Then the best placement found is kept; when no round
 * found one, the pass's own answer. The rounds are reported as the group's search.
 */
final class MaxMembersSearch {
    private MaxMembersSearch() {
    }

    /**
     * @param best   the feasible pass, its members assumed in the snapshot since {@code mark}
     * @param budget node evaluations the search may spend over this placement (those the pass's own search spent
     *               included)
     * @return the result to keep, its members assumed
     */
    static CycleResult improve(PodGroupCycle cycle, PodScheduler scheduler, SnapshotOverlay snapshot,
                               MemberAssumption assumption, GroupContext group, Placement placement, int mark,
                               CycleResult best, long budget) {
        int pending = group.pending().size();
        if (budget <= 0 || best.placed() >= pending || !cycle.heterogeneous(group.pending())) {
            return best;
        }
        SearchReport before = best.search();
        long steps = before.ran() ? before.steps() : 0;
        long left = budget - steps;
        boolean improved = false;
        boolean exhausted = false;
        boolean assumed = true; // the snapshot holds best's members
        while (best.placed() < pending && left > 0) {
            snapshot.rollbackTo(mark);
            assumed = false;
            BoundedSearch search = new BoundedSearch(scheduler, snapshot, assumption, group, placement, left,
                    best.placed() + 1);
            List<MemberResult> found = search.run();
            SearchReport round = search.report(found != null);
            steps += round.steps();
            left -= round.steps();
            if (found == null) {
                exhausted = round.exhausted();
                break;
            }
            assumed = true;
            improved = true;
            best = new CycleResult(true, found, placedCount(found), best.search());
        }
        if (!assumed) {
            scheduler.invalidate();
            cycle.assumeChosen(group, best);
        }
        SearchReport report = new SearchReport(true, steps, budget, exhausted, before.found() || improved);
        return new CycleResult(true, best.members(), best.placed(), report);
    }

    private static int placedCount(List<MemberResult> members) {
        int n = 0;
        for (MemberResult m : members) {
            if (m.placed()) {
                n++;
            }
        }
        return n;
    }

    /**
     * Identical independent members use nodes interchangeably: the greedy pass already places as many as fit. Members
     * are identical when their signatures are: equal in the pod fields the plugins read ({@code fields}) and in what
     * the signing plugins read of them through their keys ({@code podKey}).
     */
    static boolean heterogeneous(List<PodInfo> pending, PodFields fields,
                                 java.util.function.Function<PodInfo, Object> podKey,
                                 java.util.function.Predicate<PodInfo> interchangeable) {
        if (pending.size() < 2) {
            return false;
        }
        Set<PodSignature> kinds = new HashSet<>();
        for (PodInfo p : pending) {
            PodSignature s = new PodSignature(fields, p, false, podKey.apply(p));
            if (!interchangeable.test(p)) {
                return true;
            }
            kinds.add(s);
        }
        return kinds.size() > 1;
    }
}
