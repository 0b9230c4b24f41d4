package dev.muster.core.framework;

/**
 * Holds what a member takes on its node beyond the node's resources (upstream's Reserve/Unreserve), for the rest
 * of the decision: devices of ResourceClaims, say. Runs sequentially, right after the member was assumed on the
 * node and before Permit. A rejection takes the member back: every plugin that had reserved for it is unreserved,
 * newest first.
 * <p>
 * {@link #unreserve} must give back exactly what {@link #reserve} took; it also runs when the cycle rolls back
 * (a gang that did not reach its minimum, a placement that lost to another), so it must not fail. The state a
 * plugin reserves into lives in the decision (a snapshot index), never in the plugin.
 *
 * @implNote {@code state} is the member's PreFilter state when the attempt that chose the node is the latest one,
 *           else a fresh state: a plugin recomputes what it needs when a key is missing. {@code cluster} is the
 *           whole cluster as the decision sees it now.
 */
public interface ReservePlugin extends Plugin {
    /**
     * Which way to hold the member when a plugin can satisfy it on one node in several ways (devices, say): 0, the
     * default, is the first way (upstream's choice); the bounded search asks for later ones when an earlier choice
     * keeps later members out. A plugin with fewer ways than asked rejects the member; one with a single way ignores
     * the key.
     */
    StateKey<Integer> ALTERNATIVE = StateKey.of("ReserveAlternative");

    Status reserve(CycleState state, PodInfo pod, NodeInfo node, ClusterView cluster);

    void unreserve(CycleState state, PodInfo pod, NodeInfo node, ClusterView cluster);
}
