package dev.muster.core.cycle;

/** The caller asked the decision run to stop (its deadline passed, it went away); nothing partial is returned. */
public final class CycleAbortedException extends RuntimeException {
    public CycleAbortedException() {
        super("the decision run was stopped by its caller", null, false, false);
    }
}
