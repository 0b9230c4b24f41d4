package dev.muster.adapter.choice;

/** The limits of {@code POST /v1/cluster-choices} and gRPC {@code ChooseCluster} ({@code muster.choices.*}). */
public record ChoiceSettings(int maxClusters) {
}
