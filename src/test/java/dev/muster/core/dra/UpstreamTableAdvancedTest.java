package dev.muster.core.dra;

import dev.muster.core.dra.ResourceClaimSpec.AllocationMode;
import dev.muster.core.dra.ResourceClaimSpec.Constraint;
import dev.muster.core.dra.ResourceClaimSpec.Toleration;
import dev.muster.core.model.NodeSelectorTerm;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static dev.muster.core.dra.DraFixtures.*;
import static dev.muster.core.dra.TableCase.r;
import static dev.muster.core.dra.TableCase.result;
import static dev.muster.core.dra.TableCase.resultWithConfigs;
import static dev.muster.core.dra.TableCase.tc;
import static dev.muster.core.dra.UpstreamTableBasicTest.b;
import static dev.muster.core.dra.UpstreamTableBasicTest.manyResults;
import static dev.muster.core.dra.UpstreamTableBasicTest.s;
import static dev.muster.core.dra.UpstreamTableBasicTest.v;

/**
 * The upstream shared allocator test table, second part: firstAvailable (prioritized list), partitionable devices,
 * device taints and consumable capacity. Case names are upstream's.
 */
class UpstreamTableAdvancedTest {
    static final String R0S0 = REQ0 + "/" + SUB0;
    static final String R0S1 = REQ0 + "/" + SUB1;
    static final String R1S1 = REQ1 + "/" + SUB1;

    static final Device.Taint TAINT_NONE = new Device.Taint("taint-key", "taint-value", "None");
    static final Device.Taint TAINT_NO_SCHEDULE = new Device.Taint("taint-key", "taint-value", "NoSchedule");
    static final Device.Taint TAINT_NO_EXECUTE = new Device.Taint("taint-key", "taint-value-2", "NoExecute");
    static final Toleration TOL_NO_SCHEDULE = new Toleration("taint-key", Toleration.Operator.Exists, null, "NoSchedule", null);
    static final Toleration TOL_NO_EXECUTE = new Toleration("taint-key", Toleration.Operator.Equal, "taint-value-2", "NoExecute", null);

    static String tol(Toleration... ts) {
        StringBuilder sb = new StringBuilder("tol=");
        for (int i = 0; i < ts.length; i++) {
            sb.append(i == 0 ? "" : ",").append(TableCase.tol(ts[i]));
        }
        return sb.toString();
    }

    static String share(String amount) {
        return "share {" + CAPACITY0 + "=" + amount + "}";
    }

    static Map<String, String> cap(String q) {
        return Map.of(CAPACITY0, q);
    }

    static Allocator.PendingClaim tolerating(String name, String req, Toleration... ts) {
        return claim(name, exact(req, CLASS_A, AllocationMode.ExactCount, 1, false, List.of(ts), null));
    }

    static Allocator.PendingClaim capClaim(String name, ResourceClaimSpec.Request... requests) {
        return claim(name, requests);
    }

    static ResourceClaimSpec.Request capRequest(String name, String cls, String amount) {
        return exact(name, cls, AllocationMode.ExactCount, 1, false, null, cap(amount));
    }

    static ResourceClaimSpec.Request capAll(String name, String cls, String amount) {
        return exact(name, cls, AllocationMode.All, 0, false, null, cap(amount));
    }

