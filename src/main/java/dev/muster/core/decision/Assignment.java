package dev.muster.core.decision;

import dev.muster.core.model.PodRef;

/** A pod and a node: a placement, a victim or a nomination, depending on the list it is in. */
public record Assignment(PodRef pod, String node) {
}
