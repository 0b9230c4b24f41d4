package dev.muster.adapter.grpc;

import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.ForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.spi.Prioritized;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.time.Duration;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Gives each call a gRPC {@link Context} that carries the client's deadline and is cancelled when the client
 * cancels. Needed because gRPC is served by the Vert.x HTTP server ({@code use-separate-server=false}), whose
 * gRPC bridge (Vert.x 4.5) does neither: there {@code Context.current()} has no deadline and is never cancelled, so
 * {@link DecisionGrpcService}'s checks would never fire.
 *
 * <p>The client's deadline is read from the {@code grpc-timeout} request header (gRPC over HTTP/2: up to 8 digits and
 * a unit, {@code H M S m u n}). A malformed header is ignored (no client deadline), as grpc-java does. Every call also
 * has the server's limit, {@code muster.grpc.max-call-duration}: the call's deadline is the earlier of the two, so a
 * call without a deadline (or with a very long one) ends at the server's limit. The context is cancelled on the
 * listener's {@code onCancel} (client reset the stream) and released on {@code onComplete}. When the server's limit
 * is the one that applies, the context carries {@link #SERVER_LIMIT} so that the answer says which limit passed.
 *
 * <p>A unary call whose request has not arrived whole when its deadline passes (a sender that stalls mid-message or
 * never half-closes) is closed here with {@code DEADLINE_EXCEEDED}, so a stalled sender holds no stream past the
 * call's deadline. The Vert.x bridge does not do it, and the service method, which checks the context, has not
 * started.
 *
 * <p>Runs before Quarkus's blocking handler (priority {@value #PRIORITY}, above its 2147483587), so the context is
 * current when the call is handed to a worker thread, and the worker runs the service method inside it.
 */
@ApplicationScoped
public class GrpcDeadlineInterceptor implements ServerInterceptor, Prioritized {
    static final int PRIORITY = 2147483590;
    static final Metadata.Key<String> TIMEOUT = Metadata.Key.of("grpc-timeout", Metadata.ASCII_STRING_MARSHALLER);
    /** Set (to the limit's wording) on a call whose deadline is the server's limit rather than the client's. */
    static final Context.Key<String> SERVER_LIMIT = Context.key("muster-server-call-limit");

    private final ScheduledThreadPoolExecutor timer;
    private final long limitNanos;
    private final String limitWording;

    GrpcDeadlineInterceptor(@ConfigProperty(name = "muster.grpc.max-call-duration", defaultValue = "60s")
                            Duration maxCallDuration) {
        if (maxCallDuration.isNegative() || maxCallDuration.isZero()) {
            // fail at startup: a limit of zero would answer every call DEADLINE_EXCEEDED
            throw new IllegalArgumentException("muster.grpc.max-call-duration must be positive, got "
                    + maxCallDuration);
        }
        this.limitNanos = maxCallDuration.toNanos();
        this.limitWording = "the server's limit of " + maxCallDuration.toString().substring(2).toLowerCase()
                + " per call (muster.grpc.max-call-duration)";
        this.timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "muster-grpc-deadlines");
            t.setDaemon(true);
            return t;
        });
        // every call schedules its deadline and most finish long before it: drop cancelled ones from the queue at once
        timer.setRemoveOnCancelPolicy(true);
    }

    @Override
    public int getPriority() {
        return PRIORITY;
    }

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
                                                       ServerCallHandler<Q, R> next) {
        long client = timeoutNanos(headers.get(TIMEOUT));
        Context current = Context.current();
        boolean serverLimit = client < 0 || client > limitNanos;
        if (serverLimit && current.getDeadline() != null
                && current.getDeadline().timeRemaining(TimeUnit.NANOSECONDS) <= limitNanos) {
            serverLimit = false; // an earlier deadline is already in force
        }
        Context base = serverLimit ? current.withValue(SERVER_LIMIT, limitWording) : current;
        // withDeadlineAfter keeps the parent's deadline when that is earlier
        Context.CancellableContext ctx = base.withDeadlineAfter(serverLimit ? limitNanos : client,
                TimeUnit.NANOSECONDS, timer);
        String wording = serverLimit ? limitWording : "deadline";
        ServerCall.Listener<Q> inner = Contexts.interceptCall(ctx, call, headers, next);
        if (!call.getMethodDescriptor().getType().clientSendsOneMessage()) {
            return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(inner) {
                @Override
                public void onCancel() {
                    ctx.cancel(null);
                    super.onCancel();
                }

                @Override
                public void onComplete() {
                    try {
                        super.onComplete();
                    } finally {
                        ctx.cancel(null);
                    }
                }
            };
        }
        // A unary call (every call has a deadline): if it passes before the request has arrived whole (a sender that
        // stalls mid-message or never half-closes), the call is closed here with DEADLINE_EXCEEDED; the service
        // method never runs. Whichever comes first, the half-close or the deadline, takes the call.
        AtomicBoolean taken = new AtomicBoolean();
        ctx.addListener(c -> {
            if (c.cancellationCause() instanceof TimeoutException && taken.compareAndSet(false, true)) {
                call.close(Status.DEADLINE_EXCEEDED.withDescription(
                        wording + " passed before the request message arrived whole"), new Metadata());
            }
        }, Runnable::run);
        return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(inner) {
            @Override
            public void onMessage(Q message) {
                if (!taken.get()) {
                    super.onMessage(message);
                }
            }

            @Override
            public void onHalfClose() {
                if (taken.compareAndSet(false, true)) {
                    super.onHalfClose();
                }
            }

            @Override
            public void onCancel() {
                taken.set(true);
                ctx.cancel(null);
                super.onCancel();
            }

            @Override
            public void onComplete() {
                taken.set(true);
                try {
                    super.onComplete();
                } finally {
                    ctx.cancel(null);
                }
            }
        };
    }

    /** The {@code grpc-timeout} value in nanoseconds, or -1 when absent or malformed. */
    static long timeoutNanos(String value) {
        if (value == null || value.length() < 2 || value.length() > 9) {
            return -1;
        }
        long amount = 0;
        for (int i = 0; i < value.length() - 1; i++) {
            char c = value.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            amount = amount * 10 + (c - '0');
        }
        TimeUnit unit = switch (value.charAt(value.length() - 1)) {
            case 'H' -> TimeUnit.HOURS;
            case 'M' -> TimeUnit.MINUTES;
            case 'S' -> TimeUnit.SECONDS;
            case 'm' -> TimeUnit.MILLISECONDS;
            case 'u' -> TimeUnit.MICROSECONDS;
            case 'n' -> TimeUnit.NANOSECONDS;
            default -> null;
        };
        return unit == null ? -1 : unit.toNanos(amount);
    }

    @PreDestroy
    void stop() {
        timer.shutdownNow();
    }
}
