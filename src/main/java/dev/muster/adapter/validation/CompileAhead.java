package dev.muster.adapter.validation;

import dev.muster.adapter.cel.CelSelectors;
import dev.muster.adapter.kube.KubeMapper;
import dev.muster.adapter.kube.RequestDocument;
import dev.muster.core.decision.DecisionEngine;
import dev.muster.core.decision.DecisionRequest;
import dev.muster.core.snapshot.ClusterSnapshot;

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

/**
 * Compiles a decoded request (core model, then snapshot) on a helper thread while the caller validates it, so a large
 * decision costs about the longer of the two instead of their sum. Validation still decides: a request that breaks a
 * rule is refused with its causes, and what the helper compiled from it is dropped.
 * <p>
 * Never a queue: when every helper is busy, or the request is small (below {@code threshold} nodes plus pods, where a
 * hand-over would cost more than it saves), {@link Task#join()} compiles on the calling thread, exactly as without
 * helpers. A task not yet started by a helper when the caller joins is also run by the caller. Compiling an invalid
 * document is safe: the mapper only reads it, and its errors are seen only after validation passed; a document over
 * the validator's list limits is never handed to a helper.
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

    /**
     * Starts compiling {@code doc} when it is large enough and a helper is free.
     *
     * @param work the compilation (e.g. {@link #compile}), wrapped as the helper thread needs it (a trace context);
     *             it throws the caller's own errors for what it refuses
     */
    public Task start(RequestDocument doc, Callable<Compiled> work) {
        FutureTask<Compiled> task = new FutureTask<>(work);
        if (helpers != null && size(doc) >= threshold && withinLimits(doc)) {
            try {
                helpers.execute(task);
            } catch (RejectedExecutionException busy) {
                // every helper is compiling another request: join() runs it here
            }
        }
        return new Task(task);
    }

    /** The request in the core model (DRA selectors through the shared CEL cache), then its snapshot. */
    public static Compiled compile(RequestDocument doc) {
        DecisionRequest request = KubeMapper.toDecisionRequest(doc, CelSelectors.shared()::compile);
        return new Compiled(request, DecisionEngine.compile(request));
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

    /** One request's compilation, running on a helper or waiting for {@link #join()}. */
    public static final class Task {
        private final FutureTask<Compiled> task;

        Task(FutureTask<Compiled> task) {
            this.task = task;
        }

        /**
         * The compiled request: runs the compilation here if no helper has started it, else waits for the helper.
         * Rethrows what the compilation threw.
         */
        public Compiled join() {
            task.run();
            boolean interrupted = false;
            try {
                while (true) {
                    try {
                        return task.get();
                    } catch (InterruptedException e) {
                        interrupted = true; // the helper finishes soon; keep the interrupt for the caller
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

        /** Drops the compilation (validation refused the request); a helper already running it finishes unseen. */
        public void cancel() {
            task.cancel(false);
        }
    }
}
