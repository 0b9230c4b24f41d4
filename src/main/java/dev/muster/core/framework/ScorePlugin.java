package dev.muster.core.framework;

/**
 * Ranks a feasible node for a pod. {@link #score} runs concurrently over nodes and only reads; {@link #normalize}
 * runs once afterwards over all feasible nodes' raw scores and must leave every score in
 * [{@link #MIN_SCORE}, {@link #MAX_SCORE}]. The profile multiplies the result by the plugin's weight.
 */
public interface ScorePlugin extends Plugin {
    long MIN_SCORE = 0;
    long MAX_SCORE = 100;

    long score(CycleState state, PodInfo pod, NodeInfo node);

    /**
     * Rescales raw scores in place; the default leaves them as they are (already 0..100). A plugin that overrides
     * it must also answer true from {@link #normalizesAcrossNodes()}.
     */
    default void normalize(CycleState state, PodInfo pod, long[] scores) {
    }

    /**
     * Whether a node's normalized score depends on other nodes' raw scores (the plugin overrides
     * {@link #normalize}). The engine then re-normalizes over all feasible nodes when a raw score changes; otherwise
     * it updates only the node that changed.
     */
    default boolean normalizesAcrossNodes() {
        return false;
    }
}
