package dev.muster.core.model;

/** A preferred pod (anti-)affinity term with its weight (1..100). */
public record WeightedPodAffinityTerm(int weight, PodAffinityTerm term) {
}
