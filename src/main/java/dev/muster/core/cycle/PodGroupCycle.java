package dev.muster.core.cycle;

import dev.muster.core.framework.Code;
import dev.muster.core.framework.GroupContext;
import dev.muster.core.framework.PermitPlugin;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.framework.Profile;
import dev.muster.core.framework.Status;
import dev.muster.core.snapshot.ClusterSnapshot;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The PodGroup scheduling cycle over one placement (upstream's default algorithm, reference §2.4): each pending
 * member in cycle order is filtered and scored with the members before it assumed, then checked by Permit in
 * validation mode. The group is feasible once any Permit says Success (gang: bound + placed ≥ minCount; basic: one
 * member placed). Members that fit are all kept, as upstream binds every fitting member of a feasible group.
 * <p>
 * Beyond upstream: when the greedy pass fails for a gang whose members differ or depend on each other (pod
 * affinity, spreading), a {@link BoundedSearch} looks for a placement the greedy order missed, within an explicit
 * budget of node evaluations.
 */
public final class PodGroupCycle {
    private final SchedulingScope scope;
    private final Profile profile;
    private final ClusterSnapshot snapshot;
    private final long searchBudget;

    public PodGroupCycle(SchedulingScope scope, long searchBudget) {
        this.scope = scope;
        this.profile = scope.profile();
        this.snapshot = scope.snapshot();
        this.searchBudget = searchBudget;
    }

    /**
     * Runs the cycle. On a feasible result the placed members stay assumed in the snapshot; on an infeasible one
     * everything assumed here is rolled back.
     */
    public CycleResult run(GroupContext group, Placement placement) {
        if (group.pending().isEmpty()) {
            // Nothing to place (a group asked for by name): it holds if its bound members satisfy the policy.
            boolean holds = !group.group().policy().isGang()
                    || group.bound().size() >= group.group().policy().minCount();
            return new CycleResult(holds, List.of(), 0, SearchReport.NOT_RUN);
        }
        int mark = snapshot.mark();
        PodScheduler scheduler = scope.scheduler(placement);
        List<MemberResult> results = new ArrayList<>(group.pending().size());
        boolean feasible = false;
        int placed = 0;
        for (PodInfo pod : group.pending()) {
            scope.checkStop();
            PodAttempt attempt = scheduler.schedule(pod, placement);
            if (!attempt.fits()) {
                results.add(new MemberResult(pod, -1, attempt.diagnosis(), null));
                continue;
            }
            snapshot.assume(pod, attempt.node());
            Status permit = permit(group, pod, attempt.node(), placed + 1);
            if (permit.isRejected() || permit.code() == Code.Error) {
                snapshot.forget(pod, attempt.node());
                results.add(new MemberResult(pod, -1, null, permit.message()));
                continue;
            }
            placed++;
            results.add(new MemberResult(pod, attempt.node(), null, null));
            if (permit.isSuccess()) {
                feasible = true;
            }
        }
        if (feasible) {
            return new CycleResult(true, results, placed, SearchReport.NOT_RUN);
        }
        snapshot.rollbackTo(mark);
        if (!searchQualifies(group)) {
            return new CycleResult(false, results, placed, SearchReport.NOT_RUN);
        }
        BoundedSearch search = new BoundedSearch(this, scheduler, snapshot, group, placement, searchBudget);
        List<MemberResult> found = search.run();
        SearchReport report = search.report(found != null);
        if (found == null) {
            return new CycleResult(false, results, placed, report);
        }
        int count = 0;
        for (MemberResult r : found) {
            if (r.placed()) {
                count++;
            }
        }
        return new CycleResult(true, found, count, report);
    }

    /** Combined Permit verdict: a rejection wins, then Wait, else Success. */
    Status permit(GroupContext group, PodInfo pod, int node, int placedInCycle) {
        Status result = Status.SUCCESS;
        for (PermitPlugin p : profile.permit()) {
            Status s = p.permit(group, pod, snapshot.node(node), placedInCycle);
            if (s.isRejected() || s.code() == Code.Error) {
                return s;
            }
            if (s.code() == Code.Wait) {
                result = s;
            }
        }
        return result;
    }

    /**
     * The greedy pass is complete for homogeneous groups without inter-pod constraints (identical members use
     * nodes independently); the search runs only for gangs where it is not.
     */
    static boolean searchQualifies(GroupContext group) {
        if (!group.group().policy().isGang() || group.pending().size() < 2) {
            return false;
        }
        Set<PodSignature> kinds = new HashSet<>();
        for (PodInfo p : group.pending()) {
            PodSignature s = new PodSignature(p);
            if (!s.batchable()) {
                return true;
            }
            kinds.add(s);
        }
        return kinds.size() > 1;
    }
}
