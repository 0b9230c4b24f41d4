package dev.muster.core.decision;

import dev.muster.core.cycle.CompositeCycle;
import dev.muster.core.cycle.GroupOutcome;
import dev.muster.core.cycle.PodGroupCycle;
import dev.muster.core.cycle.SchedulingScope;
import dev.muster.core.cycle.CycleAbortedException;
import dev.muster.core.cycle.SchedulerErrorException;
import dev.muster.core.framework.FrameworkRuntime;
import dev.muster.core.framework.NodeField;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.framework.Profile;
import dev.muster.core.model.Condition;
import dev.muster.core.model.CompositePodGroup;
import dev.muster.core.model.GroupRef;
import dev.muster.core.model.PlainPod;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodGroup;
import dev.muster.core.model.PodRef;
import dev.muster.core.plugins.InTreePlugins;
import dev.muster.core.snapshot.ClusterSnapshot;
import dev.muster.core.snapshot.SnapshotOverlay;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ForkJoinPool;
import java.util.function.Consumer;

/**
 * The decision engine: a pure function from a {@link DecisionRequest} to a {@link DecisionResult}. Thread-safe;
 * keeps nothing between calls.
 * <p>
 * Groups and plain pods are decided one after another in one queue (higher priority — a group at its PodGroup
 * priority —, older, then namespace/name); a decision's placements stay assumed in the run's overlay, so later ones
 * never share its capacity. Each decision is a {@link PodGroupCycle} (a plain pod's as a one-member basic group);
 * this class keeps the order and assembles the response.
 */
public final class DecisionEngine {
    static final String CONDITION_TYPE = "PodGroupScheduled";

    private final Profile profile;
    private final Set<NodeField> lookedNodeFields;
    private final EngineConfig config;
    private final ForkJoinPool pool;
    private final DecisionObserver observer;

    public DecisionEngine(EngineConfig config) {
        this(InTreePlugins.defaultProfile(), config);
    }

    public DecisionEngine(Profile profile, EngineConfig config) {
        this(profile, config, DecisionObserver.NONE);
    }

    /** An engine that tells {@code observer} about every group it decides (metrics, decision logs). */
    public DecisionEngine(Profile profile, EngineConfig config, DecisionObserver observer) {
        this.profile = profile;
        this.lookedNodeFields = profile.runtime().lookedNodeFields();
        this.config = config;
        this.observer = observer == null ? DecisionObserver.NONE : observer;
        this.pool = config.parallelism() > 1 ? new ForkJoinPool(config.parallelism()) : null;
    }

    public DecisionResult decide(DecisionRequest request) {
        return decide(request, () -> false);
    }

    /**
     * Works out ahead what this engine's decisions on {@code snapshot} would on first use: the node looks over the
     * fields its profile reads ({@link FrameworkRuntime#lookedNodeFields()}), which the snapshot keeps. Only placement
     * symmetry reads them, over a group's candidate placements: a snapshot in which no pod names a group needs none.
     */
    public void warm(ClusterSnapshot snapshot) {
        if (!snapshot.membersByGroup().isEmpty()) {
            snapshot.nodeLooks(lookedNodeFields);
        }
    }

    /**
     * Decides, polling {@code stop} between groups, members and candidate placements.
     *
     * @throws DecisionAbortedException when {@code stop} turned true (a passed deadline, a gone caller)
     */
    public DecisionResult decide(DecisionRequest request, java.util.function.BooleanSupplier stop) {
        return decide(compile(request), request.podGroups(), request.pods(), request.options(), stop);
    }

    /** Compiles a request's cluster into the snapshot the engine decides on (node table, pod vectors, members). */
    public static ClusterSnapshot compile(DecisionRequest request) {
        return new ClusterSnapshot(request.cluster(), request.dra());
    }

    /**
     * {@link #decide(ClusterSnapshot, List, List, DecisionOptions, java.util.function.BooleanSupplier)} without a
     * selection of plain pods: {@code selected} null decides everything pending, otherwise only those groups.
     */
    public DecisionResult decide(ClusterSnapshot compiled, List<GroupRef> selected, DecisionOptions options,
                                 java.util.function.BooleanSupplier stop) {
        return decide(compiled, selected, null, options, stop);
    }

