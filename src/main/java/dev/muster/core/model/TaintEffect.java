package dev.muster.core.model;

/** {@code NoSchedule}, {@code PreferNoSchedule}, {@code NoExecute}. */
public enum TaintEffect {
    NoSchedule, PreferNoSchedule, NoExecute
}
