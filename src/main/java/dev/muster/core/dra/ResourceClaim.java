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
 * @param madeFor        the pod the scheduler made this claim for, for the pod's extended resources: the claim's
 *                       controlling owner when its annotation {@value #EXTENDED_RESOURCE_ANNOTATION} is
 *                       {@code "true"}; null otherwise
 */
public record ResourceClaim(String namespace, String name, String uid, ResourceClaimSpec spec,
                            AllocationResult allocation, List<ClaimConsumer> reservedFor, boolean deleting,
                            MadeFor madeFor) {
    /** The annotation kube-scheduler puts on the claim it makes for a pod's extended resources. */
    public static final String EXTENDED_RESOURCE_ANNOTATION = "resource.kubernetes.io/extended-resource-claim";

    public ResourceClaim {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(spec, "spec");
        reservedFor = reservedFor == null ? List.of() : List.copyOf(reservedFor);
    }

    /** A claim not made for a pod's extended resources. */
    public ResourceClaim(String namespace, String name, String uid, ResourceClaimSpec spec,
                         AllocationResult allocation, List<ClaimConsumer> reservedFor, boolean deleting) {
        this(namespace, name, uid, spec, allocation, reservedFor, deleting, null);
    }

    /** A pod by name and uid, as the claim's controlling owner reference names it. */
    public record MadeFor(String podName, String podUid) {
        public MadeFor {
            Objects.requireNonNull(podName, "podName");
            Objects.requireNonNull(podUid, "podUid");
        }
    }

    /** {@code namespace/name}. */
    public String key() {
        return namespace + "/" + name;
    }
}
