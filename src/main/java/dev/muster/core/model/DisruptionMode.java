package dev.muster.core.model;

/** PodGroup {@code spec.disruptionMode}: members are preempted one by one ({@code Pod}) or all together. */
public enum DisruptionMode {
    Pod, PodGroup
}
