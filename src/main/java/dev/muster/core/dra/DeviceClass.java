package dev.muster.core.dra;

import java.util.List;
import java.util.Objects;

/**
 * A {@code resource.k8s.io/v1} DeviceClass (cluster-scoped).
 *
 * @param name                 {@code metadata.name}, what requests name in {@code deviceClassName}
 * @param selectors            {@code spec.selectors[].cel}, compiled; a device belongs to the class when every one
 *                             matches
 * @param config               {@code spec.config[].opaque}, copied into allocations as {@code source: FromClass}
 * @param extendedResourceName {@code spec.extendedResourceName}: pods requesting this extended resource get devices
 *                             of the class on nodes that do not advertise it themselves; null when unset
 * @param creationEpochSec     {@code metadata.creationTimestamp} in epoch seconds (0 when absent): of two classes
 *                             naming the same extended resource, the later one serves it
 */
public record DeviceClass(String name, List<DeviceSelector> selectors, List<OpaqueConfig> config,
                          String extendedResourceName, long creationEpochSec) {
    /** Every DeviceClass also serves the extended resource {@value}{@code <class name>}. */
    public static final String IMPLICIT_PREFIX = "deviceclass.resource.kubernetes.io/";

    public DeviceClass {
        Objects.requireNonNull(name, "name");
        selectors = selectors == null ? List.of() : List.copyOf(selectors);
        config = config == null ? List.of() : List.copyOf(config);
        if (extendedResourceName != null && extendedResourceName.isEmpty()) {
            extendedResourceName = null;
        }
    }

    public DeviceClass(String name, List<DeviceSelector> selectors, List<OpaqueConfig> config) {
        this(name, selectors, config, null, 0);
    }
}
