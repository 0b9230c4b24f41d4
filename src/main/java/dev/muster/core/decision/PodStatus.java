package dev.muster.core.decision;

import dev.muster.core.model.PodRef;

/**
 * A pod that takes part in no decision, and why: {@code SchedulingGated}, {@code NoSchedulingGroup} (when its group
 * was asked for explicitly but it names none)...
 */
public record PodStatus(PodRef pod, String status, String message) {
    public static final String SCHEDULING_GATED = "SchedulingGated";
    public static final String NO_SCHEDULING_GROUP = "NoSchedulingGroup";
}
