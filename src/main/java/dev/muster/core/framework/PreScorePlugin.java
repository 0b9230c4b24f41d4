package dev.muster.core.framework;

/**
 * Runs once per pod attempt before Score, sequentially, with the nodes that passed Filter. {@link Code#Skip}
 * means this plugin's Score is not needed for the pod. {@code feasibleNodes} are snapshot node indices (read them
 * with {@link ClusterView#anyNode(int)}), ascending.
 */
public interface PreScorePlugin extends Plugin {
    Status preScore(CycleState state, PodInfo pod, ClusterView cluster, int[] feasibleNodes);
}
