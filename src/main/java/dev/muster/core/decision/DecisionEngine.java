package dev.muster.core.decision;

import dev.muster.core.cycle.AlgorithmResult;
import dev.muster.core.cycle.PodGroupAlgorithm;
import dev.muster.core.cycle.PreemptionSimulation;
import dev.muster.core.cycle.SchedulingScope;
import dev.muster.core.framework.PostFilterPlugin;
import dev.muster.core.cycle.CycleAbortedException;
import dev.muster.core.cycle.CycleResult;
import dev.muster.core.cycle.SearchReport;
import dev.muster.core.framework.GroupContext;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.framework.PreEnqueuePlugin;
import dev.muster.core.framework.Profile;
import dev.muster.core.framework.Status;
import dev.muster.core.model.Condition;
import dev.muster.core.model.GroupRef;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodGroup;
import dev.muster.core.plugins.InTreePlugins;
import dev.muster.core.snapshot.ClusterSnapshot;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ForkJoinPool;

/**
 * The decision engine: a pure function from a {@link DecisionRequest} to a {@link DecisionResult}. Thread-safe;
 * keeps nothing between calls.
 * <p>
 * Groups are decided one after another in CONTRACT.md §1's order (higher PodGroup priority, older, then
 * namespace/name); a group's placements stay assumed in the snapshot, so later groups never share its capacity.
 */
public final class DecisionEngine {
    static final String CONDITION_TYPE = "PodGroupScheduled";

    private final Profile profile;
    private final EngineConfig config;
    private final ForkJoinPool pool;

    public DecisionEngine(EngineConfig config) {
        this(InTreePlugins.defaultProfile(), config);
    }

    public DecisionEngine(Profile profile, EngineConfig config) {
        this.profile = profile;
        this.config = config;
        this.pool = config.parallelism() > 1 ? new ForkJoinPool(config.parallelism()) : null;
    }

    public DecisionResult decide(DecisionRequest request) {
        return decide(request, () -> false);
    }

    /**
     * Decides, polling {@code stop} between groups, members and candidate placements.
     *
     * @throws DecisionAbortedException when {@code stop} turned true (a passed deadline, a gone caller)
     */
    public DecisionResult decide(DecisionRequest request, java.util.function.BooleanSupplier stop) {
        return decide(compile(request), request.podGroups(), request.options(), stop);
    }

    /** Compiles a request's cluster into the snapshot the engine decides on (node table, pod vectors, members). */
    public static ClusterSnapshot compile(DecisionRequest request) {
        return new ClusterSnapshot(request.cluster());
    }

    /**
     * Decides on a compiled snapshot that no decision has changed yet ({@code snapshot.mark() == 0}). The snapshot
     * keeps the run's assumed placements and evictions afterwards; {@code snapshot.rollbackTo(0)} restores it, so
     * one compiled snapshot can be decided again (the benchmarks time the engine that way).
     *
     * @param selected the groups to decide, or null for every PodGroup with an unbound member
     * @throws DecisionAbortedException when {@code stop} turned true
     */
    public DecisionResult decide(ClusterSnapshot snapshot, List<GroupRef> selected, DecisionOptions options,
                                 java.util.function.BooleanSupplier stop) {
        snapshot.startRun();
        DecisionOptions opts = options == null ? DecisionOptions.DEFAULT : options;
        SchedulingScope scope = new SchedulingScope(snapshot, profile, pool, config.parallelThreshold(), stop,
                config.batching());
        List<GroupRef> order = groupsToDecide(snapshot, selected);
        List<Decision> decisions = new ArrayList<>(order.size());
        try {
            for (GroupRef ref : order) {
                scope.checkStop();
                decisions.add(decideGroup(scope, ref, opts));
            }
        } catch (CycleAbortedException e) {
            throw new DecisionAbortedException();
        }
        return new DecisionResult(decisions, podStatuses(snapshot));
    }

    /**
     * The groups to decide in decision order: the selected ones, or every group with a member the cycle could place
     * (unbound, not gated, not terminating). A group whose only unbound members are gated is not attempted, as
     * upstream; its pods are listed as SchedulingGated.
     */
    private static List<GroupRef> groupsToDecide(ClusterSnapshot snapshot, List<GroupRef> selected) {
        Set<GroupRef> refs = new LinkedHashSet<>();
        if (selected != null) {
            refs.addAll(selected);
        } else {
            for (Map.Entry<GroupRef, List<PodInfo>> e : snapshot.membersByGroup().entrySet()) {
                for (PodInfo p : e.getValue()) {
                    if (isPending(p.pod()) && !p.pod().isGated()) {
                        refs.add(e.getKey());
                        break;
                    }
                }
            }
        }
        List<GroupRef> order = new ArrayList<>(refs);
        order.sort(Comparator.<GroupRef>comparingInt(r -> -groupPriority(snapshot, r))
                .thenComparingLong(r -> creation(snapshot, r))
                .thenComparing(Comparator.naturalOrder()));
        return order;
    }

    private static int groupPriority(ClusterSnapshot snapshot, GroupRef ref) {
        return snapshot.podGroups().containsKey(ref) ? snapshot.groupPriority(ref) : Integer.MIN_VALUE;
    }

