package dev.muster.core.decision;

import dev.muster.core.model.PodRef;

import java.util.List;
import java.util.Map;

/**
 * A ResourceClaim decision (CONTRACT.md §4): which devices it gets and for whom it is reserved.
 *
 * @param generatedFrom the ResourceClaimTemplate the claim comes from, or null
 */
public record ClaimDecision(PodRef claim, String generatedFrom, List<Device> devices,
                            Map<String, List<String>> nodeSelector, List<Consumer> reservedFor) {
    public record Device(String request, String driver, String pool, String device) {
    }

    public record Consumer(String apiGroup, String resource, String name, String uid) {
    }
}
