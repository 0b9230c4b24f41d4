package dev.muster.core.model;

/** policy/v1 PodDisruptionBudget: its selector and {@code status.disruptionsAllowed}. */
public record PodDisruptionBudget(PodRef ref, LabelSelector selector, int disruptionsAllowed) {
}
