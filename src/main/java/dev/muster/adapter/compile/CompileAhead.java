package dev.muster.adapter.compile;

import dev.muster.adapter.cel.CelSelectors;
import dev.muster.adapter.kube.KubeMapper;
import dev.muster.adapter.validation.ValidationLimits;
import dev.muster.adapter.kube.RequestDocument;
import dev.muster.adapter.kube.SnapshotProgress;
import dev.muster.core.decision.DecisionRequest;
import dev.muster.core.dra.ClaimCatalog;
import dev.muster.core.dra.DraObjects;
import dev.muster.core.model.ClusterState;
import dev.muster.core.model.Node;
import dev.muster.core.snapshot.ClusterSnapshot;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * Compiles a decoded request (core model, then snapshot) on a helper thread while the caller validates it, so a large
 * decision costs about the longer of the two instead of their sum. Validation still decides: a request that breaks a
 * rule is refused with its causes, and what the helper compiled from it is dropped.
 * <p>
 * A compilation is a list of stages ({@link #compile}: the DRA objects, their catalog, the cluster, the snapshot).
 * The helper runs them in order; the caller, once it has validated, runs in order every stage nobody has started yet,
 * then waits for the last. So when the helper is still busy with the first stages (a request's devices), the caller
 * maps the cluster meanwhile instead of waiting. A stage waits for the earlier stages it reads; both threads go in
 * order, so neither waits for a stage the other has not started.
 * <p>
 * A helper may start before the request is even decoded ({@link #early}): once the snapshot's nodes and pods are in
 * and the decoder moves on to lists the cluster does not read (the DRA objects, often the last and a large part of
 * the body), it maps the cluster from what was decoded, compiles the cluster's snapshot (unless a pod asks for extended
 * resources, whose compilation needs the DeviceClasses), and then runs the stages of the same request; the snapshot
 * stage only adds the DRA catalog to that snapshot. The mapping is used only when the decoded document holds the very
 * same lists it was made from.
 * <p>
 * Never a queue: when every helper is busy, or the request is small (below {@code threshold} nodes plus pods, where a
 * hand-over would cost more than it saves), {@link Task#join()} compiles on the calling thread, exactly as without
 * helpers. Compiling an invalid document is safe: the mapper only reads it, and its errors are seen only after
 * validation passed; a document over the validator's list limits is never handed to a helper.
 */
public final class CompileAhead implements AutoCloseable {
    /** No helper: every compilation on the caller's thread, after validation. */
    public static final CompileAhead OFF = new CompileAhead(0, Integer.MAX_VALUE, ValidationLimits.DEFAULT);

    /** A request in the core model and the snapshot compiled from it. */
    public record Compiled(DecisionRequest request, ClusterSnapshot snapshot) {
    }

    private final ThreadPoolExecutor helpers;
    private final int threshold;
    private final ValidationLimits limits;
    private final Consumer<ClusterSnapshot> warm;

    /** Helpers that work out nothing more ahead on a snapshot compiled early. */
    public CompileAhead(int threads, int threshold, ValidationLimits limits) {
        this(threads, threshold, limits, s -> { });
    }

    /**
     * @param threads   helper threads (0 = off)
     * @param threshold nodes + pods from which a request is handed to a helper
     * @param limits    the validator's list limits: a request over them is refused, so never compiled ahead
     * @param warm      what else a helper works out on a snapshot it compiled early, off the decision's path (the
     *                  deciding engine's node looks, {@link dev.muster.core.decision.DecisionEngine#warm})
     */
    public CompileAhead(int threads, int threshold, ValidationLimits limits, Consumer<ClusterSnapshot> warm) {
        this.warm = warm;
        if (threads < 0 || threshold < 0) {
            throw new IllegalArgumentException("threads and threshold must be >= 0");
        }
        this.threshold = threshold;
        this.limits = limits;
        if (threads == 0) {
            this.helpers = null;
            return;
        }
        AtomicInteger n = new AtomicInteger();
        this.helpers = new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS, new SynchronousQueue<>(), r -> {
            Thread t = new Thread(r, "muster-compile-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        }, new ThreadPoolExecutor.AbortPolicy());
        this.helpers.allowCoreThreadTimeOut(true);
    }

    /**
     * How a decision request is read into the engine's input on every surface (REST and gRPC): {@code doc} is
     * compiled ({@link #compile(RequestDocument, Early)}; on a helper when it is large enough) while {@code validate}
     * runs on this thread. When validation refuses the request, the compilation is dropped and validation's error
     * thrown; otherwise the caller joins the task.
     *
     * @param early    the listener given to the decoder ({@link Early#NONE} when there was none)
     * @param onHelper wraps what a helper runs (a trace context)
     */
    public Task compileWhileValidating(RequestDocument doc, Early early, UnaryOperator<Callable<Void>> onHelper,
                                       Runnable validate) {
        Task task = start(doc, compile(doc, early), onHelper, early);
        try {
            validate.run();
        } catch (RuntimeException e) {
            task.cancel();
            early.cancel();
            throw e;
        }
        return task;
    }

    /** As {@link #start(RequestDocument, Stages, UnaryOperator)} for a compilation of one stage. */
    public Task start(RequestDocument doc, Callable<Compiled> work) {
        Stages stages = new Stages();
        stages.add(work);
        return start(doc, stages);
    }

    /** As {@link #start(RequestDocument, Stages, UnaryOperator)}, the helper needing nothing carried over. */
    public Task start(RequestDocument doc, Stages stages) {
        return start(doc, stages, UnaryOperator.identity());
    }

    /**
     * Starts compiling {@code doc} when it is large enough and a helper is free.
     *
     * @param stages the compilation (e.g. {@link #compile}); its last stage gives the result, and each stage throws
     *               the caller's own errors for what it refuses
     * @param onHelper wraps what the helper runs, as the helper thread needs it (a trace context)
     */
    public Task start(RequestDocument doc, Stages stages, UnaryOperator<Callable<Void>> onHelper) {
        return start(doc, stages, onHelper, Early.NONE);
    }

    /**
     * As {@link #start(RequestDocument, Stages, UnaryOperator)}; when {@code early} holds a helper still mapping the
     * cluster, that helper runs the stages next instead of another one.
     */
    public Task start(RequestDocument doc, Stages stages, UnaryOperator<Callable<Void>> onHelper, Early early) {
        if (helpers != null && size(doc.snapshot()) >= threshold && withinLimits(doc.snapshot())) {
            Callable<Void> all = onHelper.apply(() -> {
                stages.runAll();
                return null;
            });
            if (!early.thenRun(all)) {
                try {
                    helpers.execute(new FutureTask<>(all));
                } catch (RejectedExecutionException busy) {
                    // every helper is compiling another request: join() runs it here
                }
            }
        }
        return new Task(stages);
    }

    /**
     * A listener for the decoding of one request ({@link dev.muster.adapter.kube.KubeCodec#readJson(byte[],
     * dev.muster.adapter.kube.Arrival, SnapshotProgress)}) that maps its cluster on a helper as soon as the nodes and
     * pods are decoded and the decoder has moved on to lists the cluster does not read; give it to
     * {@link #compile(RequestDocument, Early)} and {@link #start(RequestDocument, Stages, UnaryOperator, Early)}.
     *
     * @param onHelper wraps what the helper runs (a trace context)
     */
    public Early early(UnaryOperator<Callable<Void>> onHelper) {
        return helpers == null ? Early.NONE : new Early(this, onHelper);
    }

    /**
     * The stages of a request's compilation: its DRA objects (DRA selectors through the shared CEL cache), their
     * catalog (built, then {@linkplain ClaimCatalog#warmShare warmed} by both threads), the cluster, then the request
     * and its snapshot. The DRA stages come first: with a helper, the caller joins the warm-up (or maps the cluster)
     * once it has validated.
     */
    public static Stages compile(RequestDocument doc) {
        return compile(doc, Early.NONE);
    }

    /** As {@link #compile(RequestDocument)}, taking the cluster {@code early} mapped when it is of this document. */
    public static Stages compile(RequestDocument doc, Early early) {
        Stages stages = new Stages();
        Stage<DraObjects> dra = stages.add(() -> KubeMapper.requestDraObjects(doc.snapshot(),
                CelSelectors.shared()::compile));
        Stage<ClaimCatalog> built = stages.add(() -> new ClaimCatalog(dra.get()));
        // warmed by both threads, for the nodes of the snapshot compiled early when there is one: the caller, done
        // validating, takes the second share, and the two take chunks until none are left
        Stage<List<Node>> nodes = stages.add(early::snapshotNodes);
        Stage<ClaimCatalog> share = stages.add(() -> built.get().warmShare(nodes.get()));
        Stage<ClaimCatalog> secondShare = stages.add(() -> built.get().warmShare(nodes.get()));
        java.util.function.Supplier<ClaimCatalog> catalog = () -> {
            share.get();
            return secondShare.get();
        };
        Stage<ClusterState> cluster = stages.add(() -> early.clusterOf(doc.snapshot()));
        stages.add(() -> {
            DecisionRequest request = KubeMapper.toDecisionRequest(doc, cluster.get(), dra.get());
            ClusterSnapshot compiled = early.snapshotOf(request.cluster());
            return new Compiled(request, compiled != null ? compiled.withDra(request.dra(), catalog)
                    : new ClusterSnapshot(request.cluster(), request.dra(), catalog));
        });
        return stages;
    }

    /**
     * Whether the lists a compilation's cost grows with are within the validator's limits: a request with a million
     * nodes is refused at once, and its compilation never started.
     */
    private boolean withinLimits(RequestDocument.Snapshot s) {
        return s != null && count(s.nodes()) <= limits.maxNodes() && count(s.pods()) <= limits.maxPods()
                && count(s.podGroups()) <= limits.maxPodGroups() && count(s.resourceSlices()) <= limits.maxObjects()
                && count(s.resourceClaims()) <= limits.maxObjects() && count(s.hyperNodes()) <= limits.maxHyperNodes();
    }

    /** Nodes plus pods: what the compilation's cost grows with. */
    static long size(RequestDocument.Snapshot s) {
        return s == null ? 0 : (long) count(s.nodes()) + count(s.pods());
    }

    /**
     * Runs {@code work} on a free helper, as a compilation would (never queued): false when there are no helpers or
     * every one is busy, and then nothing runs. What a decision hands over after its compilation (writing its answer
     * while the engine decides) goes to the helpers that compiled it.
     */
    public boolean tryRun(Runnable work) {
        if (helpers == null) {
            return false;
        }
        try {
            helpers.execute(work);
            return true;
        } catch (RejectedExecutionException busy) {
            return false;
        }
    }

    private static int count(List<?> list) {
        return list == null ? 0 : list.size();
    }

    @Override
    public void close() {
        if (helpers != null) {
            helpers.shutdownNow();
        }
    }

    /**
     * One request's cluster, mapped while the rest of its snapshot is decoded (see {@link #early}). Its listener runs
     * on the decoding thread; {@link #clusterOf} on whichever thread runs the cluster stage.
     */
    public static final class Early implements SnapshotProgress {
        /** Maps nothing early: the cluster stage maps the decoded document. */
        public static final Early NONE = new Early(null, null);
        private static final Callable<Void> DONE = () -> null;

        /**
         * The lists a helper maps, the mapping, and the snapshot compiled from it before the DRA objects are in
         * ({@link ClusterSnapshot#withoutDra}; null when a pod's compilation needs them).
         */
        private record Started(RequestDocument.Snapshot from, FutureTask<ClusterState> cluster,
                               FutureTask<ClusterSnapshot> snapshot) {
        }

        private final CompileAhead owner;
        private final UnaryOperator<Callable<Void>> onHelper;
        /** What the helper runs once the mapping is done ({@link #thenRun}); {@link #DONE} once it has stopped. */
        private final AtomicReference<Callable<Void>> next = new AtomicReference<>();
        private volatile Started started;
        private boolean tried; // decoding thread only

        private Early(CompileAhead owner, UnaryOperator<Callable<Void>> onHelper) {
            this.owner = owner;
            this.onHelper = onHelper;
        }

        @Override
        public void beforeField(String field, RequestDocument.Snapshot soFar) {
            if (owner == null || tried || KubeMapper.readsForCluster(field) || soFar.nodes() == null
                    || soFar.pods() == null || size(soFar) < owner.threshold || !owner.withinLimits(soFar)) {
                return;
            }
            tried = true;
            FutureTask<ClusterState> cluster = new FutureTask<>(() -> KubeMapper.toClusterState(soFar));
            // with its topology domains, grouped while the rest of the body is still decoded
            FutureTask<ClusterSnapshot> snapshot = new FutureTask<>(() -> {
                ClusterSnapshot s = ClusterSnapshot.withoutDra(cluster.get());
                if (s != null) {
                    owner.warm.accept(s);
                }
                return s == null ? null : s.warmTopology();
            });
            Started s = new Started(soFar, cluster, snapshot);
            started = s;
            try {
                owner.helpers.execute(new FutureTask<>(onHelper.apply(() -> {
                    cluster.run();
                    snapshot.run();
                    Callable<Void> then = next.getAndSet(DONE);
                    return then == null ? null : then.call();
                })));
            } catch (RejectedExecutionException busy) {
                started = null; // every helper is busy: the cluster stage maps the document
            }
        }

        /** Hands {@code work} to the helper mapping the cluster, to run next; false when there is none (any more). */
        boolean thenRun(Callable<Void> work) {
            return started != null && next.compareAndSet(null, work);
        }

        /**
         * The cluster of the decoded snapshot {@code s}: the early mapping when it was made from the very lists
         * {@code s} holds, else mapped here. An early mapping that failed is made again here, so the error is the
         * document's own.
         */
        ClusterState clusterOf(RequestDocument.Snapshot s) {
            Started st = started;
            if (st != null && s != null && KubeMapper.sameClusterLists(st.from(), s)) {
                ClusterState early = valueOrNull(st.cluster());
                if (early != null) {
                    return early;
                }
            }
            return KubeMapper.toClusterState(s); // also when the early mapping failed
        }

        /** What the helper's task gave ({@link #await}); null when it failed or was cancelled. */
        private static <T> T valueOrNull(FutureTask<T> task) {
            try {
                return await(task);
            } catch (ExecutionException | CancellationException e) {
                return null;
            }
        }

        /**
         * The snapshot compiled early from {@code cluster}, to be completed with the DRA objects, or null: none was
         * started, it was compiled from another mapping, failed, or a pod's compilation needs the DRA objects.
         * Waits while the helper compiles it (it runs right after the mapping, so never long).
         */
        ClusterSnapshot snapshotOf(ClusterState cluster) {
            Started st = started;
            if (st == null || !st.cluster().isDone() || valueOrNull(st.cluster()) != cluster) {
                return null; // none, or the cluster was mapped again from the document
            }
            return valueOrNull(st.snapshot()); // failed: compiled by the stage instead, with the document's own error
        }

        /**
         * The nodes of the snapshot compiled early, in its order, or null when there is none (then a catalog is warmed
         * for every node its slices name). Waits while the helper compiles it.
         */
        List<Node> snapshotNodes() {
            Started st = started;
            ClusterSnapshot s = st == null ? null : valueOrNull(st.snapshot());
            if (s == null) {
                return null;
            }
            Node[] nodes = new Node[s.nodeCount()];
            for (int i = 0; i < nodes.length; i++) {
                nodes[i] = s.nodeObject(i);
            }
            return java.util.Arrays.asList(nodes);
        }

        /** Drops the early mapping (the request failed): a mapping already running finishes unseen. */
        public void cancel() {
            if (owner == null) {
                return; // NONE: nothing started, nothing to keep
            }
            Started st = started;
            if (st != null) {
                st.cluster().cancel(false);
                st.snapshot().cancel(false);
            }
            next.compareAndSet(null, DONE);
        }

        /** Whether a helper took this request's cluster mapping before the decoding ended. */
        public boolean startedEarly() {
            return started != null;
        }
    }

    /** One stage of a compilation: run once, by whichever thread comes to it first. */
    public static final class Stage<T> {
        private final FutureTask<T> task;

        private Stage(Callable<T> work) {
            this.task = new FutureTask<>(work);
        }

        /**
         * The stage's value, waiting while another thread runs it; what it threw is rethrown as it is.
         *
         * @throws IllegalStateException when the compilation was cancelled before the stage ran
         */
        public T get() {
            try {
                return await(task);
            } catch (ExecutionException e) {
                Throwable cause = e.getCause();
                if (cause instanceof RuntimeException r) {
                    throw r;
                }
                if (cause instanceof Error err) {
                    throw err;
                }
                throw new IllegalStateException(cause);
            } catch (CancellationException e) {
                throw new IllegalStateException("the compilation was cancelled", e);
            }
        }
    }

    /**
     * The task's value, waiting while another thread runs it (it finishes soon): an interrupt meanwhile does not stop
     * the wait and is kept for the caller.
     */
    private static <T> T await(FutureTask<T> task) throws ExecutionException {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return task.get();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The stages of one compilation, in the order both threads run them; the last one's value is the result. */
    public static final class Stages {
        private final List<Stage<?>> stages = new ArrayList<>();

        /** Adds a stage after the others; it may read earlier stages ({@link Stage#get()}), never later ones. */
        public <T> Stage<T> add(Callable<T> work) {
            Stage<T> stage = new Stage<>(work);
            stages.add(stage);
            return stage;
        }

        /** Runs, in order, every stage no thread has started (a stage started elsewhere is skipped, not awaited). */
        void runAll() {
            for (Stage<?> s : stages) {
                s.task.run();
            }
        }

        Object result() {
            return stages.get(stages.size() - 1).get();
        }

        void cancel() {
            for (Stage<?> s : stages) {
                s.task.cancel(false);
            }
        }
    }

    /** One request's compilation, running on a helper or waiting for {@link #join()}. */
    public static final class Task {
        private final Stages stages;

        Task(Stages stages) {
            this.stages = stages;
        }

        /**
         * The compiled request: runs here every stage no helper has started, then waits for the helper. Rethrows what
         * the compilation threw.
         */
        public Compiled join() {
            stages.runAll();
            return (Compiled) stages.result();
        }

        /** Drops the compilation (validation refused the request); a stage a helper is running finishes unseen. */
        public void cancel() {
            stages.cancel();
        }
    }
}
