package dev.muster.core.model;

/**
 * {@code spec.schedulingPolicy}: exactly one of basic and gang. {@code minCount} is meaningful for gang only.
 */
public record SchedulingPolicy(Kind kind, int minCount) {
    public enum Kind { BASIC, GANG }

    public static final SchedulingPolicy BASIC = new SchedulingPolicy(Kind.BASIC, 0);

    public static SchedulingPolicy gang(int minCount) {
        return new SchedulingPolicy(Kind.GANG, minCount);
    }

    public boolean isGang() {
        return kind == Kind.GANG;
    }

    /**
     * Whether {@code running} members (bound, or bound and placed in this cycle) meet the policy: a gang's
     * {@code minCount}, or for a basic group one member. The one statement of the rule: the gang plugin's Permit,
     * the cycle, the composite cycle and the explanation all ask here.
     */
    public boolean holds(int running) {
        return isGang() ? running >= minCount : running > 0;
    }

    /**
     * Members still to be placed at once with {@code running} already running: a gang's {@code minCount} less them
     * (never below 0); a basic group's members go one at a time, so one.
     */
    public int needed(int running) {
        return isGang() ? Math.max(0, minCount - running) : 1;
    }
}
