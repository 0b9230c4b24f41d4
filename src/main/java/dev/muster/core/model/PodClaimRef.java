package dev.muster.core.model;

/**
 * A {@code pod.spec.resourceClaims[]} or {@code podGroup.spec.resourceClaims[]} entry: exactly one of
 * {@code resourceClaimName} and {@code resourceClaimTemplateName} is set.
 */
public record PodClaimRef(String name, String resourceClaimName, String resourceClaimTemplateName) {
}
