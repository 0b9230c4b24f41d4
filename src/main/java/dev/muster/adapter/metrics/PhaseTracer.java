package dev.muster.adapter.metrics;

import java.util.concurrent.Callable;

/**
 * Traces the phases of one decision request ({@code decode}, {@code validate}, {@code compile}, {@code decide},
 * {@code encode}) as child spans of a request span. The composition root provides an OpenTelemetry implementation
 * when tracing is switched on, and {@link #OFF} otherwise, so the request path pays nothing while it is off.
 */
public interface PhaseTracer {
    String DECODE = "decode";
    String VALIDATE = "validate";
    String COMPILE = "compile";
    String DECIDE = "decide";
    String ENCODE = "encode";

    /** One open span; {@link #close()} ends it. */
    interface Phase extends AutoCloseable {
        Phase NONE = () -> {
        };

        /** Marks the span as failed with this error (it still has to be closed). */
        default void fail(Throwable error) {
        }

        @Override
        void close();
    }

    PhaseTracer OFF = new PhaseTracer() {
        @Override
        public Phase request(String name) {
            return Phase.NONE;
        }

        @Override
        public Phase phase(String name) {
            return Phase.NONE;
        }
    };

    /** Opens the span of a whole request (e.g. {@code muster.decide}); the phases become its children. */
    Phase request(String name);

    /** Opens a phase span under the current request span. */
    Phase phase(String name);

    /** Wraps work for another thread so that the phases it opens are children of the current span there too. */
    default <T> Callable<T> carry(Callable<T> work) {
        return work;
    }
}
