package dev.muster.core.dra;

import java.util.List;
import java.util.Objects;

/**
 * A {@code resource.k8s.io/v1} DeviceClass (cluster-scoped).
 *
 * @param name      {@code metadata.name}, what requests name in {@code deviceClassName}
 * @param selectors {@code spec.selectors[].cel}, compiled; a device belongs to the class when every one matches
 * @param config    {@code spec.config[].opaque}, copied into allocations as {@code source: FromClass}
 */
public record DeviceClass(String name, List<DeviceSelector> selectors, List<OpaqueConfig> config) {
    public DeviceClass {
        Objects.requireNonNull(name, "name");
        selectors = selectors == null ? List.of() : List.copyOf(selectors);
        config = config == null ? List.of() : List.copyOf(config);
    }
}
