package dev.muster.core.dra;

import dev.muster.core.model.NodeSelectorTerm;
import dev.muster.core.model.Quantity;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One entry of a ResourceSlice's {@code spec.devices[]}. Quantities are kept as their Kubernetes text (validated
 * here, compared exactly through {@link Quantity#exact}).
 *
 * @param name                     {@code name}: DNS label, unique within its pool
 * @param attributes               {@code attributes}: qualified name ({@code "model"} = the driver's domain, or
 *                                 {@code "domain/id"}) → value
 * @param capacity                 {@code capacity}: qualified name → {@code {value, requestPolicy}}
 * @param consumesCounters         {@code consumesCounters[]}: counters this device takes from its pool's shared
 *                                 counter sets while allocated (partitionable devices)
 * @param taints                   {@code taints[]}: NoSchedule/NoExecute ones must be tolerated by the request
 * @param allowMultipleAllocations {@code allowMultipleAllocations}: several allocations may share the device
 *                                 while its consumable capacity lasts
 * @param bindsToNode              {@code bindsToNode}: an allocation of it is limited to the chosen node
 * @param bindingConditions        {@code bindingConditions[]}, copied into results (pools with them sort last)
 * @param bindingFailureConditions {@code bindingFailureConditions[]}, copied into results
 * @param nodeName                 {@code nodeName}, only when the slice sets {@code perDeviceNodeSelection}
 * @param nodeSelector             {@code nodeSelector.nodeSelectorTerms}, likewise; null when unset
 * @param allNodes                 {@code allNodes}, likewise
 */
public record Device(String name, Map<String, DeviceAttribute> attributes, Map<String, Capacity> capacity,
                     List<CounterConsumption> consumesCounters, List<Taint> taints, boolean allowMultipleAllocations,
                     boolean bindsToNode, List<String> bindingConditions, List<String> bindingFailureConditions,
                     String nodeName, List<NodeSelectorTerm> nodeSelector, boolean allNodes) {
    public Device {
        Objects.requireNonNull(name, "name");
        attributes = FrozenMap.copyOf(attributes);
        capacity = FrozenMap.copyOf(capacity);
        consumesCounters = consumesCounters == null ? List.of() : List.copyOf(consumesCounters);
        taints = taints == null ? List.of() : List.copyOf(taints);
        bindingConditions = bindingConditions == null ? List.of() : List.copyOf(bindingConditions);
        bindingFailureConditions = bindingFailureConditions == null ? List.of() : List.copyOf(bindingFailureConditions);
        nodeSelector = nodeSelector == null ? null : List.copyOf(nodeSelector);
        int selections = (nodeName != null ? 1 : 0) + (nodeSelector != null ? 1 : 0) + (allNodes ? 1 : 0);
        if (selections > 1) {
            throw new IllegalArgumentException("device " + name + ": at most one of nodeName, nodeSelector, allNodes");
        }
    }

    /** A device with attributes and capacity only (the common case). */
    public static Device of(String name, Map<String, DeviceAttribute> attributes, Map<String, Capacity> capacity) {
        return new Device(name, attributes, capacity, null, null, false, false, null, null, null, null, false);
    }

    /** Whether one of nodeName, nodeSelector, allNodes is set (per-device node selection). */
    public boolean hasNodeSelection() {
        return nodeName != null || nodeSelector != null || allNodes;
    }

    /**
     * A device capacity ({@code capacity.<name>}).
     *
     * @param value         {@code value}: the total, a quantity
     * @param requestPolicy {@code requestPolicy}: how a consumable-capacity request is rounded; null = taken as is
     */
    public record Capacity(String value, RequestPolicy requestPolicy) {
        public Capacity {
            requireQuantity(value, "capacity value");
        }

        public static Capacity of(String value) {
            return new Capacity(value, null);
        }
    }

    /**
     * {@code requestPolicy}: {@code default} (taken when the request names no amount; else the whole value), and
     * at most one of {@code validValues} (ascending; a request rounds up to the first value ≥ it) and
     * {@code validRange} (a request below {@code min} becomes {@code min}, then rounds up to {@code min + k·step}).
     */
    public record RequestPolicy(String defaultValue, List<String> validValues, ValidRange validRange) {
        public RequestPolicy {
            if (defaultValue != null) {
                requireQuantity(defaultValue, "requestPolicy.default");
            }
            validValues = validValues == null ? List.of() : List.copyOf(validValues);
            validValues.forEach(v -> requireQuantity(v, "requestPolicy.validValues"));
            if (!validValues.isEmpty() && validRange != null) {
                throw new IllegalArgumentException("requestPolicy: at most one of validValues, validRange");
            }
        }
    }

    /** {@code validRange {min, max, step}}; min is required, max and step optional (null). */
    public record ValidRange(String min, String max, String step) {
        public ValidRange {
            requireQuantity(min, "validRange.min");
            if (max != null) {
                requireQuantity(max, "validRange.max");
            }
            if (step != null) {
                requireQuantity(step, "validRange.step");
                if (Quantity.exact(step).signum() <= 0) {
                    throw new IllegalArgumentException("validRange.step must be positive");
                }
            }
        }
    }

    /**
     * {@code consumesCounters[]}: amounts taken from one counter set of the pool's shared counters.
     *
     * @param counterSet the {@code sharedCounters[].name}
     * @param counters   counter name → quantity
     */
    public record CounterConsumption(String counterSet, Map<String, String> counters) {
        public CounterConsumption {
            Objects.requireNonNull(counterSet, "counterSet");
            counters = FrozenMap.copyOf(counters); // itself when the mapper froze it; insertion order kept
            counters.values().forEach(v -> requireQuantity(v, "counter value"));
        }
    }

    /**
     * {@code taints[]}. {@code effect} is kept as text: {@code None}, {@code NoSchedule}, {@code NoExecute}; only the
     * latter two prevent allocation, anything else (including future effects) is ignored.
     */
    public record Taint(String key, String value, String effect) {
        public static final String NO_SCHEDULE = "NoSchedule";
        public static final String NO_EXECUTE = "NoExecute";

        public Taint {
            Objects.requireNonNull(key, "key");
            value = value == null ? "" : value;
            effect = effect == null ? "" : effect;
        }

        /** Whether the effect keeps an untolerating request away (NoSchedule, NoExecute). */
        public boolean preventsAllocation() {
            return NO_SCHEDULE.equals(effect) || NO_EXECUTE.equals(effect);
        }
    }

    static void requireQuantity(String q, String what) {
        if (q == null || !Quantity.isValid(q)) {
            throw new IllegalArgumentException(what + ": not a quantity: " + q);
        }
    }
}
