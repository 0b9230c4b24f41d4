package dev.muster.core.dra;

import dev.muster.core.model.NodeSelectorTerm;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A {@code resource.k8s.io/v1} ResourceSlice (cluster-scoped): part of one driver's pool of devices.
 *
 * @param name                   {@code metadata.name}; slices of a pool are tried in name order
 * @param driver                 {@code spec.driver}
 * @param pool                   {@code spec.pool}
 * @param nodeName               {@code spec.nodeName}: the devices are local to that node
 * @param nodeSelector           {@code spec.nodeSelector.nodeSelectorTerms} (the API allows exactly one term);
 *                               null when unset
 * @param allNodes               {@code spec.allNodes}: reachable from every node
 * @param perDeviceNodeSelection {@code spec.perDeviceNodeSelection}: each device says where it is reachable
 * @param devices                {@code spec.devices[]}
 * @param sharedCounters         {@code spec.sharedCounters[]}: counter sets the pool's partitionable devices consume
 */
public record ResourceSlice(String name, String driver, Pool pool, String nodeName, List<NodeSelectorTerm> nodeSelector,
                            boolean allNodes, boolean perDeviceNodeSelection, List<Device> devices,
                            List<CounterSet> sharedCounters) {
    public ResourceSlice {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(driver, "driver");
        Objects.requireNonNull(pool, "pool");
        nodeSelector = nodeSelector == null ? null : List.copyOf(nodeSelector);
        devices = devices == null ? List.of() : List.copyOf(devices);
        sharedCounters = sharedCounters == null ? List.of() : List.copyOf(sharedCounters);
        int selections = (nodeName != null ? 1 : 0) + (nodeSelector != null ? 1 : 0) + (allNodes ? 1 : 0)
                + (perDeviceNodeSelection ? 1 : 0);
        if (selections > 1) {
            throw new IllegalArgumentException("slice " + name
                    + ": exactly one of nodeName, nodeSelector, allNodes, perDeviceNodeSelection");
        }
        if (selections == 0 && sharedCounters.isEmpty()) {
            throw new IllegalArgumentException("slice " + name
                    + ": one of nodeName, nodeSelector, allNodes, perDeviceNodeSelection is required");
        }
        if (!perDeviceNodeSelection) {
            for (Device d : devices) {
                if (d.hasNodeSelection()) {
                    throw new IllegalArgumentException("slice " + name + ", device " + d.name()
                            + ": per-device node selection needs perDeviceNodeSelection on the slice");
                }
            }
        }
    }

    /** A slice local to one node. */
    public static ResourceSlice onNode(String name, String driver, Pool pool, String nodeName, List<Device> devices) {
        return new ResourceSlice(name, driver, pool, nodeName, null, false, false, devices, null);
    }

    /**
     * {@code spec.pool}.
     *
     * @param name               pool name, unique per driver
     * @param generation         only slices of a pool's highest generation count
     * @param resourceSliceCount how many slices the pool has at that generation; fewer seen = incomplete pool
     */
    public record Pool(String name, long generation, long resourceSliceCount) {
        public Pool {
            Objects.requireNonNull(name, "name");
            if (resourceSliceCount < 1) {
                throw new IllegalArgumentException("pool " + name + ": resourceSliceCount must be positive");
            }
        }
    }

    /**
     * {@code sharedCounters[]}: a named set of counters (name → quantity) shared by the pool's devices.
     */
    public record CounterSet(String name, Map<String, String> counters) {
        public CounterSet {
            Objects.requireNonNull(name, "name");
            counters = FrozenMap.copyOf(counters); // itself when the mapper froze it; insertion order kept
            counters.values().forEach(v -> Device.requireQuantity(v, "counter value"));
        }
    }
}
