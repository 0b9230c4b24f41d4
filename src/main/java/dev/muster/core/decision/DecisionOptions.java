package dev.muster.core.decision;

/**
 * Per-request options ({@code options} in the request).
 *
 * @param preemption   when a group cannot be placed, look for victims (default true)
 * @param explain      add structured reasons to each decision (default false)
 */
public record DecisionOptions(boolean preemption, boolean explain) {
    public static final DecisionOptions DEFAULT = new DecisionOptions(true, false);
}
