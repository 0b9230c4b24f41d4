package dev.muster.core.cycle;

import dev.muster.core.framework.CycleState;
import dev.muster.core.framework.GroupContext;
import dev.muster.core.framework.PlacementGeneratePlugin;
import dev.muster.core.framework.PlacementScorePlugin;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.framework.PostFilterPlugin;
import dev.muster.core.framework.ReservePlugin;
import dev.muster.core.framework.Status;
import dev.muster.core.model.PlainPod;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodGroup;
import dev.muster.core.snapshot.SnapshotOverlay;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * One PodGroup's scheduling cycle, top to bottom (upstream's PodGroup cycle with the placement-based algorithm):
 * <ol>
 *   <li><b>Members.</b> The group's bound, pending and gated pods; pending ones in cycle order (priority
 *       descending, then creation, then name). Members naming different schedulers are rejected.</li>
 *   <li><b>PreEnqueue.</b> A gang short of members waits; nothing is tried.</li>
 *   <li><b>PlacementGenerate.</b> Candidate node sets (topology domains, in tiers), or all nodes.</li>
 *   <li><b>Per placement, per member:</b> PreFilter, Filter, PreScore, Score pick a node (see {@link PodScheduler});
 *       the member is assumed there, Reserve holds what it takes beyond node resources, Permit says whether the
 *       group's policy holds yet. Members that fit nowhere are listed with kube-scheduler's FitError. When the
 *       greedy pass fails a gang that is not homogeneous, a {@link BoundedSearch} looks further; when a feasible
 *       pass leaves heterogeneous members out, {@link MaxMembersSearch} looks for a placement that holds more.</li>
 *   <li><b>PlacementScore.</b> Among feasible placements of the lowest tier, the best is kept (or, when the group asks for a
 *       placement strategy such as BestFit, the strategy's choice); the others are rolled back.</li>
 *   <li><b>PostFilter.</b> When nothing is feasible, preemption looks for victims; the group is then nominated on
 *       the cluster without them.</li>
 * </ol>
 * A feasible group's members stay assumed in the run's overlay (later groups see the capacity as taken); an
 * infeasible group leaves the overlay as it found it.
 */
public final class PodGroupCycle {
    /** Cycle order of pending members: priority descending, then creation, then namespace/name. */
    public static final Comparator<PodInfo> MEMBER_ORDER = Comparator.<PodInfo>comparingInt(p -> -p.priority())
            .thenComparingLong(p -> p.pod().creationEpochSec())
            .thenComparing(PodInfo::ref);

    private final SchedulingScope scope;
    private final SnapshotOverlay snapshot;
    private final MemberAssumption assumption;
    private final long searchBudget;
    private final String withinName;
    private final int[] within;

    /** @param searchBudget node evaluations the bounded search may spend per placement (0: greedy only) */
    public PodGroupCycle(SchedulingScope scope, long searchBudget) {
        this(scope, searchBudget, null, null);
    }

    /**
     * A cycle that places members only on {@code within} (ascending snapshot indices, from the snapshot's topology
     * domains), named {@code withinName}: the domain a CompositePodGroup's constraint chose for its whole tree.
     */
    public PodGroupCycle(SchedulingScope scope, long searchBudget, String withinName, int[] within) {
        this.scope = scope;
        this.snapshot = scope.snapshot();
        this.assumption = new MemberAssumption(scope);
        this.searchBudget = searchBudget;
        this.withinName = withinName;
        this.within = within;
    }

    /** Runs the whole cycle for a group and its members (every pod naming it, in request order). */
    public GroupOutcome run(PodGroup group, List<PodInfo> members, boolean preemption) {
        // 1. Members.
        GroupContext ctx = members(group, members);
        String mismatch = schedulerNameMismatch(members);
        if (mismatch != null) {
            return new GroupOutcome(GroupOutcome.Kind.REJECTED, ctx, null, List.of(), mismatch);
        }
        // 2. PreEnqueue.
        Status enqueue = scope.runtime().runPreEnqueue(ctx);
        if (!enqueue.isSuccess()) {
            return new GroupOutcome(GroupOutcome.Kind.WAITING, ctx, null, List.of(), enqueue.message());
        }
        // 3–5. Placements, members, placement scores.
        AlgorithmResult placed = place(ctx);
        if (placed.cycle().feasible()) {
            return new GroupOutcome(GroupOutcome.Kind.SCHEDULED, ctx, placed, List.of(), null);
        }
        // 6. PostFilter.
        if (!preemption || !scope.runtime().hasPostFilter()) {
            return new GroupOutcome(GroupOutcome.Kind.UNSCHEDULABLE, ctx, placed, List.of(), null);
        }
        return preempt(ctx, placed);
    }

    /**
     * Steps 3 to 5: generates placements, runs the members in each and keeps the best feasible one (its members
     * stay assumed). Without a generator that constrains the group, one pass over all nodes.
     */
    AlgorithmResult place(GroupContext group) {
        Placement all = within == null ? scope.allNodes() : scope.placement(withinName, within);
        PlacementGeneratePlugin.Result generated = scope.runtime().runPlacementGenerate(group, scope.allNodes(),
                within == null ? scope.allNodeIndices() : within);
        if (!generated.status().isSuccess()) {
            return PlacementSelection.infeasible(group, generated.status().message(), List.of());
        }
        if (generated.candidates() == null) {
            CycleResult r = placeMembers(group, all);
            String name = within == null ? null : withinName;
            return new AlgorithmResult(r, null, name, List.of(), r.feasible() ? null
                    : new AlgorithmResult.Trial(name == null ? "*" : name,
                    within == null ? scope.allNodeIndices() : within, r), r.feasible() ? all : null);
        }
        return new PlacementSelection(scope, this, group).run(generated.candidates());
    }

    /**
     * Step 4 over one placement: each pending member in cycle order is scheduled with the members before it
     * assumed, then reserved and permitted. Feasible once Permit says Success (gang: bound + placed ≥ minCount;
     * basic: one member placed); every member that fits is kept, as upstream binds every fitting member of a
     * feasible group. On an infeasible result everything assumed here is rolled back.
     */
    CycleResult placeMembers(GroupContext group, Placement placement) {
        if (group.pending().isEmpty()) {
            // Nothing to place (a group asked for by name): it holds if its bound members satisfy the policy.
            boolean holds = !group.group().policy().isGang()
                    || (group.group().policy().holds(group.bound().size()) && group.rolesHeld());
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
            Status permit = assumption.assume(group, pod, attempt.node(), attempt.state(), placed + 1);
            if (!MemberAssumption.kept(permit)) {
                results.add(new MemberResult(pod, -1, null, permit.message()));
                continue;
            }
            results.add(MemberResult.placed(pod, attempt.node(), placed, 0));
            placed++;
            feasible |= permit.isSuccess();
        }
        if (feasible) {
            return MaxMembersSearch.improve(this, scheduler, snapshot, assumption, group, placement, mark,
                    new CycleResult(true, results, placed, SearchReport.NOT_RUN), searchBudget);
        }
        snapshot.rollbackTo(mark);
        if (!searchQualifies(group, heterogeneous(group.pending()))) {
            return new CycleResult(false, results, placed, SearchReport.NOT_RUN);
        }
        BoundedSearch search = new BoundedSearch(scheduler, snapshot, assumption, group, placement, searchBudget);
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
        return MaxMembersSearch.improve(this, scheduler, snapshot, assumption, group, placement, mark,
                new CycleResult(true, found, count, report), searchBudget);
    }

    /**
     * Re-assumes the members a placement chose, after its trial was rolled back: in the order they were assumed and
     * with the same Reserve alternative, so that every member is held exactly as in the trial.
     */
    void assumeChosen(GroupContext group, CycleResult chosen) {
        int count = 0;
        for (MemberResult m : inSequence(chosen)) {
            CycleState state = new CycleState();
            state.put(ReservePlugin.ALTERNATIVE, m.alternative());
            assumption.assume(group, m.pod(), m.node(), state, ++count);
        }
    }

    /** A result's placed members in the order they were assumed: the order {@link #assumeChosen} assumes them in. */
    static List<MemberResult> inSequence(CycleResult result) {
        List<MemberResult> placed = new ArrayList<>();
        for (MemberResult m : result.members()) {
            if (m.placed()) {
                placed.add(m);
            }
        }
        placed.sort(Comparator.comparingInt(MemberResult::sequence));
        return placed;
    }

    /**
     * Step 6, workload-aware preemption (upstream: group Unschedulable with waitingOnPreemption). When a PostFilter
     * plugin finds victims that make the group fit, they stay evicted and the members stay assumed on their
     * nominated nodes, so later groups of the request see the capacity as taken.
     */
    private GroupOutcome preempt(GroupContext group, AlgorithmResult failed) {
        PodGroupCycle greedy = new PodGroupCycle(scope, 0, withinName, within); // trials, nominations: no search
        int[] mark = new int[1];
        AlgorithmResult[] nominated = new AlgorithmResult[1];
        PostFilterPlugin.Result r = scope.runtime().runPostFilter(group, preemptorPriority(group.group()),
                () -> {
                    mark[0] = snapshot.mark();
                    return new PreemptionSimulation(scope, () -> greedy.place(group));
                },
                result -> {
                    if (!result.victims().isEmpty()) {
                        nominated[0] = greedy.place(group);
                        if (nominated[0].cycle().feasible()) {
                            return true;
                        }
                    }
                    snapshot.rollbackTo(mark[0]);
                    return false;
                });
        if (r.victims().isEmpty()) {
            String reason = r.status().isSuccess() ? null : r.status().message();
            return new GroupOutcome(GroupOutcome.Kind.UNSCHEDULABLE, group, failed, List.of(), reason);
        }
        // A plain pod waits with the FitError of its first pass, as kube-scheduler's pod condition says.
        String why = PlainPod.is(group.group()) ? firstFailure(failed) : null;
        return new GroupOutcome(GroupOutcome.Kind.PREEMPTING, group, nominated[0], r.victims(), why);
    }

    private static String firstFailure(AlgorithmResult failed) {
        for (MemberResult m : failed.cycle().members()) {
            if (!m.placed() && m.message() != null) {
                return m.message();
            }
        }
        return failed.message();
    }

    /** The priority the group preempts at: its PodGroup's, or a plain pod's own (see {@link PlainPod}). */
    private int preemptorPriority(PodGroup group) {
        return PlainPod.is(group) && group.priority() != null ? group.priority() : snapshot.groupPriority(group.ref());
    }

    /**
     * Whether the greedy pass may have missed a placement: only for gangs of two or more whose members differ or
     * depend on each other (identical independent members use nodes interchangeably, so greedy is complete), or
     * whose roles have minimums (the greedy pass may fill the room with members of one role).
     */
    static boolean searchQualifies(GroupContext group, boolean heterogeneous) {
        return group.group().policy().isGang() && (heterogeneous
                || (group.roles() != null && group.pending().size() > 1));
    }

    /** Whether the members differ in what some plugin reads of them, or depend on each other. */
    boolean heterogeneous(List<PodInfo> pending) {
        return MaxMembersSearch.heterogeneous(pending, scope.runtime().signedPodFields(),
                p -> scope.runtime().runPodKey(p, scope.allNodes()),
                p -> scope.runtime().runInterchangeable(p, scope.allNodes()));
    }

    private static GroupContext members(PodGroup group, List<PodInfo> all) {
        if (all.size() == 1) { // a plain pod's group: no lists to fill and sort
            PodInfo p = all.get(0);
            Pod pod = p.pod();
            List<PodInfo> one = List.of(p);
            if (pod.isBound()) {
                return new GroupContext(group, pod.isTerminal() ? List.of() : one, List.of(), List.of());
            }
            boolean pending = isPending(pod);
            return new GroupContext(group, List.of(), pending && !pod.isGated() ? one : List.of(),
                    pending && pod.isGated() ? one : List.of());
        }
        List<PodInfo> bound = new ArrayList<>();
        List<PodInfo> pending = new ArrayList<>();
        List<PodInfo> gated = new ArrayList<>();
        for (PodInfo p : all) {
            Pod pod = p.pod();
            if (pod.isBound()) {
                if (!pod.isTerminal()) {
                    bound.add(p);
                }
            } else if (isPending(pod)) {
                (pod.isGated() ? gated : pending).add(p);
            }
        }
        pending.sort(MEMBER_ORDER);
        return new GroupContext(group, bound, pending, gated);
    }

    /** Unbound, not terminal, not being deleted: a member the cycle may place (gates aside). */
    public static boolean isPending(Pod p) {
        return !p.isBound() && !p.isTerminal() && !p.terminating();
    }

    private static String schedulerNameMismatch(List<PodInfo> members) {
        String first = null;
        for (PodInfo p : members) {
            String s = p.pod().schedulerName();
            if (first == null) {
                first = s;
            } else if (!first.equals(s)) {
                return String.format("all pods in a single pod group should have the same .spec.schedulerName set, "
                        + "got: \"%s\" and \"%s\"", first, s);
            }
        }
        return null;
    }
}
