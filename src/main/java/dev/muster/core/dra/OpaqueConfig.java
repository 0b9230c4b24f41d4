package dev.muster.core.dra;

import java.util.Objects;

/**
 * An opaque device configuration ({@code opaque: {driver, parameters}}): handed to the driver unchanged, never read
 * by the allocator.
 *
 * @param driver     the driver the parameters are meant for
 * @param parameters the {@code parameters} object as raw JSON text, copied verbatim into allocation results
 */
public record OpaqueConfig(String driver, String parameters) {
    public OpaqueConfig {
        Objects.requireNonNull(driver, "driver");
        parameters = parameters == null ? "null" : parameters;
    }
}
