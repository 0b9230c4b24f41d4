package dev.muster.adapter.rest;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.core.Context;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.util.concurrent.Executor;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Chooses the thread a request is answered on. The resources are {@code @NonBlocking}, so Quarkus REST calls them on
 * the event loop. A body of up to {@code quarkus.rest.input-buffer-size} arrives fully buffered (a
 * {@link ByteArrayInputStream}: Quarkus REST's, or, for a request document with a Content-Length,
 * {@link LargeBodies}'s one array); one of up to {@code muster.http.inline-max-body-size} is then read, decided and
 * answered right there, without a hand-off to a worker thread and back (most of the HTTP cost of a small request).
 * Every other body is read and decided on the worker pool: a larger buffered one, and one still streaming in (over the
 * input buffer), whose blocking read must not happen on the event loop. So a request that takes seconds never holds an
 * event loop that other connections share.
 */
@ApplicationScoped
public class RequestDispatcher {
    private final long inlineMax;
    private final BodyReader bodyReader;
    private final Executor workers;

    @Inject
    RequestDispatcher(DispatchSettings settings, BodyReader bodyReader) {
        this(settings.inlineMaxBodySize(), bodyReader, null);
    }

    /** {@code workers} null: Quarkus's worker pool (Mutiny's default worker pool is Quarkus's executor). */
    RequestDispatcher(long inlineMax, BodyReader bodyReader, Executor workers) {
        this.inlineMax = inlineMax;
        this.bodyReader = bodyReader;
        this.workers = workers;
    }

    /** True when this body is read and answered on the current thread. */
    boolean inline(InputStream body) {
        if (!Context.isOnEventLoopThread()) {
            return true; // already on a worker: no second hand-off
        }
        try {
            return body instanceof ByteArrayInputStream && body.available() <= inlineMax;
        } catch (java.io.IOException e) {
            return false;
        }
    }

    /**
     * Reads the body (413 over {@code muster.limits.max-body-size}) and runs {@code work} on it: on the calling thread
     * when {@link #inline}, else on the worker pool. Failures (a {@link dev.muster.adapter.rest.error.StatusException})
     * reach the exception mappers either way.
     */
    <T> Uni<T> run(InputStream body, Function<byte[], T> work) {
        return run(body, -1, work);
    }

    /**
     * As {@link #run(InputStream, long, Function)} for work that can start on a body still arriving, and that lets a
     * large body's array go once it has decoded it: {@code work} gets the body as a {@link RequestBytes}, never the
     * array itself. A body {@link LargeBodies} is reading goes to {@code work} at once, with how far it has arrived;
     * any other is read whole first.
     */
    <T> Uni<T> runBody(InputStream body, long contentLength, Function<RequestBytes, T> work) {
        if (body instanceof LargeBodies.Body arriving) {
            if (arriving.ended() && inline(arriving)) {
                // read whole before the resource ran (a small body): answered here, as a buffered one
                return Uni.createFrom().item(work.apply(RequestBytes.whole(arriving.bytes())));
            }
            // a worker: the work waits for bytes still arriving, which must never block an event loop
            return Uni.createFrom().item(() -> work.apply(new RequestBytes(arriving.arriving(), arriving)))
                    .runSubscriptionOn(pool());
        }
        return dispatch(body, () -> work.apply(RequestBytes.whole(bodyReader.read(body, contentLength))));
    }

    /** As {@link #run(InputStream, Function)}, sizing the body's array from its Content-Length ({@code -1}: unknown). */
    <T> Uni<T> run(InputStream body, long contentLength, Function<byte[], T> work) {
        return dispatch(body, () -> work.apply(bodyReader.read(body, contentLength)));
    }

    /** {@code work} now on the calling thread when the body is {@link #inline}, else on the worker pool. */
    private <T> Uni<T> dispatch(InputStream body, Supplier<T> work) {
        return inline(body) ? Uni.createFrom().item(work.get())
                : Uni.createFrom().item(work).runSubscriptionOn(pool());
    }

    private Executor pool() {
        return workers != null ? workers : Infrastructure.getDefaultWorkerPool();
    }
}
