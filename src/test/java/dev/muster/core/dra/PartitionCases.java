package dev.muster.core.dra;

import dev.muster.core.dra.ResourceClaimSpec.Request;

import java.util.List;

import static dev.muster.core.dra.DraFixtures.*;
import static dev.muster.core.dra.TableCase.r;
import static dev.muster.core.dra.TableCase.result;
import static dev.muster.core.dra.TableCase.tc;

/** The upstream table's partitionable-device cases (shared counters), names as upstream. */
final class PartitionCases {
    private PartitionCases() {
    }

    private static Request twoRequests0() {
        return request(REQ0, CLASS_A, 1);
    }

    private static ResourceSlice counters(String name, Object pool, ResourceSlice.CounterSet... sets) {
        return counterSlice(name, NODE1, pool, DRIVER_A, sets);
    }

    private static Request firstAvailable6Or4() {
        return firstAvailable(REQ1, sub(SUB0, CLASS_A, 1, memoryAtLeast("6Gi")), sub(SUB1, CLASS_A, 1, memoryAtLeast("4Gi")));
    }

    static TableCase singleDevice() {
        return tc("partitionable-devices-single-device").claims(claim(CLAIM0, twoRequests0()))
                .classes(deviceClass(CLASS_A, DRIVER_A))
                .slices(slice(SLICE1, NODE1, pool(POOL1, 2), DRIVER_A, dev(DEVICE1).consumes(COUNTER_SET1, "memory", "4Gi")),
                        counters(SLICE2, pool(POOL1, 2), counterSet(COUNTER_SET1, "memory", "8Gi")))
                .want(result(localSelector(NODE1), r(REQ0, DRIVER_A, POOL1, DEVICE1)));
    }

    private static ResourceSlice threeDevices(String d1, String d2, String d3) {
        return slice(SLICE1, NODE1, pool(POOL1, 2), DRIVER_A,
                dev(DEVICE1).fromCounters().consumes(COUNTER_SET1, "memory", d1),
                dev(DEVICE2).fromCounters().consumes(COUNTER_SET1, "memory", d2),
                dev(DEVICE3).fromCounters().consumes(COUNTER_SET1, "memory", d3));
    }

    static TableCase prioritizedList() {
        return tc("partitionable-devices-prioritized-list").claims(claim(CLAIM0, twoRequests0(), firstAvailable6Or4()))
                .classes(deviceClass(CLASS_A, DRIVER_A))
                .slices(threeDevices("4Gi", "6Gi", "4Gi"), counters(SLICE2, pool(POOL1, 2), counterSet(COUNTER_SET1, "memory", "8Gi")))
                .want(result(localSelector(NODE1), r(REQ0, DRIVER_A, POOL1, DEVICE1), r(REQ1 + "/" + SUB1, DRIVER_A, POOL1, DEVICE3)));
    }

    static TableCase multipleDevices() {
        return tc("partitionable-devices-multiple-devices").claims(claim(CLAIM0, twoRequests0(), request(REQ1, CLASS_A, 1)))
                .classes(deviceClass(CLASS_A, DRIVER_A))
                .slices(threeDevices("4Gi", "6Gi", "4Gi"), counters(SLICE2, pool(POOL1, 2), counterSet(COUNTER_SET1, "memory", "8Gi")))
                .want(result(localSelector(NODE1), r(REQ0, DRIVER_A, POOL1, DEVICE1), r(REQ1, DRIVER_A, POOL1, DEVICE3)));
    }

