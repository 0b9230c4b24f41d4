package dev.muster.core.decision;

/**
 * Thrown by {@link DecisionEngine#decide(DecisionRequest, java.util.function.BooleanSupplier)} when its stop signal
 * turned true: the caller's deadline passed or it went away. No partial result exists.
 */
public final class DecisionAbortedException extends RuntimeException {
    public DecisionAbortedException() {
        super("the decision was stopped by its caller", null, false, false);
    }
}
