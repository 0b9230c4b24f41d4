package dev.muster.core.model;

/** A weighted preferred node affinity term (weight 1..100). */
public record PreferredSchedulingTerm(int weight, NodeSelectorTerm preference) {
}
