package dev.muster.core.decision;

import dev.muster.core.model.PodRef;

/** A pod that was not placed and why, in kube-scheduler's words. */
public record PodMessage(PodRef pod, String message) {
}
