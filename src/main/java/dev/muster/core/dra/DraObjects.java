package dev.muster.core.dra;

import java.util.List;

/** The DRA objects of a request's cluster: device classes, slices, claims and claim templates. */
public record DraObjects(List<DeviceClass> deviceClasses, List<ResourceSlice> resourceSlices,
                         List<ResourceClaim> resourceClaims, List<ResourceClaimTemplate> resourceClaimTemplates) {
    public static final DraObjects NONE = new DraObjects(null, null, null, null);

    public DraObjects {
        deviceClasses = deviceClasses == null ? List.of() : List.copyOf(deviceClasses);
        resourceSlices = resourceSlices == null ? List.of() : List.copyOf(resourceSlices);
        resourceClaims = resourceClaims == null ? List.of() : List.copyOf(resourceClaims);
        resourceClaimTemplates = resourceClaimTemplates == null ? List.of() : List.copyOf(resourceClaimTemplates);
    }

    public boolean isEmpty() {
        return deviceClasses.isEmpty() && resourceSlices.isEmpty() && resourceClaims.isEmpty()
                && resourceClaimTemplates.isEmpty();
    }
}
