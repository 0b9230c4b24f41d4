package dev.muster.core.dra;

import dev.muster.core.model.NodeSelectorTerm;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A claim's {@code status.allocation}.
 *
 * @param devices      {@code devices.results[]}, in the order the allocator picked them
 * @param config       {@code devices.config[]}: class configs ({@code FromClass}) first, then claim configs
 * @param nodeSelector {@code nodeSelector.nodeSelectorTerms}; null = the allocation is usable on every node
 */
public record AllocationResult(List<DeviceResult> devices, List<AllocationConfig> config,
                               List<NodeSelectorTerm> nodeSelector) {
    public AllocationResult {
        devices = devices == null ? List.of() : List.copyOf(devices);
        config = config == null ? List.of() : List.copyOf(config);
        nodeSelector = nodeSelector == null ? null : List.copyOf(nodeSelector);
    }

    /**
     * {@code devices.results[]}.
     *
     * @param request                  {@code request}: {@code req}, or {@code req/sub} for a firstAvailable choice
     * @param driver                   {@code driver}
     * @param pool                     {@code pool}
     * @param device                   {@code device}
     * @param adminAccess              {@code adminAccess}: the device is not taken away from others
     * @param tolerations              {@code tolerations}: the request's tolerations
     * @param shareID                  {@code shareID}: set for a share of an allowMultipleAllocations device
     * @param consumedCapacity         {@code consumedCapacity}: capacity name → quantity, for shares
     * @param bindingConditions        {@code bindingConditions}, copied from the device
     * @param bindingFailureConditions {@code bindingFailureConditions}, copied from the device
     */
    public record DeviceResult(String request, String driver, String pool, String device, boolean adminAccess,
                               List<ResourceClaimSpec.Toleration> tolerations, String shareID,
                               Map<String, String> consumedCapacity, List<String> bindingConditions,
                               List<String> bindingFailureConditions) {
        public DeviceResult {
            Objects.requireNonNull(request, "request");
            Objects.requireNonNull(driver, "driver");
            Objects.requireNonNull(pool, "pool");
            Objects.requireNonNull(device, "device");
            tolerations = tolerations == null ? List.of() : List.copyOf(tolerations);
            consumedCapacity = consumedCapacity == null || consumedCapacity.isEmpty() ? Map.of()
                    : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(consumedCapacity));
            bindingConditions = bindingConditions == null ? List.of() : List.copyOf(bindingConditions);
            bindingFailureConditions = bindingFailureConditions == null ? List.of() : List.copyOf(bindingFailureConditions);
        }

        /** A plain result (no admin access, no share). */
        public static DeviceResult of(String request, String driver, String pool, String device) {
            return new DeviceResult(request, driver, pool, device, false, null, null, null, null, null);
        }

        public AllocatedDevice id() {
            return new AllocatedDevice(driver, pool, device);
        }
    }

    /** {@code devices.config[].source}. */
    public enum ConfigSource { FromClass, FromClaim }

    /**
     * {@code devices.config[]}.
     *
     * @param requests the requests it applies to; empty = all
     */
    public record AllocationConfig(ConfigSource source, List<String> requests, OpaqueConfig opaque) {
        public AllocationConfig {
            Objects.requireNonNull(source, "source");
            requests = requests == null ? List.of() : List.copyOf(requests);
            Objects.requireNonNull(opaque, "opaque");
        }
    }
}