    /**
     * Decides PodGroups only, on a compiled snapshot: the extender's view, where kube-scheduler itself schedules the
     * plain pods (listed in {@code pods[]} as not selected).
     *
     * @param selected the groups to decide, or null for every PodGroup with an unbound member
     * @throws DecisionAbortedException when {@code stop} turned true
     */
    public DecisionResult decideGroups(ClusterSnapshot compiled, List<GroupRef> selected, DecisionOptions options,
                                       java.util.function.BooleanSupplier stop) {
        return run(compiled, selected, List.of(), options, stop, d -> { });
    }

    /**
     * Decides on a compiled snapshot, in a run of its own ({@link ClusterSnapshot#overlay()}): the snapshot is not
     * changed, so one compiled snapshot can be decided any number of times (the benchmarks time the engine that way).
     * Groups and plain pods are decided in one queue ({@link DecisionQueue}).
     *
     * @param groups the PodGroups named, or null
     * @param pods   the plain pods named, or null; both null decides every PodGroup with an unbound member and every
     *               pending plain pod, otherwise only what they name
     * @throws DecisionAbortedException when {@code stop} turned true
     */
    public DecisionResult decide(ClusterSnapshot compiled, List<GroupRef> groups, List<PodRef> pods,
                                 DecisionOptions options, java.util.function.BooleanSupplier stop) {
        return decide(compiled, groups, pods, options, stop, d -> { });
    }

    /**
     * {@link #decide(ClusterSnapshot, List, List, DecisionOptions, java.util.function.BooleanSupplier)}, handing each
     * decision to {@code made} as soon as it is made, in the order of the result's {@code decisions} (a decision is
     * final once made: later ones never change it), so that a caller can write the answer while the rest is decided.
     */
    public DecisionResult decide(ClusterSnapshot compiled, List<GroupRef> groups, List<PodRef> pods,
                                 DecisionOptions options, java.util.function.BooleanSupplier stop,
                                 Consumer<Decision> made) {
        if (groups == null && pods == null) {
            return run(compiled, null, null, options, stop, made);
        }
        return run(compiled, groups == null ? List.of() : groups, pods == null ? List.of() : pods, options, stop,
                made);
    }

    private DecisionResult run(ClusterSnapshot compiled, List<GroupRef> groups, List<PodRef> pods,
                               DecisionOptions options, java.util.function.BooleanSupplier stop,
                               Consumer<Decision> made) {
        SnapshotOverlay snapshot = compiled.overlay(config.batching());
        DecisionOptions opts = options == null ? DecisionOptions.DEFAULT : options;
        SchedulingScope scope = new SchedulingScope(snapshot, profile, pool, config.parallelThreshold(), stop,
                config.batching(), opts.explain());
        List<DecisionQueue.Entry> order = DecisionQueue.of(snapshot, groups, pods);
        List<Decision> decisions = new ArrayList<>(order.size());
        Set<GroupRef> decidedTrees = new java.util.HashSet<>();
        java.util.BitSet plainDecided = new java.util.BitSet();
        try {
            for (DecisionQueue.Entry e : order) {
                scope.checkStop();
                int before = decisions.size();
                if (e.pod() != null) {
                    decisions.add(observedPlainPod(scope, e.pod(), opts));
                    plainDecided.set(e.pod().ordinal());
                } else {
                    GroupRef ref = e.group();
                    CompositePodGroup root = rootOf(snapshot, ref);
                    if (root == null) {
                        decisions.add(observedGroup(scope, ref, opts));
                    } else if (decidedTrees.add(root.ref())) {
                        // A tree is decided whole, where its first group comes in the order.
                        decisions.addAll(observedTree(scope, root, opts));
                    }
                }
                for (int i = before; i < decisions.size(); i++) {
                    made.accept(decisions.get(i));
                }
            }
        } catch (CycleAbortedException e) {
            throw new DecisionAbortedException();
        } finally {
            observer.finished();
        }
        return new DecisionResult(decisions, PodStatuses.of(snapshot, decisions, plainDecided));
    }

