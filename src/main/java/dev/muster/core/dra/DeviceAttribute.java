package dev.muster.core.dra;

/**
 * A {@code resource.k8s.io/v1} device attribute value: exactly one of {@code int}, {@code bool}, {@code string} and
 * {@code version} (a semantic version string, compared as one).
 */
public sealed interface DeviceAttribute {
    record IntValue(long value) implements DeviceAttribute {
    }

    record BoolValue(boolean value) implements DeviceAttribute {
    }

    record StringValue(String value) implements DeviceAttribute {
    }

    record VersionValue(String value) implements DeviceAttribute {
    }
}
