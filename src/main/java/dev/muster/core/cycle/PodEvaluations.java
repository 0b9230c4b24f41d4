package dev.muster.core.cycle;

import dev.muster.core.framework.PodInfo;

/**
 * Where a {@link PodScheduler} gets a pod's evaluation over a placement from. {@link PlainEvaluations} evaluates
 * every pod in full: the reference, what the engine runs with batching off. {@link SpeedupEvaluationReuse} decorates
 * it: a pod whose signature equals an earlier pod's gets that evaluation brought up to date, which is the same
 * evaluation.
 */
interface PodEvaluations {
    /**
     * The pod's evaluation over the placement, up to date with the snapshot as it is now ({@link PodEvaluation#cost}
     * says what bringing it up to date cost). One whose filters erred is not kept.
     */
    PodEvaluation evaluate(PodInfo pod, Placement placement);

    /** The pod's next evaluation over the placement is a full one. */
    void forget(PodInfo pod, Placement placement);

    /** Every next evaluation is a full one. */
    void clear();
}