    static TableCase multipleCapacityPools() {
        return tc("partitionable-devices-multiple-capacity-pools").claims(claim(CLAIM0, twoRequests0(), firstAvailable6Or4()))
                .classes(deviceClass(CLASS_A, DRIVER_A))
                .slices(slice(SLICE1, NODE1, pool(POOL1, 2), DRIVER_A,
                                dev(DEVICE1).fromCounters().consumes(COUNTER_SET1, "memory", "4Gi").consumes(COUNTER_SET2, "cpus", "4"),
                                dev(DEVICE2).fromCounters().consumes(COUNTER_SET1, "memory", "6Gi").consumes(COUNTER_SET2, "cpus", "6"),
                                dev(DEVICE3).fromCounters().consumes(COUNTER_SET1, "memory", "4Gi").consumes(COUNTER_SET2, "cpus", "4")),
                        counters(SLICE2, pool(POOL1, 2), counterSet(COUNTER_SET1, "memory", "18Gi"), counterSet(COUNTER_SET2, "cpus", "8")))
                .want(result(localSelector(NODE1), r(REQ0, DRIVER_A, POOL1, DEVICE1), r(REQ1 + "/" + SUB1, DRIVER_A, POOL1, DEVICE3)));
    }

    static TableCase multipleCounters() {
        return tc("partitionable-devices-multiple-counters").claims(claim(CLAIM0, twoRequests0(), request(REQ1, CLASS_A, 1)))
                .classes(deviceClass(CLASS_A, DRIVER_A))
                .slices(slice(SLICE1, NODE1, pool(POOL1, 2), DRIVER_A,
                                dev(DEVICE1).fromCounters().consumes(COUNTER_SET1, "memory", "4Gi", "cpus", "6").consumes(COUNTER_SET2, "cpus", "4", "memory", "2Gi"),
                                dev(DEVICE2).fromCounters().consumes(COUNTER_SET1, "memory", "6Gi", "cpus", "4").consumes(COUNTER_SET2, "cpus", "6", "memory", "6Gi"),
                                dev(DEVICE3).fromCounters().consumes(COUNTER_SET1, "memory", "4Gi", "cpus", "4").consumes(COUNTER_SET2, "cpus", "4", "memory", "4Gi")),
                        counters(SLICE2, pool(POOL1, 2), counterSet(COUNTER_SET1, "cpus", "8", "memory", "18Gi"),
                                counterSet(COUNTER_SET2, "cpus", "12", "memory", "18Gi")))
                .want(result(localSelector(NODE1), r(REQ0, DRIVER_A, POOL1, DEVICE2), r(REQ1, DRIVER_A, POOL1, DEVICE3)));
    }

    static TableCase multiplePools() {
        return tc("partitionable-devices-multiple-pools").claims(claim(CLAIM0, twoRequests0(), request(REQ1, CLASS_A, 1)))
                .classes(deviceClass(CLASS_A, DRIVER_A))
                .slices(slice(SLICE1, NODE1, pool(POOL1, 2), DRIVER_A,
                                dev(DEVICE1).fromCounters().consumes(COUNTER_SET1, "cpus", "6", "memory", "4Gi"),
                                dev(DEVICE2).fromCounters().consumes(COUNTER_SET1, "cpus", "4", "memory", "6Gi"),
                                dev(DEVICE3).fromCounters().consumes(COUNTER_SET1, "cpus", "4", "memory", "4Gi")),
                        counters(SLICE2, pool(POOL1, 2), counterSet(COUNTER_SET1, "cpus", "8", "memory", "18Gi")),
                        slice(SLICE3, NODE1, pool(POOL2, 2), DRIVER_A,
                                dev(DEVICE1).fromCounters().consumes(COUNTER_SET1, "cpus", "6", "memory", "4Gi"),
                                dev(DEVICE2).fromCounters().consumes(COUNTER_SET1, "cpus", "1", "memory", "7Gi"),
                                dev(DEVICE3).fromCounters().consumes(COUNTER_SET1, "cpus", "1", "memory", "7Gi")),
                        counters(SLICE4, pool(POOL2, 2), counterSet(COUNTER_SET1, "cpus", "8", "memory", "18Gi")))
                .allocated(allocated("driver-a/pool-1/device-2", "driver-a/pool-1/device-3", "driver-a/pool-2/device-1"))
                .want(result(localSelector(NODE1), r(REQ0, DRIVER_A, POOL2, DEVICE2), r(REQ1, DRIVER_A, POOL2, DEVICE3)));
    }

