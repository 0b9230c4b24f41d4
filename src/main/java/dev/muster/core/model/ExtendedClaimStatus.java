package dev.muster.core.model;

import java.util.List;
import java.util.Objects;

/**
 * A pod's {@code status.extendedResourceClaimStatus}: the ResourceClaim kube-scheduler created for the pod's
 * extended-resource requests that a DeviceClass backs (DRAExtendedResource), and which container's request of which
 * resource each of the claim's device requests serves.
 *
 * @param claimName the claim's name, in the pod's namespace
 * @param mappings  {@code requestMappings}, in the pod's order
 */
public record ExtendedClaimStatus(String claimName, List<Mapping> mappings) {
    public ExtendedClaimStatus {
        Objects.requireNonNull(claimName, "claimName");
        mappings = mappings == null ? List.of() : List.copyOf(mappings);
    }

    /** One {@code requestMappings} entry: the container, its extended resource, the claim's device request. */
    public record Mapping(String containerName, String resourceName, String requestName) {
        public Mapping {
            Objects.requireNonNull(containerName, "containerName");
            Objects.requireNonNull(resourceName, "resourceName");
            Objects.requireNonNull(requestName, "requestName");
        }
    }
}