    /**
     * A plain pod decided as kube-scheduler decides it, alone: through the PodGroup cycle as a one-member basic group
     * of its own ({@link PlainPod}), so it shares the run's schedulers (and their kept evaluations) with every other
     * pod, and mapped to the plain pod's decision.
     */
    private Decision observedPlainPod(SchedulingScope scope, PodInfo pod, DecisionOptions options) {
        long start = System.nanoTime();
        PodGroup group = PlainPod.group(pod.pod(), pod.priority());
        GroupRef ref = group.ref();
        Decision d;
        int mark = scope.snapshot().mark();
        try {
            GroupOutcome outcome = new PodGroupCycle(scope, config.searchBudget()).run(group, List.of(pod),
                    options.preemption());
            d = PlainPodDecision.of(scope.snapshot(), pod, outcome);
        } catch (SchedulerErrorException e) {
            scope.snapshot().rollbackTo(mark);
            d = PlainPodDecision.schedulerError(pod.ref(), e.getMessage());
        } catch (CycleAbortedException e) {
            throw e;
        } catch (RuntimeException e) {
            observer.failed(ref, System.nanoTime() - start);
            throw e;
        }
        observer.decided(d, d.outcome() == Outcome.Preempting || (d.outcome() == Outcome.Unschedulable
                && options.preemption() && scope.runtime().hasPostFilter()), System.nanoTime() - start);
        return d;
    }

    private static boolean isPending(Pod p) {
        return PodGroupCycle.isPending(p);
    }

    /** {@link #decideGroup} timed and reported to the observer (an aborted cycle is not reported). */
    private Decision observedGroup(SchedulingScope scope, GroupRef ref, DecisionOptions options) {
        long start = System.nanoTime();
        boolean[] preempted = new boolean[1];
        Decision d;
        try {
            d = decideGroup(scope, ref, options, preempted);
        } catch (CycleAbortedException e) {
            throw e;
        } catch (RuntimeException e) {
            observer.failed(ref, System.nanoTime() - start);
            throw e;
        }
        observer.decided(d, preempted[0], System.nanoTime() - start);
        return d;
    }

    /**
     * Runs the group's cycle and turns its outcome into the group's decision; {@code preempted[0]} tells whether the
     * cycle reached PostFilter (looked for victims).
     */
    private Decision decideGroup(SchedulingScope scope, GroupRef ref, DecisionOptions options, boolean[] preempted) {
        SnapshotOverlay snapshot = scope.snapshot();
        PodGroup group = snapshot.podGroups().get(ref);
        List<PodInfo> all = snapshot.members(ref);
        if (group == null) {
            return notFound(ref, all);
        }
        if (group.parentComposite() != null) {
            // Its composite is not in the snapshot: the pods wait for it, as for a missing PodGroup.
            return new DecisionBuilder(ref, group, snapshot, options).waiting(pendingOf(all), String.format(
                    "waiting for pod group's composite pod group \"%s\" to appear in scheduling queue",
                    group.parentComposite())).withCompositePodGroup(new GroupRef(ref.namespace(),
                    group.parentComposite()));
        }
        int mark = snapshot.mark();
        GroupOutcome outcome;
        try {
            outcome = new PodGroupCycle(scope, config.searchBudget()).run(group, all, options.preemption());
        } catch (SchedulerErrorException e) {
            snapshot.rollbackTo(mark); // nothing of the group stays, on any node
            return new DecisionBuilder(ref, group, snapshot, options).schedulerError(pendingOf(all), e.getMessage());
        }
        preempted[0] = outcome.kind() == GroupOutcome.Kind.PREEMPTING
                || (outcome.kind() == GroupOutcome.Kind.UNSCHEDULABLE && options.preemption()
                && scope.runtime().hasPostFilter());
        return decision(snapshot, group, outcome, options);
    }

