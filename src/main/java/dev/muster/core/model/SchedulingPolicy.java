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
}
