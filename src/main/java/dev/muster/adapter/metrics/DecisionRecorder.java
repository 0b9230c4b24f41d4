package dev.muster.adapter.metrics;

import dev.muster.core.decision.DecisionResult;

/**
 * Where an adapter reports each decision it served, whatever the transport: the engine's result and the engine time
 * it took. The composition root provides the implementation (Micrometer meters), so adapters do not depend on how
 * metrics are named or kept.
 */
public interface DecisionRecorder {
    /** Records one request's decisions; {@code nanos} is the engine time only (not decoding or encoding). */
    void record(DecisionResult result, long nanos);
}
