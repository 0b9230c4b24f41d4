package dev.muster.wiring;

import dev.muster.adapter.metrics.PhaseTracer;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;

import java.util.concurrent.Callable;

/**
 * {@link PhaseTracer} on the OpenTelemetry API: each span is made current while it is open, so a phase opened inside a
 * request span (on the same thread) becomes its child, and the request span is a child of Quarkus's HTTP server span
 * when there is one.
 */
final class OtelPhaseTracer implements PhaseTracer {
    static final String INSTRUMENTATION = "dev.muster";

    private final Tracer tracer;

    OtelPhaseTracer(OpenTelemetry otel) {
        this.tracer = otel.getTracer(INSTRUMENTATION);
    }

    @Override
    public Phase request(String name) {
        return open(name);
    }

    @Override
    public Phase phase(String name) {
        return open(name);
    }

    @Override
    public <T> Callable<T> carry(Callable<T> work) {
        return Context.current().wrap(work);
    }

    private Phase open(String name) {
        Span span = tracer.spanBuilder(name).startSpan();
        Scope scope = span.makeCurrent();
        return new Phase() {
            @Override
            public void fail(Throwable error) {
                span.recordException(error);
                span.setStatus(StatusCode.ERROR, error.getMessage() == null ? "" : error.getMessage());
            }

            @Override
            public void close() {
                scope.close();
                span.end();
            }
        };
    }
}
