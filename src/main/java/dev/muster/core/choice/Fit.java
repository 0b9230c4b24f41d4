package dev.muster.core.choice;

/** How a workload fits one cluster: what its decisions say, read as a whole. */
public enum Fit {
    /** Every decision {@code Scheduled}, no victim, every pending pod of the workload that is not gated placed. */
    Fits,
    /**
     * Every decision {@code Scheduled} or {@code Preempting}, at least one victim, every pending pod of the workload
     * that is not gated placed or nominated.
     */
    FitsWithPreemption,
    /** Anything else. */
    DoesNotFit
}
