package dev.muster.core.dra;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A ResourceClaim's {@code spec.devices} (immutable once created).
 *
 * @param requests    {@code requests[]}: names unique; each is {@link Request#exactly} or {@link Request#firstAvailable}
 * @param constraints {@code constraints[]}
 * @param config      {@code config[]}: copied into allocations as {@code source: FromClaim}
 */
public record ResourceClaimSpec(List<Request> requests, List<Constraint> constraints, List<ClaimConfig> config) {
    /** Results per claim at most ({@code AllocationResultsMaxSize}). */
    public static final int MAX_RESULTS = 32;

    public ResourceClaimSpec {
        requests = requests == null ? List.of() : List.copyOf(requests);
        constraints = constraints == null ? List.of() : List.copyOf(constraints);
        config = config == null ? List.of() : List.copyOf(config);
        Set<String> names = new HashSet<>();
        for (Request r : requests) {
            if (!names.add(r.name())) {
                throw new IllegalArgumentException("duplicate request name " + r.name());
            }
        }
    }

    /** {@code allocationMode}: {@code ExactCount} (default) or {@code All}. */
    public enum AllocationMode { ExactCount, All }

    /**
     * {@code requests[]}: exactly one of {@code exactly} and {@code firstAvailable} (non-empty, tried in order; the
     * result, constraints and config name a chosen one as {@code <request>/<subrequest>}).
     */
    public record Request(String name, ExactRequest exactly, List<SubRequest> firstAvailable) {
        public Request {
            Objects.requireNonNull(name, "name");
            firstAvailable = firstAvailable == null ? List.of() : List.copyOf(firstAvailable);
            if ((exactly == null) == firstAvailable.isEmpty()) {
                throw new IllegalArgumentException("request " + name + ": exactly one of exactly, firstAvailable");
            }
        }

        public static Request exactly(String name, ExactRequest exactly) {
            return new Request(name, exactly, null);
        }

        public static Request firstAvailable(String name, List<SubRequest> subRequests) {
            return new Request(name, null, subRequests);
        }
    }

    /**
     * {@code requests[].exactly}. Defaults as the API server applies them: mode null → ExactCount, count 0 → 1
     * in ExactCount mode (already-defaulted input is accepted unchanged).
     *
     * @param deviceClassName  {@code deviceClassName} (required)
     * @param selectors        {@code selectors[].cel}, compiled; ANDed with the class's
     * @param allocationMode   {@code allocationMode}
     * @param count            {@code count}: devices wanted in ExactCount mode (0 in All mode)
     * @param adminAccess      {@code adminAccess}: monitoring access; the device stays available to others
     * @param tolerations      {@code tolerations[]}: device taints this request tolerates
     * @param capacityRequests {@code capacity.requests}: qualified capacity name → quantity (consumable capacity)
     */
    public record ExactRequest(String deviceClassName, List<DeviceSelector> selectors, AllocationMode allocationMode,
                               long count, boolean adminAccess, List<Toleration> tolerations,
                               Map<String, String> capacityRequests) {
        public ExactRequest {
            Objects.requireNonNull(deviceClassName, "deviceClassName");
            selectors = selectors == null ? List.of() : List.copyOf(selectors);
            tolerations = tolerations == null ? List.of() : List.copyOf(tolerations);
            capacityRequests = copyQuantities(capacityRequests);
            allocationMode = allocationMode == null ? AllocationMode.ExactCount : allocationMode;
            count = checkCount(allocationMode, count);
        }

        /** ExactCount of {@code count} devices of a class, nothing else. */
        public static ExactRequest of(String deviceClassName, long count) {
            return new ExactRequest(deviceClassName, null, AllocationMode.ExactCount, count, false, null, null);
        }
    }

    /** {@code requests[].firstAvailable[]}: like {@link ExactRequest}, with a name and without admin access. */
    public record SubRequest(String name, String deviceClassName, List<DeviceSelector> selectors,
                             AllocationMode allocationMode, long count, List<Toleration> tolerations,
                             Map<String, String> capacityRequests) {
        public SubRequest {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(deviceClassName, "deviceClassName");
            selectors = selectors == null ? List.of() : List.copyOf(selectors);
            tolerations = tolerations == null ? List.of() : List.copyOf(tolerations);
            capacityRequests = copyQuantities(capacityRequests);
            allocationMode = allocationMode == null ? AllocationMode.ExactCount : allocationMode;
            count = checkCount(allocationMode, count);
        }

        public static SubRequest of(String name, String deviceClassName, long count) {
            return new SubRequest(name, deviceClassName, null, AllocationMode.ExactCount, count, null, null);
        }
    }

    /**
     * {@code constraints[]}: exactly one of {@code matchAttribute} (all devices of the named requests have the same
     * value) and {@code distinctAttribute} (pairwise different values), a fully qualified attribute name.
     *
     * @param requests the requests (or {@code req/sub}) it covers; empty = all of the claim's requests
     */
    public record Constraint(List<String> requests, String matchAttribute, String distinctAttribute) {
        public Constraint {
            requests = requests == null ? List.of() : List.copyOf(requests);
            if ((matchAttribute == null) == (distinctAttribute == null)) {
                throw new IllegalArgumentException("constraint: exactly one of matchAttribute, distinctAttribute");
            }
        }

        public static Constraint match(String attribute, String... requests) {
            return new Constraint(List.of(requests), attribute, null);
        }

        public static Constraint distinct(String attribute, String... requests) {
            return new Constraint(List.of(requests), null, attribute);
        }
    }

    /** {@code config[]}: opaque configuration for the listed requests (empty = all). */
    public record ClaimConfig(List<String> requests, OpaqueConfig opaque) {
        public ClaimConfig {
            requests = requests == null ? List.of() : List.copyOf(requests);
            Objects.requireNonNull(opaque, "opaque");
        }
    }

    /**
     * A device toleration ({@code tolerations[]}). Operator defaults to Equal; {@code effect} "" matches every
     * effect; key "" with Exists tolerates every taint.
     *
     * @param tolerationSeconds kept for the result only (null when unset)
     */
    public record Toleration(String key, Operator operator, String value, String effect, Long tolerationSeconds) {
        public enum Operator { Equal, Exists }

        public Toleration {
            key = key == null ? "" : key;
            operator = operator == null ? Operator.Equal : operator;
            value = value == null ? "" : value;
            effect = effect == null ? "" : effect;
        }

        /** Whether this toleration covers the taint (upstream's device ToleratesTaint). */
        public boolean tolerates(Device.Taint taint) {
            if (!effect.isEmpty() && !effect.equals(taint.effect())) {
                return false;
            }
            if (!key.isEmpty() && !key.equals(taint.key())) {
                return false;
            }
            return switch (operator) {
                case Exists -> true;
                case Equal -> value.equals(taint.value());
            };
        }
    }

    private static long checkCount(AllocationMode mode, long count) {
        if (count < 0) {
            throw new IllegalArgumentException("count must not be negative");
        }
        if (mode == AllocationMode.ExactCount) {
            return count == 0 ? 1 : count;
        }
        if (count != 0) {
            throw new IllegalArgumentException("count must be unset in All mode");
        }
        return 0;
    }

    private static Map<String, String> copyQuantities(Map<String, String> m) {
        if (m == null) {
            return Map.of();
        }
        m.values().forEach(v -> Device.requireQuantity(v, "capacity request"));
        return java.util.Collections.unmodifiableMap(new LinkedHashMap<>(m));
    }
}
