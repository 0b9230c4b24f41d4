package dev.muster.core.model;

/** scheduling.k8s.io/v1 PriorityClass. {@code preemptionPolicy} null = PreemptLowerPriority. */
public record PriorityClass(String name, int value, boolean globalDefault, String preemptionPolicy) {
}
