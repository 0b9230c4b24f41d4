package dev.muster.core.decision;

import dev.muster.core.model.GroupRef;

/**
 * Told about each PodGroup the engine decided, with the time that group's cycle took (filter, score, placement
 * search and the preemption search). Called on the deciding thread, in decision order; must be cheap and must not
 * throw. Cache hits of an adapter never reach it: only decisions actually computed.
 */
public interface DecisionObserver {
    DecisionObserver NONE = new DecisionObserver() {
        @Override
        public void decided(Decision decision, boolean preemptionAttempted, long nanos) {
        }
    };

    /**
     * One group's decision.
     *
     * @param preemptionAttempted whether the cycle looked for victims (the group did not fit and preemption was on)
     * @param nanos               the group's cycle time
     */
    void decided(Decision decision, boolean preemptionAttempted, long nanos);

    /** A group whose cycle failed with an internal error (the request then fails); upstream's {@code error} result. */
    default void failed(GroupRef podGroup, long nanos) {
    }

    /**
     * The run (one request's decisions) is over, however it ended: after its last {@link #decided} or {@link #failed},
     * on the same thread.
     */
    default void finished() {
    }

    /** Both observers, {@code a} first. */
    static DecisionObserver both(DecisionObserver a, DecisionObserver b) {
        return new DecisionObserver() {
            @Override
            public void decided(Decision decision, boolean preemptionAttempted, long nanos) {
                a.decided(decision, preemptionAttempted, nanos);
                b.decided(decision, preemptionAttempted, nanos);
            }

            @Override
            public void failed(GroupRef podGroup, long nanos) {
                a.failed(podGroup, nanos);
                b.failed(podGroup, nanos);
            }

            @Override
            public void finished() {
                a.finished();
                b.finished();
            }
        };
    }
}
