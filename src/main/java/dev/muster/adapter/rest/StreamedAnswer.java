package dev.muster.adapter.rest;

import dev.muster.core.decision.Decision;
import dev.muster.core.decision.DecisionResult;
import io.vertx.core.buffer.Buffer;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;

/**
 * The answer to a decision with many decisions, written by a helper while the engine still decides: the engine hands
 * over each decision as it makes it ({@link dev.muster.core.decision.DecisionEngine#decide}'s {@code made}), and once
 * {@value #START} have come, a free compile-ahead helper writes them in order as they come;
 * {@link #finish} gives it the pods of the result and takes the bytes. Ten thousand plain pods' decisions take tens
 * of milliseconds to write, about a third of the time the engine takes to make them, so the answer is done soon after
 * the last decision instead of after all of them plus the writing. The bytes are {@link DecisionResponseWriter#write}'s.
 *
 * <p>A request with fewer decisions, or one for which no helper is free, is written as before by the request thread
 * once the engine is done. One writer per request, single producer (the request thread), single consumer (the
 * helper); the helper's writer is made and used on the helper alone.
 */
final class StreamedAnswer {
    /** Decisions after which a helper is asked for (and asked again every as many, while none is free). */
    static final int START = 256;
    /** How long the helper waits for more decisions before looking again (the last one wakes it at once). */
    private static final long PARK_NANOS = 1_000_000;
    /** Answers a helper wrote that were sent (tests check that long answers take this path). */
    static final AtomicLong WRITTEN_BY_HELPER = new AtomicLong();

    private final Predicate<Runnable> helpers;
    /** What a helper writes from and into: made when one is asked for (a short answer makes neither). */
    private ConcurrentLinkedQueue<Decision> queue;
    private CompletableFuture<JsonBytes> written;
    /** Decisions received before a helper took over (the request thread's only), from the first one on. */
    private List<Decision> held;
    private int received;
    private volatile boolean started;
    private volatile Thread helper;
    private volatile DecisionResult result;
    private volatile boolean cancelled;
    /** Decisions the helper wrote (read after {@link #written} completes). */
    private int wrote;

    /** @param helpers runs a task on a free helper, or answers false (never queues it) */
    StreamedAnswer(Predicate<Runnable> helpers) {
        this.helpers = helpers;
    }

    /** A decision just made, in the result's order (the request thread). */
    void accept(Decision d) {
        received++;
        if (started) {
            queue.offer(d);
            return;
        }
        if (held == null) {
            held = new ArrayList<>();
        }
        held.add(d);
        if (received % START == 0) {
            if (queue == null) {
                queue = new ConcurrentLinkedQueue<>();
                written = new CompletableFuture<>();
            }
            if (helpers.test(this::write)) {
                queue.addAll(held); // in order, before any later one; the helper takes them as they come
                started = true;
                held = null;
            }
        }
    }

    /**
     * The answer, in the chunks it was written into: the helper's, once it has written every decision of
     * {@code result}, else written here.
     *
     * @throws IOException interrupted while waiting, or the helper failed
     */
    Buffer finish(DecisionResult result) throws IOException {
        if (!started) {
            return DecisionResponseWriter.buffer(result);
        }
        this.result = result;
        LockSupport.unpark(helper);
        JsonBytes bytes;
        try {
            bytes = written.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            cancel();
            throw new IOException("interrupted while the answer was written", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
        }
        if (wrote != result.decisions().size() || received != wrote) {
            // not the decisions of the result (cannot happen while the engine hands each over once, in order)
            return DecisionResponseWriter.buffer(result);
        }
        WRITTEN_BY_HELPER.incrementAndGet();
        return bytes.toBuffer();
    }

    /** The engine failed or was stopped: the helper stops writing and lets its buffers go. */
    void cancel() {
        cancelled = true;
        LockSupport.unpark(helper);
    }

    /** The helper: every decision as it comes, then, once the result is given, its pods and the end. */
    private void write() {
        helper = Thread.currentThread();
        try {
            written.complete(DecisionResponseWriter.written(g -> {
                DecisionResponseWriter.begin(g);
                while (true) {
                    Decision d = queue.poll();
                    if (d != null) {
                        DecisionResponseWriter.decision(g, d);
                        wrote++;
                        continue;
                    }
                    if (cancelled) {
                        throw new java.util.concurrent.CancellationException("the decision was cancelled");
                    }
                    DecisionResult done = result;
                    if (done != null && queue.isEmpty()) {
                        DecisionResponseWriter.end(g, done.pods());
                        return;
                    }
                    if (done == null) {
                        LockSupport.parkNanos(this, PARK_NANOS);
                    }
                }
            }));
        } catch (Throwable e) { // whatever ends the helper's writing ends the request thread's wait too
            written.completeExceptionally(e);
        } finally {
            helper = null;
        }
    }
}
