package dev.muster.core.decision;

import dev.muster.core.model.PodRef;

/**
 * A pending pod that takes part in no decision, and why: {@code SchedulingGated} (it carries scheduling gates),
 * {@code NotSelected} (the request named other groups or pods), {@code Terminating} (it is being deleted).
 */
public record PodStatus(PodRef pod, String status, String message) {
    public static final String SCHEDULING_GATED = "SchedulingGated";
    public static final String NO_SCHEDULING_GROUP = "NoSchedulingGroup";
    public static final String NOT_SELECTED = "NotSelected";
    public static final String TERMINATING = "Terminating";
}