    static TableCase unusedCounters() {
        return tc("partitionable-devices-unused-counters-in-counter-set").claims(claim(CLAIM0, request(REQ0, CLASS_A, 2)))
                .classes(deviceClass(CLASS_A, DRIVER_A))
                .slices(slice(SLICE1, NODE1, pool(POOL1, 2), DRIVER_A,
                                dev(DEVICE1).consumes(COUNTER_SET1, "memory", "5Gi"),
                                dev(DEVICE2).consumes(COUNTER_SET1, "memory", "4Gi"),
                                dev(DEVICE3).consumes(COUNTER_SET1, "memory", "4Gi")),
                        counters(SLICE2, pool(POOL1, 2), counterSet(COUNTER_SET1, "memory", "8Gi", "unused", "1Gi")))
                .want(result(localSelector(NODE1), r(REQ0, DRIVER_A, POOL1, DEVICE2), r(REQ0, DRIVER_A, POOL1, DEVICE3)));
    }

    private static TableCase overcommitted(String name, String big) {
        return tc(name).claims(claim(CLAIM0, twoRequests0())).classes(deviceClass(CLASS_A, DRIVER_A))
                .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A,
                                dev(DEVICE1).fromCounters().consumes(COUNTER_SET1, "memory", "4Gi"),
                                dev(DEVICE2).fromCounters().consumes(COUNTER_SET1, "memory", big)),
                        counters(SLICE2, POOL1, counterSet(COUNTER_SET1, "memory", "18Gi")))
                .allocated(allocated("driver-a/pool-1/device-2"))
                .unfit();
    }

    /** Upstream gives both slices pool-1 with one slice each: two slices at count 1, so the pool is incomplete too. */
    static TableCase noCapacityAvailable() {
        return overcommitted("partitionable-devices-no-capacity-available", "16Gi");
    }

    static TableCase overallocated() {
        return overcommitted("partitionable-devices-overallocated-capacity-pool", "20Gi");
    }

    static TableCase perDeviceNodeName() {
        return tc("partitionable-devices-per-device-node-selection-nodename")
                .claims(claim(CLAIM0, firstAvailable(REQ0, sub(SUB0, CLASS_A, 1, memoryAtLeast("6Gi")), sub(SUB1, CLASS_A, 1, memoryAtLeast("4Gi")))))
                .classes(deviceClass(CLASS_A, DRIVER_A))
                .slices(slice(SLICE1, PER_DEVICE, pool(POOL1, 2), DRIVER_A,
                                dev(DEVICE1).fromCounters().consumes(COUNTER_SET1, "memory", "4Gi").onNode(NODE1),
                                dev(DEVICE2).fromCounters().consumes(COUNTER_SET1, "memory", "6Gi").onNode(NODE2)),
                        counterSlice(SLICE2, PER_DEVICE, pool(POOL1, 2), DRIVER_A, counterSet(COUNTER_SET1, "memory", "18Gi")))
                .want(result(localSelector(NODE1), r(REQ0 + "/" + SUB1, DRIVER_A, POOL1, DEVICE1)));
    }

    static TableCase perDeviceNodeSelector() {
        return tc("partitionable-devices-per-device-node-selection-node-selector").claims(claim(CLAIM0, twoRequests0()))
                .classes(deviceClass(CLASS_A, DRIVER_A))
                .slices(slice(SLICE1, PER_DEVICE, pool(POOL1, 2), DRIVER_A,
                                dev(DEVICE1).fromCounters().consumes(COUNTER_SET1, "memory", "4Gi").onNode(labelSelector("region", REGION1))),
                        counterSlice(SLICE2, PER_DEVICE, pool(POOL1, 2), DRIVER_A, counterSet(COUNTER_SET1, "memory", "18Gi")))
                .want(result(labelSelector("region", REGION1), r(REQ0, DRIVER_A, POOL1, DEVICE1)));
    }

    static TableCase perDeviceNodeSelectorMultipleDevices() {
        return tc("partitionable-devices-per-device-node-selection-node-selector-multiple-devices")
                .claims(claim(CLAIM0, request(REQ0, CLASS_A, 3), request(REQ1, CLASS_B, 3)))
                .classes(deviceClass(CLASS_A, DRIVER_A), deviceClass(CLASS_B, DRIVER_B))
                .slices(slice(SLICE1, PER_DEVICE, pool(POOL1, 2), DRIVER_A,
                                dev(DEVICE1).fromCounters().consumes(COUNTER_SET1, "memory", "4Gi").onNode(labelSelector("region", REGION1)),
                                dev(DEVICE2).fromCounters().consumes(COUNTER_SET1, "memory", "4Gi").onNode(NODE1),
                                dev(DEVICE3).fromCounters().consumes(COUNTER_SET1, "memory", "4Gi").onNode(ALL)),
                        counterSlice(SLICE2, PER_DEVICE, pool(POOL1, 2), DRIVER_A, counterSet(COUNTER_SET1, "memory", "18Gi")),
                        slice(SLICE3, NODE1, pool(POOL2, 2), DRIVER_B,
                                dev(DEVICE1).fromCounters().consumes(COUNTER_SET2, "memory", "4Gi"),
                                dev(DEVICE2).fromCounters().consumes(COUNTER_SET2, "memory", "4Gi"),
                                dev(DEVICE3).fromCounters().consumes(COUNTER_SET2, "memory", "4Gi")),
                        counterSlice(SLICE4, NODE1, pool(POOL2, 2), DRIVER_B, counterSet(COUNTER_SET2, "memory", "12Gi")))
                .want(result(localSelector(NODE1),
                        r(REQ0, DRIVER_A, POOL1, DEVICE1), r(REQ0, DRIVER_A, POOL1, DEVICE2), r(REQ0, DRIVER_A, POOL1, DEVICE3),
                        r(REQ1, DRIVER_B, POOL2, DEVICE1), r(REQ1, DRIVER_B, POOL2, DEVICE2), r(REQ1, DRIVER_B, POOL2, DEVICE3)));
    }

    static TableCase withAttributeSelector() {
        DeviceAttribute yes = new DeviceAttribute.BoolValue(true);
        DeviceAttribute no = new DeviceAttribute.BoolValue(false);
        return tc("partitionable-devices-with-attribute-selector")
                .claims(claim(CLAIM0, request(REQ0, CLASS_A, 2), request(REQ1, CLASS_A, 1, attributeIs("special", yes))))
                .classes(deviceClass(CLASS_A, DRIVER_A))
                .slices(slice(SLICE1, NODE1, pool(POOL1, 2), DRIVER_A,
                                dev(DEVICE1).attr("special", yes).consumes(COUNTER_SET1, "cpu1", "1").consumes(COUNTER_SET2, "mem", "10Gi"),
                                dev(DEVICE2).attr("special", no).consumes(COUNTER_SET1, "cpu2", "1").consumes(COUNTER_SET2, "mem", "10Gi"),
                                dev(DEVICE3).attr("special", no).consumes(COUNTER_SET1, "cpu3", "1").consumes(COUNTER_SET2, "mem", "10Gi")),
                        counters(SLICE2, pool(POOL1, 2), counterSet(COUNTER_SET1, "cpu1", "1", "cpu2", "1", "cpu3", "1"),
                                counterSet(COUNTER_SET2, "mem", "30Gi")))
                .want(result(localSelector(NODE1), r(REQ0, DRIVER_A, POOL1, DEVICE2), r(REQ0, DRIVER_A, POOL1, DEVICE3),
                        r(REQ1, DRIVER_A, POOL1, DEVICE1)));
    }

    static List<TableCase> all() {
        return List.of(singleDevice(), prioritizedList(), multipleDevices(), multipleCapacityPools(), multipleCounters(),
                multiplePools(), unusedCounters(), noCapacityAvailable(), overallocated(), perDeviceNodeName(),
                perDeviceNodeSelector(), perDeviceNodeSelectorMultipleDevices(), withAttributeSelector());
    }
}
