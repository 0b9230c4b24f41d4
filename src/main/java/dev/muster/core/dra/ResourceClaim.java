package dev.muster.core.dra;

import java.util.List;
import java.util.Objects;

/**
 * A {@code resource.k8s.io/v1} ResourceClaim as a decision reads it.
 *
 * @param spec           {@code spec.devices}
 * @param allocation     {@code status.allocation}, or null while unallocated
 * @param reservedFor    {@code status.reservedFor}, in the claim's order
 * @param deleting       {@code metadata.deletionTimestamp} is set
 */
public record ResourceClaim(String namespace, String name, String uid, ResourceClaimSpec spec,
                            AllocationResult allocation, List<ClaimConsumer> reservedFor, boolean deleting) {
    public ResourceClaim {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(spec, "spec");
        reservedFor = reservedFor == null ? List.of() : List.copyOf(reservedFor);
    }

    /** {@code namespace/name}. */
    public String key() {
        return namespace + "/" + name;
    }
}
