package dev.muster.adapter.rest;

/** The limits of {@code POST /v1/cluster-choices} ({@code muster.choices.*}). */
public record ChoiceSettings(int maxClusters) {
}