    private static long creation(ClusterSnapshot snapshot, GroupRef ref) {
        PodGroup g = snapshot.podGroups().get(ref);
        return g == null ? Long.MAX_VALUE : g.creationEpochSec();
    }

    /** Unbound, not terminal, not being deleted: a member the cycle may place (gates aside). */
    private static boolean isPending(Pod p) {
        return !p.isBound() && !p.isTerminal() && !p.terminating();
    }

    private Decision decideGroup(SchedulingScope scope, GroupRef ref, DecisionOptions options) {
        ClusterSnapshot snapshot = scope.snapshot();
        PodGroup group = snapshot.podGroups().get(ref);
        List<PodInfo> all = snapshot.members(ref);
        if (group == null) {
            return notFound(ref, all);
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
        GroupContext ctx = new GroupContext(group, bound, pending, gated);
        DecisionBuilder out = new DecisionBuilder(ref, group, snapshot, options);

        String schedulerMismatch = schedulerNameMismatch(all);
        if (schedulerMismatch != null) {
            return out.unschedulableAll(pending, schedulerMismatch, null);
        }
        for (PreEnqueuePlugin p : profile.preEnqueue()) {
            Status s = p.preEnqueue(ctx);
            if (!s.isSuccess()) {
                return out.waiting(pending, s.message());
            }
        }
        AlgorithmResult result = new PodGroupAlgorithm(scope, config.searchBudget()).run(ctx);
        if (result.cycle().feasible()) {
            return out.scheduled(result);
        }
        if (!options.preemption() || profile.postFilter().isEmpty()) {
            return out.unschedulable(result, null);
        }
        return preempt(scope, ctx, result, out);
    }

    /**
     * Workload-aware preemption (upstream: group Unschedulable with waitingOnPreemption). When a PostFilter plugin
     * finds victims, they stay evicted and the members stay assumed on their nominated nodes, so later groups of the
     * request see the capacity as taken.
     */
    private Decision preempt(SchedulingScope scope, GroupContext ctx, AlgorithmResult failed, DecisionBuilder out) {
        ClusterSnapshot snapshot = scope.snapshot();
        String postFilterMessage = null;
        for (PostFilterPlugin plugin : profile.postFilter()) {
            int mark = snapshot.mark();
            PreemptionSimulation sim = new PreemptionSimulation(scope, ctx);
            PostFilterPlugin.Result r = plugin.postFilter(ctx, snapshot.groupPriority(ctx.group().ref()), sim);
            if (!r.victims().isEmpty()) {
                AlgorithmResult nominated = new PodGroupAlgorithm(scope, 0).run(ctx);
                if (nominated.cycle().feasible()) {
                    List<Assignment> victims = new ArrayList<>();
                    for (PodInfo v : r.victims()) {
                        victims.add(new Assignment(v.ref(), v.pod().nodeName()));
                    }
                    return out.preempting(nominated, victims);
                }
            }
            snapshot.rollbackTo(mark);
            if (postFilterMessage == null && !r.status().isSuccess()) {
                postFilterMessage = r.status().message();
            }
        }
        return out.unschedulable(failed, postFilterMessage);
    }

    /** Cycle order of pending members: priority descending, then creation, then namespace/name. */
    static final Comparator<PodInfo> MEMBER_ORDER = Comparator.<PodInfo>comparingInt(p -> -p.priority())
            .thenComparingLong(p -> p.pod().creationEpochSec())
            .thenComparing(PodInfo::ref);

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

    private static Decision notFound(GroupRef ref, List<PodInfo> members) {
        String msg = String.format("waiting for pods's pod group \"%s\" to appear in scheduling queue", ref.name());
        List<PodMessage> pods = new ArrayList<>();
        for (PodInfo p : members) {
            if (isPending(p.pod())) {
                pods.add(new PodMessage(p.ref(), msg));
            }
        }
        pods.sort(Comparator.comparing(PodMessage::pod));
        return new Decision(ref, Outcome.PodGroupNotFound, List.of(), pods, List.of(), List.of(), List.of(),
                List.of(), msg, null);
    }

    /** Pods that take part in no decision: unbound members with scheduling gates. */
    private static List<PodStatus> podStatuses(ClusterSnapshot snapshot) {
        List<PodStatus> out = new ArrayList<>();
        for (PodInfo p : snapshot.gatedPendingPods()) {
            out.add(new PodStatus(p.ref(), PodStatus.SCHEDULING_GATED,
                    "Scheduling is blocked due to non-empty scheduling gates: " + String.join(", ",
                            p.pod().schedulingGates())));
        }
        out.sort(Comparator.comparing(PodStatus::pod));
        return out;
    }

    static Condition condition(PodGroup group, boolean scheduled, String message) {
        Condition existing = null;
        for (Condition c : group.conditions()) {
            if (CONDITION_TYPE.equals(c.type())) {
                existing = c;
            }
        }
        if (!scheduled && existing != null && "True".equals(existing.status())) {
            return existing; // upstream never regresses PodGroupScheduled=True
        }
        String status = scheduled ? "True" : "False";
        String reason = scheduled ? "Scheduled" : "Unschedulable";
        String since = existing != null && status.equals(existing.status()) ? existing.lastTransitionTime() : null;
        return new Condition(CONDITION_TYPE, status, reason, message, group.generation(), since);
    }
}
