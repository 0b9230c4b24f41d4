package dev.muster.core.model;

/**
 * A metav1.Condition as Muster reads and writes it. {@code lastTransitionTime} is carried over from the input
 * when the status does not change and left null otherwise: a decision never reads the wall clock, so the caller
 * stamps the time when it writes the condition.
 */
public record Condition(String type, String status, String reason, String message, Long observedGeneration,
                        String lastTransitionTime) {
}
