package dev.muster.core.decision;

import dev.muster.core.dra.AllocationResult;
import dev.muster.core.dra.ClaimConsumer;
import dev.muster.core.model.PodRef;

import java.util.List;

/**
 * A ResourceClaim decision: the claim's allocation (what its {@code status.allocation} would hold) and the full
 * {@code status.reservedFor} list after this decision.
 *
 * @param claim         the claim's namespace and name (for a claim not created yet, the name it should get)
 * @param generatedFrom the ResourceClaimTemplate the claim comes from, or null for a claim named directly
 */
public record ClaimDecision(PodRef claim, String generatedFrom, AllocationResult allocation,
                            List<ClaimConsumer> reservedFor) {
    public ClaimDecision {
        reservedFor = reservedFor == null ? List.of() : List.copyOf(reservedFor);
    }
}
