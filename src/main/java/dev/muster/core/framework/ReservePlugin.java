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
 *           else a fresh state: a plugin recomputes what it needs when a key is missing.
 */
public interface ReservePlugin extends Plugin {
    Status reserve(CycleState state, PodInfo pod, NodeInfo node);

    void unreserve(CycleState state, PodInfo pod, NodeInfo node);
}
