package dev.muster.core.model;

import java.util.Objects;

/**
 * One container's request for an extended resource (a name with a domain, such as {@code example.com/gpu}), kept so
 * that requests a DeviceClass backs can be turned into device requests the way kube-scheduler does
 * (DRAExtendedResource).
 *
 * @param container  the container's index in init containers followed by regular containers
 * @param name       the container's name
 * @param resource   the extended resource name
 * @param keyIndex   the resource's position among the container's request names, sorted
 * @param count      the requested quantity (whole units)
 * @param shortLived an init container that is not a sidecar: it runs before the others and can reuse their devices
 */
public record ExtendedRequest(int container, String name, String resource, int keyIndex, long count,
                              boolean shortLived) {
    public ExtendedRequest {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(resource, "resource");
    }
}