    /** A cycle's outcome as the group's decision. */
    private static Decision decision(SnapshotOverlay snapshot, PodGroup group, GroupOutcome outcome,
                                     DecisionOptions options) {
        DecisionBuilder out = new DecisionBuilder(group.ref(), group, snapshot, options);
        return switch (outcome.kind()) {
            case REJECTED -> out.unschedulableAll(outcome.group().pending(), outcome.message(), null);
            case WAITING -> out.waiting(outcome.group().pending(), outcome.message());
            case SCHEDULED -> out.scheduled(outcome.result());
            case PREEMPTING -> out.preempting(outcome.result(), assignments(outcome.victims()));
            case UNSCHEDULABLE -> out.unschedulable(outcome.group(), outcome.result(), outcome.message());
        };
    }

    /** The root of the CompositePodGroup tree the group belongs to, or null when it has no (known) parent. */
    private static CompositePodGroup rootOf(SnapshotOverlay snapshot, GroupRef ref) {
        PodGroup g = snapshot.podGroups().get(ref);
        CompositePodGroup c = g == null ? null : snapshot.snapshot().parentOf(g);
        Map<GroupRef, CompositePodGroup> all = snapshot.snapshot().compositePodGroups();
        for (int depth = 0; c != null && c.parent() != null && depth < CompositePodGroup.MAX_TREE_DEPTH; depth++) {
            CompositePodGroup up = all.get(new GroupRef(c.ref().namespace(), c.parent()));
            if (up == null) {
                break;
            }
            c = up;
        }
        return c;
    }

    /**
     * A CompositePodGroup tree decided whole ({@link CompositeCycle}): one decision per child PodGroup with a member
     * to place, naming its composite. When the tree does not hold, every such child is Unschedulable with the
     * reason that names the child that held the tree back.
     */
    private List<Decision> observedTree(SchedulingScope scope, CompositePodGroup root, DecisionOptions options) {
        long start = System.nanoTime();
        SnapshotOverlay snapshot = scope.snapshot();
        CompositeCycle.Result tree = new CompositeCycle(scope, config.searchBudget()).run(root, options.preemption());
        List<Decision> out = new ArrayList<>();
        for (CompositeCycle.Child c : tree.children()) {
            List<PodInfo> pending = pendingOf(snapshot.members(c.group().ref()));
            if (pending.isEmpty()) {
                continue;
            }
            DecisionBuilder builder = new DecisionBuilder(c.group().ref(), c.group(), snapshot, options);
            Decision d;
            if (c.failure() != null) {
                d = builder.unschedulableAll(pending, c.failure(), null);
            } else if (c.outcome() == null) {
                d = builder.unschedulableAll(pending, "not tried: its composite pod group \"" + c.parent().ref()
                        + "\" could no longer reach minGroupCount", null);
            } else {
                d = decision(snapshot, c.group(), c.outcome(), options);
            }
            out.add(d.withCompositePodGroup(c.parent().ref()));
        }
        out.sort(Comparator.comparing(Decision::podGroup));
        long share = out.isEmpty() ? 0 : (System.nanoTime() - start) / out.size();
        for (Decision d : out) {
            observer.decided(d, d.outcome() == Outcome.Preempting, share);
        }
        return out;
    }

    /** Members the cycle would place: unbound, not gated, not terminating. */
    private static List<PodInfo> pendingOf(List<PodInfo> members) {
        List<PodInfo> out = new ArrayList<>();
        for (PodInfo p : members) {
            if (isPending(p.pod()) && !p.pod().isGated()) {
                out.add(p);
            }
        }
        return out;
    }

    private static List<Assignment> assignments(List<PodInfo> victims) {
        List<Assignment> out = new ArrayList<>(victims.size());
        for (PodInfo v : victims) {
            out.add(new Assignment(v.ref(), v.pod().nodeName()));
        }
        return out;
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

    /** Upstream's reason on a group's or pod's condition when a plugin erred (the cycle ended with an error). */
    static final String SCHEDULER_ERROR = "SchedulerError";

    static Condition condition(PodGroup group, boolean scheduled, String message) {
        return condition(group, scheduled, message, scheduled ? "Scheduled" : "Unschedulable");
    }

    static Condition condition(PodGroup group, boolean scheduled, String message, String reasonIfChanged) {
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
        String reason = reasonIfChanged;
        String since = existing != null && status.equals(existing.status()) ? existing.lastTransitionTime() : null;
        return new Condition(CONDITION_TYPE, status, reason, message, group.generation(), since);
    }
}