    static Stream<TableCase> cases() {
        List<NodeSelectorTerm> local1 = localSelector(NODE1);
        return Stream.of(
                tc("all-devices-slice-without-devices-prioritized-list")
                        .claims(claim(CLAIM0, firstAvailable(REQ0, allSub(SUB0, CLASS_A), sub(SUB1, CLASS_B, 1))))
                        .classes(deviceClass(CLASS_A, DRIVER_A), deviceClass(CLASS_B, DRIVER_B))
                        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A), sliceWithOneDevice(SLICE2, NODE1, POOL2, DRIVER_B))
                        .want(result(local1, r(R0S1, DRIVER_B, POOL2, DEVICE1))),
                tc("all-devices-no-slices-prioritized-list")
                        .claims(claim(CLAIM0, firstAvailable(REQ0, allSub(SUB0, CLASS_A), sub(SUB1, CLASS_B, 1))))
                        .classes(deviceClass(CLASS_A, DRIVER_A), deviceClass(CLASS_B, DRIVER_B))
                        .slices(sliceWithOneDevice(SLICE2, NODE1, POOL2, DRIVER_B))
                        .want(result(local1, r(R0S1, DRIVER_B, POOL2, DEVICE1))),
                tc("all-devices-some-allocated-prioritized-list")
                        .claims(claim(CLAIM0, firstAvailable(REQ0, allSub(SUB0, CLASS_A), sub(SUB1, CLASS_B, 1))))
                        .allocated(allocated("driver-a/pool-1/device-1"))
                        .classes(deviceClass(CLASS_A, DRIVER_A), deviceClass(CLASS_B, DRIVER_B))
                        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, dev(DEVICE1), dev(DEVICE2)), sliceWithOneDevice(SLICE2, NODE1, POOL2, DRIVER_B))
                        .want(result(local1, r(R0S1, DRIVER_B, POOL2, DEVICE1))),
                tc("prioritized-list-first-unavailable")
                        .claims(claim(CLAIM0, firstAvailable(REQ0, sub(SUB0, CLASS_B, 1), sub(SUB1, CLASS_A, 1))))
                        .classes(deviceClass(CLASS_A, DRIVER_A), deviceClass(CLASS_B, DRIVER_B))
                        .slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A))
                        .want(result(local1, r(R0S1, DRIVER_A, POOL1, DEVICE1))),
                tc("prioritized-list-non-available")
                        .claims(claim(CLAIM0, firstAvailable(REQ0, sub(SUB0, CLASS_B, 2), sub(SUB1, CLASS_A, 2))))
                        .classes(deviceClass(CLASS_A, DRIVER_A), deviceClass(CLASS_B, DRIVER_B))
                        .slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A), sliceWithOneDevice(SLICE2, NODE1, POOL2, DRIVER_B))
                        .unfit(),
                tc("prioritized-list-device-config")
                        .claims(withConfig(claim(CLAIM0, firstAvailable(REQ0, sub(SUB0, CLASS_A, 1), sub(SUB1, CLASS_B, 2))),
                                new ResourceClaimSpec.ClaimConfig(List.of(R0S0), config(DRIVER_A, "foo")),
                                new ResourceClaimSpec.ClaimConfig(List.of(R0S1), config(DRIVER_B, "bar"))))
                        .classes(deviceClass(CLASS_A, DRIVER_A), deviceClass(CLASS_B, DRIVER_B))
                        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_B, dev(DEVICE1), dev(DEVICE2)))
                        .want(resultWithConfigs(local1, List.of(new AllocationResult.AllocationConfig(
                                        AllocationResult.ConfigSource.FromClaim, List.of(R0S1), config(DRIVER_B, "bar"))),
                                r(R0S1, DRIVER_B, POOL1, DEVICE1), r(R0S1, DRIVER_B, POOL1, DEVICE2))),
                tc("prioritized-list-class-config")
                        .claims(claim(CLAIM0, firstAvailable(REQ0, sub(SUB0, CLASS_A, 2), sub(SUB1, CLASS_B, 2))))
                        .classes(classWithConfig(CLASS_A, DRIVER_A, "foo"), classWithConfig(CLASS_B, DRIVER_B, "bar"))
                        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_B, dev(DEVICE1), dev(DEVICE2)), slice(SLICE2, NODE1, POOL2, DRIVER_A, dev(DEVICE3)))
                        .want(resultWithConfigs(local1, List.of(new AllocationResult.AllocationConfig(
                                        AllocationResult.ConfigSource.FromClass, List.of(R0S1), config(DRIVER_B, "bar"))),
                                r(R0S1, DRIVER_B, POOL1, DEVICE1), r(R0S1, DRIVER_B, POOL1, DEVICE2))),
                tc("prioritized-list-subrequests-with-expressions")
                        .claims(claim(CLAIM0, request(REQ0, CLASS_A, 1, memoryAtLeast("1Gi")),
                                firstAvailable(REQ1, sub(SUB0, CLASS_A, 1, memoryAtLeast("4Gi")), sub(SUB1, CLASS_A, 2, memoryAtLeast("2Gi")))))
                        .classes(deviceClass(CLASS_A, DRIVER_A))
                        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, memDev(DEVICE1, "2Gi"), memDev(DEVICE2, "2Gi"), memDev(DEVICE3, "1Gi")))
                        .want(result(local1, r(REQ0, DRIVER_A, POOL1, DEVICE3), r(R1S1, DRIVER_A, POOL1, DEVICE1), r(R1S1, DRIVER_A, POOL1, DEVICE2))),
                tc("prioritized-list-subrequests-with-constraints-ref-parent-request")
                        .claims(claim(CLAIM0, List.of(Constraint.match(DRIVER_A + "/driverVersion", REQ0, REQ1)),
                                request(REQ0, CLASS_A, 1, memoryAtLeast("8Gi")),
                                firstAvailable(REQ1, sub(SUB0, CLASS_A, 1, memoryAtLeast("2Gi")), sub(SUB1, CLASS_A, 1, memoryAtLeast("1Gi")))))
                        .classes(deviceClass(CLASS_A, DRIVER_A))
                        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, memDev(DEVICE1, "8Gi").attr("driverVersion", v("1.0.0"))),
                                slice(SLICE2, NODE1, POOL2, DRIVER_A, memDev(DEVICE2, "2Gi").attr("driverVersion", v("2.0.0")),
                                        memDev(DEVICE3, "1Gi").attr("driverVersion", v("1.0.0"))))
                        .want(result(local1, r(REQ0, DRIVER_A, POOL1, DEVICE1), r(R1S1, DRIVER_A, POOL2, DEVICE3))),
                tc("prioritized-list-subrequests-with-constraints-ref-sub-request")
                        .claims(claim(CLAIM0, List.of(Constraint.match(DRIVER_A + "/driverVersion", REQ0, REQ1 + "/" + SUB0)),
                                request(REQ0, CLASS_A, 1, memoryAtLeast("8Gi")),
                                firstAvailable(REQ1, sub(SUB0, CLASS_A, 1, memoryAtLeast("2Gi")), sub(SUB1, CLASS_A, 1, memoryAtLeast("1Gi")))))
                        .classes(deviceClass(CLASS_A, DRIVER_A))
                        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, memDev(DEVICE1, "8Gi").attr("driverVersion", v("1.0.0"))),
                                slice(SLICE2, NODE1, POOL2, DRIVER_A, memDev(DEVICE2, "2Gi").attr("driverVersion", v("2.0.0"))))
                        .want(result(local1, r(REQ0, DRIVER_A, POOL1, DEVICE1), r(R1S1, DRIVER_A, POOL2, DEVICE2))),
                tc("prioritized-list-subrequests-with-allocation-mode-all")
                        .claims(claim(CLAIM0, firstAvailable(REQ0, allSub(SUB0, CLASS_A), sub(SUB1, CLASS_A, 1))))
                        .classes(deviceClass(CLASS_A, DRIVER_A)).allocated(allocated("driver-a/pool-1/device-1"))
                        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, dev(DEVICE1), dev(DEVICE2)))
                        .want(result(local1, r(R0S1, DRIVER_A, POOL1, DEVICE2))),
                tc("prioritized-list-allocation-mode-all-multiple-requests")
                        .claims(claim(CLAIM0, request(REQ0, CLASS_A, 1), firstAvailable(REQ1, allSub(SUB0, CLASS_A), sub(SUB1, CLASS_A, 1))))
                        .classes(deviceClass(CLASS_A, DRIVER_A))
                        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, dev(DEVICE1), dev(DEVICE2)))
                        .want(result(local1, r(REQ0, DRIVER_A, POOL1, DEVICE1), r(R1S1, DRIVER_A, POOL1, DEVICE2))),
                tc("prioritized-list-multi-request")
                        .claims(claim(CLAIM0, request(REQ1, CLASS_A, 1, memoryAtLeast("8Gi")),
                                firstAvailable(REQ0, sub(SUB0, CLASS_A, 1, memoryAtLeast("8Gi")), sub(SUB1, CLASS_A, 1, memoryAtLeast("4Gi")))))
                        .classes(deviceClass(CLASS_A, DRIVER_A))
                        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, memDev(DEVICE1, "8Gi")), slice(SLICE2, NODE1, POOL2, DRIVER_A, memDev(DEVICE2, "4Gi")))
                        .want(result(local1, r(REQ1, DRIVER_A, POOL1, DEVICE1), r(R0S1, DRIVER_A, POOL2, DEVICE2))),
                tc("prioritized-list-with-backtracking")
                        .claims(claim(CLAIM0, firstAvailable(REQ0, sub(SUB0, CLASS_A, 1, memoryAtLeast("8Gi")), sub(SUB1, CLASS_A, 1, memoryAtLeast("4Gi"))),
                                request(REQ1, CLASS_A, 1, memoryAtLeast("8Gi"))))
                        .classes(deviceClass(CLASS_A, DRIVER_A))
                        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, memDev(DEVICE1, "8Gi")), slice(SLICE2, NODE1, POOL2, DRIVER_A, memDev(DEVICE2, "4Gi")))
                        .want(result(local1, r(R0S1, DRIVER_A, POOL2, DEVICE2), r(REQ1, DRIVER_A, POOL1, DEVICE1))),
                tc("prioritized-list-too-many-in-first-subrequest")
                        .claims(claim(CLAIM0, firstAvailable(REQ0, sub(SUB0, CLASS_B, 500), sub(SUB1, CLASS_A, 1))))
                        .classes(deviceClass(CLASS_A, DRIVER_A), deviceClass(CLASS_B, DRIVER_B))
                        .slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A))
                        .want(result(local1, r(R0S1, DRIVER_A, POOL1, DEVICE1))),
                tc("prioritized-list-allocation-mode-all")
                        .claims(claim(CLAIM0, firstAvailable(REQ0, allSub(SUB0, CLASS_A), sub(SUB1, CLASS_A, 1))))
                        .classes(deviceClass(CLASS_A, DRIVER_A)).allocated(allocated("driver-a/pool-1/device-2"))
                        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, dev(DEVICE1), dev(DEVICE2)))
                        .want(result(local1, r(R0S1, DRIVER_A, POOL1, DEVICE1))),
                tc("prioritized-list-allocation-mode-all-with-selectors")
                        .claims(claim(CLAIM0, firstAvailable(REQ0, allSub(SUB0, CLASS_A, attributeIs("generation", s("v6"))),
                                allSub(SUB1, CLASS_A, attributeIs("generation", s("v5"))))))
                        .classes(deviceClass(CLASS_A, DRIVER_A))
                        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, dev(DEVICE1).attr("generation", s("v5"))))
                        .want(result(local1, r(R0S1, DRIVER_A, POOL1, DEVICE1))),
                tc("prioritized-list-allocation-mode-all-with-selectors-multiple-pools")
                        .claims(claim(CLAIM0, firstAvailable(REQ0, allSub(SUB0, CLASS_A, attributeIs("generation", s("v6"))),
                                allSub(SUB1, CLASS_A, attributeIs("generation", s("v5"))))))
                        .classes(deviceClass(CLASS_A, DRIVER_A))
                        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, dev(DEVICE1).attr("generation", s("v5"))),
                                slice(SLICE2, NODE1, POOL2, DRIVER_A, dev(DEVICE1).attr("generation", s("v5"))))
                        .want(result(local1, r(R0S1, DRIVER_A, POOL1, DEVICE1), r(R0S1, DRIVER_A, POOL2, DEVICE1))),
                tc("prioritized-list-allocation-mode-all-with-selectors-multiple-pools-across-nodes")
                        .claims(claim(CLAIM0, firstAvailable(REQ0, allSub(SUB0, CLASS_A, attributeIs("generation", s("v6"))),
                                allSub(SUB1, CLASS_A, attributeIs("generation", s("v5"))))))
                        .classes(deviceClass(CLASS_A, DRIVER_A))
                        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, dev(DEVICE1).attr("generation", s("v5"))),
                                slice(SLICE2, NODE2, POOL2, DRIVER_A, dev(DEVICE1).attr("generation", s("v5")), dev(DEVICE2).attr("generation", s("v6"))))
                        .want(result(local1, r(R0S1, DRIVER_A, POOL1, DEVICE1))),
                tc("prioritized-list-allocation-mode-all-with-selectors-deviceclass-subset")
                        .claims(claim(CLAIM0, firstAvailable(REQ0, allSub(SUB0, CLASS_A, attributeIs("generation", s("v6"))),
                                allSub(SUB1, CLASS_A, attributeIs("generation", s("v5"))))))
                        .classes(new DeviceClass(CLASS_A, List.of(driverIs(DRIVER_A), attributeIs("selected", b(true))), null))
                        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A,
                                dev(DEVICE1).attr("generation", s("v6")).attr("selected", b(false)),
                                dev(DEVICE2).attr("generation", s("v5")).attr("selected", b(false)),
                                dev(DEVICE3).attr("generation", s("v5")).attr("selected", b(true))))
                        .want(result(local1, r(R0S1, DRIVER_A, POOL1, DEVICE3))),
                tc("prioritized-list-max-allocation-limit-request")
                        .claims(claim(CLAIM0, firstAvailable(REQ0, sub(SUB0, CLASS_A, 32), sub(SUB1, CLASS_A, 16)),
                                firstAvailable(REQ1, sub(SUB0, CLASS_A, 32), sub(SUB1, CLASS_A, 16))))
                        .classes(deviceClass(CLASS_A, DRIVER_A)).slices(sliceWithMultipleDevices(SLICE1, NODE1, POOL1, DRIVER_A, 64))
                        .want(result(local1, concat(manyResults(R0S1, 16, 0), manyResults(R1S1, 16, 16)))),
                PartitionCases.singleDevice(), PartitionCases.prioritizedList(), PartitionCases.multipleDevices(),
                PartitionCases.multipleCapacityPools(), PartitionCases.multipleCounters(), PartitionCases.multiplePools(),
                PartitionCases.unusedCounters(), PartitionCases.noCapacityAvailable(), PartitionCases.overallocated(),
                PartitionCases.perDeviceNodeName(), PartitionCases.perDeviceNodeSelector(),
                PartitionCases.perDeviceNodeSelectorMultipleDevices(), PartitionCases.withAttributeSelector(),
                tc("tainted-two-devices").claims(claimWithRequest(CLAIM0, REQ0, CLASS_A)).classes(deviceClass(CLASS_A, DRIVER_A))
                        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, dev(DEVICE1).taint(TAINT_NO_SCHEDULE), dev(DEVICE2).taint(TAINT_NO_EXECUTE)))
                        .unfit(),
                tc("tainted-one-device-two-taints").claims(claimWithRequest(CLAIM0, REQ0, CLASS_A)).classes(deviceClass(CLASS_A, DRIVER_A))
                        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, dev(DEVICE1).taint(TAINT_NO_SCHEDULE).taint(TAINT_NO_EXECUTE)))
                        .unfit(),
                tc("tainted-two-devices-tolerated").claims(tolerating(CLAIM0, REQ0, TOL_NO_EXECUTE)).classes(deviceClass(CLASS_A, DRIVER_A))
                        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, dev(DEVICE1).taint(TAINT_NO_SCHEDULE), dev(DEVICE2).taint(TAINT_NO_EXECUTE)))
                        .want(result(local1, r(REQ0, DRIVER_A, POOL1, DEVICE2, tol(TOL_NO_EXECUTE)))),
                tc("tainted-two-devices-prioritized-list-tolerated")
                        .claims(claim(CLAIM0, firstAvailable(REQ0, sub(SUB0, CLASS_A, 1), subFull(SUB1, CLASS_A, 1, List.of(TOL_NO_EXECUTE), null))))
                        .classes(deviceClass(CLASS_A, DRIVER_A))
                        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, dev(DEVICE1).taint(TAINT_NO_SCHEDULE), dev(DEVICE2).taint(TAINT_NO_EXECUTE)))
                        .want(result(local1, r(R0S1, DRIVER_A, POOL1, DEVICE2, tol(TOL_NO_EXECUTE)))),
                tc("tainted-no-effect").claims(claimWithRequest(CLAIM0, REQ0, CLASS_A)).classes(deviceClass(CLASS_A, DRIVER_A))
                        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, dev(DEVICE1).taint(TAINT_NONE)))
                        .want(result(local1, r(REQ0, DRIVER_A, POOL1, DEVICE1))),
                tc("tainted-one-device-two-taints-both-tolerated").claims(tolerating(CLAIM0, REQ0, TOL_NO_SCHEDULE, TOL_NO_EXECUTE))
                        .classes(deviceClass(CLASS_A, DRIVER_A))
                        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, dev(DEVICE1).taint(TAINT_NO_SCHEDULE).taint(TAINT_NO_EXECUTE)))
                        .want(result(local1, r(REQ0, DRIVER_A, POOL1, DEVICE1, tol(TOL_NO_SCHEDULE, TOL_NO_EXECUTE)))),
                tc("tainted-prioritized-list")
                        .claims(claim(CLAIM0, firstAvailable(REQ0, sub(SUB0, CLASS_B, 1), sub(SUB1, CLASS_A, 1))))
                        .classes(deviceClass(CLASS_A, DRIVER_A), deviceClass(CLASS_B, DRIVER_B))
                        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, dev(DEVICE1).taint(TAINT_NO_SCHEDULE)))
                        .unfit(),
                tc("tainted-admin-access").claims(claim(CLAIM0, exact(REQ0, CLASS_A, AllocationMode.ExactCount, 1, true, null, null)))
                        .allocated(allocated("driver-a/pool-1/device-1", "driver-a/pool-1/device-2"))
                        .classes(deviceClass(CLASS_A, DRIVER_A))
                        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, dev(DEVICE1).taint(TAINT_NO_SCHEDULE)))
                        .unfit(),
                tc("tainted-all-devices-single").claims(claim(CLAIM0, allRequest(REQ0, CLASS_A))).classes(deviceClass(CLASS_A, DRIVER_A))
                        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, dev(DEVICE1).taint(TAINT_NO_SCHEDULE)))
                        .unfit(),
                tc("consumable-capacity-multi-allocatable-device-with-allocated-capacity-next-device")
                        .claims(capClaim(CLAIM0, capRequest(REQ0, CLASS_A, "2")))
                        .allocated(List.of(allocatedShare(DRIVER_A, POOL1, DEVICE1, "2")))
                        .classes(classWithAllowMultipleAllocations(CLASS_A, DRIVER_A, true))
                        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, dev(DEVICE1).multi().capRange(CAPACITY0, "2"),
                                dev(DEVICE2).multi().capRange(CAPACITY0, "2")))
                        .want(result(local1, r(REQ0, DRIVER_A, POOL1, DEVICE2, share("2")))),
                tc("consumable-capacity-with-multi-allocatable-device-backtrack")
                        .claims(claim(CLAIM0, List.of(Constraint.match(DRIVER_A + "/stringAttribute")),
                                        capRequest(REQ0, CLASS_A, "2"), capRequest(REQ1, CLASS_A, "2")),
                                capClaim(CLAIM1, capRequest(REQ0, CLASS_A, "2")))
                        .classes(deviceClass(CLASS_A, DRIVER_A))
                        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A,
                                dev(DEVICE2).attr("stringAttribute", s("stringAttributeValue1")).multi().capRange(CAPACITY0, "2"),
                                dev(DEVICE1).attr("stringAttribute", s("stringAttributeValue2")).multi().capRange(CAPACITY0, "4")))
                        .want(result(local1, r(REQ0, DRIVER_A, POOL1, DEVICE1, share("2")), r(REQ1, DRIVER_A, POOL1, DEVICE1, share("2"))),
                                result(local1, r(REQ0, DRIVER_A, POOL1, DEVICE2, share("2")))),
                tc("consumable-capacity-multi-allocatable-device-with-subrequest")
                        .claims(claim(CLAIM0, firstAvailable(REQ0, subFull(SUB0, CLASS_A, 1, null, cap("4")),
                                subFull(SUB1, CLASS_A, 1, null, cap("2")), sub(SUB1, CLASS_A, 1))))
                        .classes(classWithAllowMultipleAllocations(CLASS_A, DRIVER_A, true))
                        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, dev(DEVICE1).multi().capRange(CAPACITY0, "2")))
                        .want(result(local1, r(R0S1, DRIVER_A, POOL1, DEVICE1, share("2")))),
                tc("consumable-capacity-multi-allocatable-device-with-no-available-consumable-capacity")
                        .claims(capClaim(CLAIM0, capRequest(REQ0, CLASS_A, "2")))
                        .allocated(List.of(allocatedShare(DRIVER_A, POOL1, DEVICE1, "2")))
                        .classes(classWithAllowMultipleAllocations(CLASS_A, DRIVER_A, true))
                        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, dev(DEVICE1).multi().capRange(CAPACITY0, "2")))
                        .unfit(),
                tc("consumable-capacity-multi-allocatable-device-allocation-mode-all-filter-out-no-capacity")
                        .claims(capClaim(CLAIM0, capAll(REQ0, CLASS_A, "2")))
                        .classes(classWithAllowMultipleAllocations(CLASS_A, DRIVER_A, true))
                        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, dev(DEVICE1).cap(CAPACITY0, "2").multi(), dev(DEVICE2).multi()))
                        .want(result(local1, r(REQ0, DRIVER_A, POOL1, DEVICE1, share("2")))),
                tc("consumable-capacity-multi-allocatable-device-allocation-mode-all-filter-out-insufficient-capacity")
                        .claims(capClaim(CLAIM0, capAll(REQ0, CLASS_A, "2")))
                        .classes(classWithAllowMultipleAllocations(CLASS_A, DRIVER_A, true))
                        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, dev(DEVICE1).cap(CAPACITY0, "2").multi(), dev(DEVICE2).cap(CAPACITY0, "1").multi()))
                        .want(result(local1, r(REQ0, DRIVER_A, POOL1, DEVICE1, share("2")))),
                tc("consumable-capacity-multi-allocatable-device-allocation-mode-all-allocating-sufficient")
                        .claims(capClaim(CLAIM0, capRequest(REQ0, CLASS_A, "1"), capAll(REQ1, CLASS_A, "1")))
                        .classes(deviceClass(CLASS_A, DRIVER_A))
                        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, dev(DEVICE1).cap(CAPACITY0, "2").multi(), dev(DEVICE2).cap(CAPACITY0, "1").multi()))
                        .want(result(local1, r(REQ0, DRIVER_A, POOL1, DEVICE1, share("1")), r(REQ1, DRIVER_A, POOL1, DEVICE1, share("1")),
                                r(REQ1, DRIVER_A, POOL1, DEVICE2, share("1")))),
                tc("consumable-capacity-multi-allocatable-device-allocation-mode-all-in-use-sufficient")
                        .claims(capClaim(CLAIM0, capAll(REQ0, CLASS_A, "1")))
                        .allocated(List.of(allocatedShare(DRIVER_A, POOL1, DEVICE1, "1")))
                        .classes(deviceClass(CLASS_A, DRIVER_A))
                        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, dev(DEVICE1).cap(CAPACITY0, "2").multi(), dev(DEVICE2).cap(CAPACITY0, "1").multi()))
                        .want(result(local1, r(REQ0, DRIVER_A, POOL1, DEVICE1, share("1")), r(REQ0, DRIVER_A, POOL1, DEVICE2, share("1")))),
                tc("consumable-capacity-multi-allocatable-device-allocation-mode-all-allocating-insufficient")
                        .claims(capClaim(CLAIM0, capRequest(REQ0, CLASS_A, "1"), capAll(REQ1, CLASS_A, "1")))
                        .classes(deviceClass(CLASS_A, DRIVER_A))
                        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, dev(DEVICE1).cap(CAPACITY0, "1").multi(), dev(DEVICE2).cap(CAPACITY0, "1").multi()))
                        .unfit(),
                tc("consumable-capacity-multi-allocatable-device-allocation-mode-all-in-use-insufficient")
                        .claims(capClaim(CLAIM0, capAll(REQ0, CLASS_A, "1")))
                        .allocated(List.of(allocatedShare(DRIVER_A, POOL1, DEVICE1, "1")))
                        .classes(deviceClass(CLASS_A, DRIVER_A))
                        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, dev(DEVICE1).cap(CAPACITY0, "1").multi(), dev(DEVICE2).cap(CAPACITY0, "1").multi()))
                        .want(result(local1, r(REQ0, DRIVER_A, POOL1, DEVICE2, share("1")))),
                tc("consumable-capacity-dedicated-device-with-consumable-capacity-request")
                        .claims(capClaim(CLAIM0, capRequest(REQ0, CLASS_A, "1")))
                        .classes(classWithAllowMultipleAllocations(CLASS_A, DRIVER_A, false))
                        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, dev(DEVICE1).cap(CAPACITY0, "1")))
                        .want(result(local1, r(REQ0, DRIVER_A, POOL1, DEVICE1))),
                tc("consumable-capacity-dedicated-device-with-multiple-consumable-capacity-request")
                        .claims(capClaim(CLAIM0, capRequest(REQ0, CLASS_A, "1")), capClaim(CLAIM1, capRequest(REQ0, CLASS_A, "1")))
                        .classes(classWithAllowMultipleAllocations(CLASS_A, DRIVER_A, false))
                        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, dev(DEVICE1).capRange(CAPACITY0, "2")))
                        .unfit(),
                tc("allow-multiple-allocations-exclude-multi-allocatable-device-by-class-selector")
                        .claims(capClaim(CLAIM0, capRequest(REQ0, CLASS_A, "1")))
                        .classes(classWithAllowMultipleAllocations(CLASS_A, DRIVER_A, false))
                        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, dev(DEVICE1).cap(CAPACITY0, "1").multi()))
                        .unfit(),
                tc("allow-multiple-allocations-not-allocate-multi-allocatable-device-which-already-dedicated")
                        .claims(capClaim(CLAIM0, capRequest(REQ0, CLASS_A, "1")))
                        .allocated(allocated("driver-a/pool-1/device-1"))
                        .classes(classWithAllowMultipleAllocations(CLASS_A, DRIVER_A, true))
                        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, dev(DEVICE1).multi().capRange(CAPACITY0, "2")))
                        .unfit()
        );
    }

    static String[] concat(String[] a, String[] b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void upstreamCase(TableCase c) {
        c.check();
    }
}
