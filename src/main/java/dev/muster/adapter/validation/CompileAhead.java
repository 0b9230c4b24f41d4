package dev.muster.adapter.validation;

import dev.muster.adapter.cel.CelSelectors;
import dev.muster.adapter.kube.KubeMapper;
import dev.muster.adapter.kube.RequestDocument;
import dev.muster.core.decision.DecisionRequest;
import dev.muster.core.dra.ClaimCatalog;
import dev.muster.core.dra.DraObjects;
import dev.muster.core.model.ClusterState;
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

    /**
     * @param threads   helper threads (0 = off)
     * @param threshold nodes + pods from which a request is handed to a helper
     * @param limits    the validator's list limits: a request over them is refused, so never compiled ahead
     */
    public CompileAhead(int threads, int threshold, ValidationLimits limits) {
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
        if (helpers != null && size(doc) >= threshold && withinLimits(doc)) {
            try {
                helpers.execute(new FutureTask<>(onHelper.apply(() -> {
                    stages.runAll();
                    return null;
                })));
            } catch (RejectedExecutionException busy) {
                // every helper is compiling another request: join() runs it here
            }
        }
        return new Task(stages);
    }

    /**
     * The stages of a request's compilation: its DRA objects (DRA selectors through the shared CEL cache), their
     * catalog (built and {@linkplain ClaimCatalog#warm() warmed}), the cluster, then the request and its
     * snapshot. The DRA stages come first: with a helper, the caller maps the cluster once it has validated.
     */
    public static Stages compile(RequestDocument doc) {
        Stages stages = new Stages();
        Stage<DraObjects> dra = stages.add(() -> KubeMapper.draObjects(doc.snapshot(), CelSelectors.shared()::compile));
        Stage<ClaimCatalog> catalog = stages.add(() -> new ClaimCatalog(dra.get()).warm());
        Stage<ClusterState> cluster = stages.add(() -> KubeMapper.toClusterState(doc.snapshot()));
        stages.add(() -> {
            DecisionRequest request = KubeMapper.toDecisionRequest(doc, cluster.get(), dra.get());
            return new Compiled(request, new ClusterSnapshot(request.cluster(), request.dra(), catalog::get));
        });
        return stages;
    }

    /**
     * Whether the lists a compilation's cost grows with are within the validator's limits: a request with a million
     * nodes is refused at once, and its compilation never started.
     */
    private boolean withinLimits(RequestDocument doc) {
        RequestDocument.Snapshot s = doc.snapshot();
        return s != null && count(s.nodes()) <= limits.maxNodes() && count(s.pods()) <= limits.maxPods()
                && count(s.podGroups()) <= limits.maxPodGroups() && count(s.resourceSlices()) <= limits.maxObjects()
                && count(s.resourceClaims()) <= limits.maxObjects() && count(s.hyperNodes()) <= limits.maxHyperNodes();
    }

    /** Nodes plus pods: what the compilation's cost grows with. */
    static long size(RequestDocument doc) {
        RequestDocument.Snapshot s = doc.snapshot();
        return s == null ? 0 : (long) count(s.nodes()) + count(s.pods());
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
            boolean interrupted = false;
            try {
                while (true) {
                    try {
                        return task.get();
                    } catch (InterruptedException e) {
                        interrupted = true; // the other thread finishes the stage soon; keep the interrupt
                    }
                }
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
            } finally {
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
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
