package dev.muster.core.dra;

import dev.muster.core.dra.ResourceClaimSpec.AllocationMode;
import dev.muster.core.dra.ResourceClaimSpec.Constraint;
import dev.muster.core.model.NodeSelectorRequirement;
import dev.muster.core.model.NodeSelectorTerm;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.Stream;

import static dev.muster.core.dra.DraFixtures.*;
import static dev.muster.core.dra.TableCase.r;
import static dev.muster.core.dra.TableCase.result;
import static dev.muster.core.dra.TableCase.resultWithConfigs;
import static dev.muster.core.dra.TableCase.tc;

/**
 * The upstream shared allocator test table (structured/internal/allocatortesting), first part: simple cases, counts,
 * All mode, admin access, pools, node selectors, constraints, configs, errors. Case names are upstream's.
 */
class UpstreamTableBasicTest {
    static final String VERSION = DRIVER_A + "/driverVersion";
    static final String NUMA = DRIVER_A + "/numa";
    static final String STRING_ATTR = DRIVER_A + "/stringAttribute";
    static final String BOOL_ATTR = DRIVER_A + "/boolAttribute";

    static DeviceAttribute v(String s) {
        return new DeviceAttribute.VersionValue(s);
    }

    static DeviceAttribute i(long n) {
        return new DeviceAttribute.IntValue(n);
    }

    static DeviceAttribute s(String s) {
        return new DeviceAttribute.StringValue(s);
    }

    static DeviceAttribute b(boolean x) {
        return new DeviceAttribute.BoolValue(x);
    }

    static Allocator.PendingClaim adminClaim(String name, String req, AllocationMode mode, long count) {
        return claim(name, exact(req, CLASS_A, mode, count, true, null, null));
    }

    static DeviceSelector broken() {
        return sel("noSuchVar", d -> {
            throw new SelectorException("undeclared reference to 'noSuchVar'");
        });
    }

    static Stream<TableCase> cases() {
        List<NodeSelectorTerm> local1 = localSelector(NODE1);
        return Stream.of(
                tc("simple").claims(claimWithRequest(CLAIM0, REQ0, CLASS_A)).classes(deviceClass(CLASS_A, DRIVER_A))
                        .slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A))
                        .want(result(local1, r(REQ0, DRIVER_A, POOL1, DEVICE1))),
                tc("other-node").claims(claimWithRequest(CLAIM0, REQ0, CLASS_A)).classes(deviceClass(CLASS_A, DRIVER_A))
                        .slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_B), sliceWithOneDevice(SLICE2, NODE2, POOL2, DRIVER_A))
                        .node(node(NODE2, REGION2))
                        .want(result(localSelector(NODE2), r(REQ0, DRIVER_A, POOL2, DEVICE1))),
                tc("small-and-large").claims(claim(CLAIM0, request(REQ0, CLASS_A, 1, memoryAtLeast("1Gi")),
                                request(REQ1, CLASS_A, 1, memoryAtLeast("2Gi"))))
                        .classes(deviceClass(CLASS_A, DRIVER_A))
                        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, memDev(DEVICE1, "1Gi"), memDev(DEVICE2, "2Gi")))
                        .want(result(local1, r(REQ0, DRIVER_A, POOL1, DEVICE1), r(REQ1, DRIVER_A, POOL1, DEVICE2))),
                tc("small-and-large-backtrack-requests").claims(claim(CLAIM0, request(REQ0, CLASS_A, 1, memoryAtLeast("1Gi")),
                                request(REQ1, CLASS_A, 1, memoryAtLeast("2Gi"))))
                        .classes(deviceClass(CLASS_A, DRIVER_A))
                        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, memDev(DEVICE2, "2Gi"), memDev(DEVICE1, "1Gi")))
                        .want(result(local1, r(REQ0, DRIVER_A, POOL1, DEVICE1), r(REQ1, DRIVER_A, POOL1, DEVICE2))),
                tc("small-and-large-backtrack-claims").claims(claim(CLAIM0, request(REQ0, CLASS_A, 1, memoryAtLeast("1Gi"))),
                                claim(CLAIM1, request(REQ1, CLASS_A, 1, memoryAtLeast("2Gi"))))
                        .classes(deviceClass(CLASS_A, DRIVER_A))
                        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, memDev(DEVICE2, "2Gi"), memDev(DEVICE1, "1Gi")))
                        .want(result(local1, r(REQ0, DRIVER_A, POOL1, DEVICE1)), result(local1, r(REQ1, DRIVER_A, POOL1, DEVICE2))),
                tc("devices-split-across-different-slices").claims(claim(CLAIM0, request(REQ0, CLASS_A, 2)))
                        .classes(deviceClass(CLASS_A, DRIVER_A))
                        .slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A), sliceWithOneDevice(SLICE2, NODE1, POOL2, DRIVER_A))
                        .want(result(local1, r(REQ0, DRIVER_A, POOL1, DEVICE1), r(REQ0, DRIVER_A, POOL2, DEVICE1))),
                tc("obsolete-slice").claims(claimWithRequest(CLAIM0, REQ0, CLASS_A)).classes(deviceClass(CLASS_A, DRIVER_A))
                        .slices(slice("slice-1-obsolete", NODE1, pool(POOL1, 2), DRIVER_A, dev(DEVICE1)),
                                slice("slice-1-obsolete", NODE1, new ResourceSlice.Pool(POOL1, 2, 2), DRIVER_A, dev(DEVICE2)))
                        .unfit(),
                tc("duplicate-slice").claims(claimWithRequest(CLAIM0, REQ0, CLASS_A)).classes(deviceClass(CLASS_A, DRIVER_A))
                        .slices(sliceWithOneDevice(SLICE1, NODE1, pool(POOL1, 2), DRIVER_A),
                                sliceWithOneDevice(SLICE1 + "-2", NODE1, pool(POOL1, 2), DRIVER_A))
                        .unfit(Allocator.INVALID_POOLS),
                tc("no-slices").claims(claimWithRequest(CLAIM0, REQ0, CLASS_A)).classes(deviceClass(CLASS_A, DRIVER_A)).unfit(),
                tc("not-enough-suitable-devices").claims(claimWithRequest(CLAIM0, REQ0, CLASS_A), claimWithRequest(CLAIM0, REQ1, CLASS_A))
                        .classes(deviceClass(CLASS_A, DRIVER_A)).slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A)).unfit(),
                tc("no-classes").claims(claimWithRequest(CLAIM0, REQ0, CLASS_A))
                        .slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A))
                        .error("request req-0: device class class-a does not exist"),
                tc("unknown-class").claims(claimWithRequest(CLAIM0, REQ0, "unknown-class")).classes(deviceClass(CLASS_A, DRIVER_A))
                        .slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A))
                        .error("device class unknown-class does not exist"),
                tc("empty-class").claims(claimWithRequest(CLAIM0, REQ0, "")).classes(deviceClass(CLASS_A, DRIVER_A))
                        .slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A))
                        .error("claim claim-0, request req-0: missing device class name (unsupported request type?)"),
                tc("no-claims-to-allocate").classes(deviceClass(CLASS_A, DRIVER_A))
                        .slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A)).want(),
                tc("all-devices-single").claims(claim(CLAIM0, allRequest(REQ0, CLASS_A))).classes(deviceClass(CLASS_A, DRIVER_A))
                        .slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A))
                        .want(result(local1, r(REQ0, DRIVER_A, POOL1, DEVICE1))),
                tc("all-devices-many").claims(claim(CLAIM0, allRequest(REQ0, CLASS_A))).classes(deviceClass(CLASS_A, DRIVER_A))
                        .slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A), sliceWithOneDevice(SLICE1, NODE1, POOL2, DRIVER_A))
                        .want(result(local1, r(REQ0, DRIVER_A, POOL1, DEVICE1), r(REQ0, DRIVER_A, POOL2, DEVICE1))),
                tc("all-devices-of-the-incomplete-pool").claims(claim(CLAIM0, allRequest(REQ0, CLASS_A)))
                        .classes(deviceClass(CLASS_A, DRIVER_A)).slices(sliceWithOneDevice(SLICE1, NODE1, pool(POOL1, 2), DRIVER_A))
                        .error("claim claim-0, request req-0: asks for all devices, but resource pool driver-a/pool-1 is currently being updated"),
                tc("all-devices-plus-another").claims(claim(CLAIM0, allRequest(REQ0, CLASS_A)), claim(CLAIM1, request(REQ0, CLASS_B, 1)))
                        .classes(deviceClass(CLASS_A, DRIVER_A), deviceClass(CLASS_B, DRIVER_B))
                        .slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A), sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_B))
                        .want(result(local1, r(REQ0, DRIVER_A, POOL1, DEVICE1)), result(local1, r(REQ0, DRIVER_B, POOL1, DEVICE1))),
                tc("all-devices-plus-another-reversed").claims(claim(CLAIM1, request(REQ0, CLASS_B, 1)), claim(CLAIM0, allRequest(REQ0, CLASS_A)))
                        .classes(deviceClass(CLASS_A, DRIVER_A), deviceClass(CLASS_B, DRIVER_B))
                        .slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A), sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_B))
                        .want(result(local1, r(REQ0, DRIVER_B, POOL1, DEVICE1)), result(local1, r(REQ0, DRIVER_A, POOL1, DEVICE1))),
                tc("all-devices-many-plus-another").claims(claim(CLAIM0, allRequest(REQ0, CLASS_A)), claim(CLAIM1, request(REQ0, CLASS_B, 1)))
                        .classes(deviceClass(CLASS_A, DRIVER_A), deviceClass(CLASS_B, DRIVER_B))
                        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, dev(DEVICE1), dev(DEVICE2)), sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_B))
                        .want(result(local1, r(REQ0, DRIVER_A, POOL1, DEVICE1), r(REQ0, DRIVER_A, POOL1, DEVICE2)),
                                result(local1, r(REQ0, DRIVER_B, POOL1, DEVICE1))),
                tc("all-devices-many-plus-another-reversed").claims(claim(CLAIM1, request(REQ0, CLASS_B, 1)), claim(CLAIM0, allRequest(REQ0, CLASS_A)))
                        .classes(deviceClass(CLASS_A, DRIVER_A), deviceClass(CLASS_B, DRIVER_B))
                        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, dev(DEVICE1), dev(DEVICE2)), sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_B))
                        .want(result(local1, r(REQ0, DRIVER_B, POOL1, DEVICE1)),
                                result(local1, r(REQ0, DRIVER_A, POOL1, DEVICE1), r(REQ0, DRIVER_A, POOL1, DEVICE2))),
                tc("all-devices-no-solution").claims(claim(CLAIM1, request(REQ0, CLASS_A, 1)), claim(CLAIM0, allRequest(REQ0, CLASS_A)))
                        .classes(deviceClass(CLASS_A, DRIVER_A)).slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A)).unfit(),
                tc("all-devices-no-solution-reversed").claims(claim(CLAIM0, allRequest(REQ0, CLASS_A)), claim(CLAIM1, request(REQ0, CLASS_A, 1)))
                        .classes(deviceClass(CLASS_A, DRIVER_A)).slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A)).unfit(),
                tc("all-devices-slice-without-devices").claims(claim(CLAIM0, allRequest(REQ0, CLASS_A)))
                        .classes(deviceClass(CLASS_A, DRIVER_A)).slices(slice(SLICE1, NODE1, POOL1, DRIVER_A)).unfit(),
                tc("all-devices-no-slices").claims(claim(CLAIM0, allRequest(REQ0, CLASS_A))).classes(deviceClass(CLASS_A, DRIVER_A)).unfit(),
                tc("all-devices-some-allocated").claims(claim(CLAIM0, allRequest(REQ0, CLASS_A)))
                        .allocated(allocated("driver-a/pool-1/device-1")).classes(deviceClass(CLASS_A, DRIVER_A))
                        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, dev(DEVICE1), dev(DEVICE2))).unfit(),
                tc("all-devices-some-allocated-admin-access").claims(adminClaim(CLAIM0, REQ0, AllocationMode.All, 0))
                        .allocated(allocated("driver-a/pool-1/device-1")).classes(deviceClass(CLASS_A, DRIVER_A))
                        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, dev(DEVICE1), dev(DEVICE2)))
                        .want(result(local1, r(REQ0, DRIVER_A, POOL1, DEVICE1, "admin"), r(REQ0, DRIVER_A, POOL1, DEVICE2, "admin"))),
                tc("all-devices-some-allocating-admin-access").claims(claim(CLAIM0,
                                exact(REQ0, CLASS_A, AllocationMode.ExactCount, 1, true, null, null),
                                exact(REQ1, CLASS_A, AllocationMode.All, 0, true, null, null)))
                        .classes(deviceClass(CLASS_A, DRIVER_A)).slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, dev(DEVICE1), dev(DEVICE2)))
                        .unfit(),
                tc("count-devices-some-allocated-admin-access").claims(adminClaim(CLAIM0, REQ0, AllocationMode.ExactCount, 2))
                        .allocated(allocated("driver-a/pool-1/device-1")).classes(deviceClass(CLASS_A, DRIVER_A))
                        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, dev(DEVICE1), dev(DEVICE2)))
                        .want(result(local1, r(REQ0, DRIVER_A, POOL1, DEVICE1, "admin"), r(REQ0, DRIVER_A, POOL1, DEVICE2, "admin"))),
                tc("separate-claims-share-device-admin-access").claims(adminClaim(CLAIM0, REQ0, AllocationMode.ExactCount, 1),
                                adminClaim(CLAIM1, REQ0, AllocationMode.ExactCount, 1))
                        .classes(deviceClass(CLASS_A, DRIVER_A)).slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, dev(DEVICE1), dev(DEVICE2)))
                        .want(result(local1, r(REQ0, DRIVER_A, POOL1, DEVICE1, "admin")), result(local1, r(REQ0, DRIVER_A, POOL1, DEVICE1, "admin"))),
                tc("admin-access-claims-device-allocating-for-non-admin-access").claims(claimWithRequest(CLAIM0, REQ0, CLASS_A),
                                adminClaim(CLAIM1, REQ0, AllocationMode.ExactCount, 1))
                        .classes(deviceClass(CLASS_A, DRIVER_A)).slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, dev(DEVICE1), dev(DEVICE2)))
                        .want(result(local1, r(REQ0, DRIVER_A, POOL1, DEVICE1)), result(local1, r(REQ0, DRIVER_A, POOL1, DEVICE1, "admin"))),
                tc("network-attached-device").claims(claimWithRequest(CLAIM0, REQ0, CLASS_A)).classes(deviceClass(CLASS_A, DRIVER_A))
                        .slices(sliceWithOneDevice(SLICE1, labelSelector("region", REGION1), POOL1, DRIVER_A))
                        .want(result(labelSelector("region", REGION1), r(REQ0, DRIVER_A, POOL1, DEVICE1))),
                tc("unsuccessful-allocation-network-attached-device").claims(claimWithRequest(CLAIM0, REQ0, CLASS_A))
                        .classes(deviceClass(CLASS_A, DRIVER_A))
                        .slices(sliceWithOneDevice(SLICE1, labelSelector("region", REGION1), POOL1, DRIVER_A))
                        .node(node(NODE2, REGION2)).unfit(),
                tc("many-network-attached-devices").claims(claim(CLAIM0, request(REQ0, CLASS_A, 4))).classes(deviceClass(CLASS_A, DRIVER_A))
                        .slices(sliceWithOneDevice(SLICE1, labelSelector("region", REGION1), POOL1, DRIVER_A),
                                sliceWithOneDevice(SLICE1, ALL, POOL2, DRIVER_A),
                                sliceWithOneDevice(SLICE1, labelSelector("planet", "earth"), POOL3, DRIVER_A),
                                sliceWithOneDevice(SLICE1, localSelector(NODE1), POOL4, DRIVER_A))
                        .want(result(List.of(new NodeSelectorTerm(List.of(
                                        new NodeSelectorRequirement("region", NodeSelectorRequirement.Operator.In, List.of(REGION1)),
                                        new NodeSelectorRequirement("planet", NodeSelectorRequirement.Operator.In, List.of("earth"))),
                                        localSelector(NODE1).get(0).matchFields())),
                                r(REQ0, DRIVER_A, POOL1, DEVICE1), r(REQ0, DRIVER_A, POOL2, DEVICE1),
                                r(REQ0, DRIVER_A, POOL3, DEVICE1), r(REQ0, DRIVER_A, POOL4, DEVICE1))),
                tc("local-and-network-attached-devices").claims(claim(CLAIM0, request(REQ0, CLASS_A, 2))).classes(deviceClass(CLASS_A, DRIVER_A))
                        .slices(sliceWithOneDevice(SLICE1, labelSelector("region", REGION1), POOL1, DRIVER_A),
                                sliceWithOneDevice(SLICE1, NODE1, POOL2, DRIVER_A))
                        .want(result(local1, r(REQ0, DRIVER_A, POOL1, DEVICE1), r(REQ0, DRIVER_A, POOL2, DEVICE1))),
                tc("several-different-drivers").claims(claimWithRequest(CLAIM0, REQ0, CLASS_A), claimWithRequest(CLAIM0, REQ0, CLASS_B))
                        .classes(deviceClass(CLASS_A, DRIVER_A), deviceClass(CLASS_B, DRIVER_B))
                        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, dev(DEVICE1), dev(DEVICE2)), sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_B))
                        .want(result(local1, r(REQ0, DRIVER_A, POOL1, DEVICE1)), result(local1, r(REQ0, DRIVER_B, POOL1, DEVICE1))),
                tc("already-allocated-devices").claims(claimWithRequest(CLAIM0, REQ0, CLASS_A))
                        .allocated(allocated("driver-a/pool-1/device-1", "driver-a/pool-1/device-2"))
                        .classes(deviceClass(CLASS_A, DRIVER_A)).slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A)).unfit(),
                tc("admin-access-enabled").claims(adminClaim(CLAIM0, REQ0, AllocationMode.ExactCount, 1))
                        .allocated(allocated("driver-a/pool-1/device-1", "driver-a/pool-1/device-2"))
                        .classes(deviceClass(CLASS_A, DRIVER_A)).slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A))
                        .want(result(local1, r(REQ0, DRIVER_A, POOL1, DEVICE1, "admin"))),
                tc("with-constraint").claims(claim(CLAIM0, List.of(Constraint.match(NUMA), Constraint.match(VERSION),
                                Constraint.match(STRING_ATTR), Constraint.match(BOOL_ATTR)),
                                request(REQ0, CLASS_A, 1), request(REQ1, CLASS_A, 1)))
                        .classes(deviceClass(CLASS_A, DRIVER_A))
                        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A,
                                dev(DEVICE1).attr("driverVersion", v("1.0.0")).attr("numa", i(1)).attr("stringAttribute", s("stringAttributeValue")).attr("boolAttribute", b(true)),
                                dev(DEVICE2).attr("driverVersion", v("1.0.0")).attr("numa", i(1)).attr("stringAttribute", s("stringAttributeValue")).attr("boolAttribute", b(true))))
                        .want(result(local1, r(REQ0, DRIVER_A, POOL1, DEVICE1), r(REQ1, DRIVER_A, POOL1, DEVICE2))),
                tc("with-constraint-non-existent-attribute").claims(claimWithRequest(CLAIM0, REQ0, CLASS_A,
                                Constraint.match(DRIVER_A + "/NonExistentAttribute")))
                        .classes(deviceClass(CLASS_A, DRIVER_A)).slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A)).unfit(),
                constraintMismatch("with-constraint-not-matching-int-attribute", NUMA, "numa", i(1), i(2)),
                constraintMismatch("with-constraint-not-matching-string-attribute", STRING_ATTR, "stringAttribute",
                        s("stringAttributeValue"), s("stringAttributeValue2")),
                constraintMismatch("with-constraint-not-matching-bool-attribute", BOOL_ATTR, "boolAttribute", b(true), b(false)),
                constraintMismatch("with-constraint-not-matching-version-attribute", VERSION, "driverVersion", v("1.0.0"), v("2.0.0")),
                tc("with-constraint-not-matching-int-attribute-all-devices").claims(claim(CLAIM0, List.of(Constraint.match(NUMA)),
                                allRequest(REQ0, CLASS_A)))
                        .classes(deviceClass(CLASS_A, DRIVER_A), deviceClass(CLASS_B, DRIVER_B))
                        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, dev(DEVICE1).attr("numa", i(1)), dev(DEVICE2).attr("numa", i(2))))
                        .error("claim claim-0, request req-0: cannot add device driver-a/pool-1/device-2 because a claim constraint would not be satisfied"),
                tc("with-constraint-for-request").claims(claim(CLAIM0, List.of(Constraint.match(VERSION, REQ0)),
                                request(REQ0, CLASS_A, 1), request(REQ1, CLASS_A, 1)))
                        .classes(deviceClass(CLASS_A, DRIVER_A), deviceClass(CLASS_B, DRIVER_B))
                        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, dev(DEVICE1).attr("driverVersion", v("1.0.0")),
                                dev(DEVICE2).attr("driverVersion", v("2.0.0"))))
                        .want(result(local1, r(REQ0, DRIVER_A, POOL1, DEVICE1), r(REQ1, DRIVER_A, POOL1, DEVICE2))),
                tc("with-constraint-for-request-retry").claims(claim(CLAIM0, List.of(Constraint.match(VERSION, REQ0), Constraint.match(STRING_ATTR)),
                                request(REQ0, CLASS_A, 1), request(REQ1, CLASS_A, 1)))
                        .classes(deviceClass(CLASS_A, DRIVER_A), deviceClass(CLASS_B, DRIVER_B))
                        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A,
                                dev(DEVICE1).attr("driverVersion", v("1.0.0")).attr("stringAttribute", s("a")),
                                dev(DEVICE2).attr("driverVersion", v("2.0.0")).attr("stringAttribute", s("b")),
                                dev(DEVICE3).attr("driverVersion", v("3.0.0")).attr("stringAttribute", s("b"))))
                        .want(result(local1, r(REQ0, DRIVER_A, POOL1, DEVICE2), r(REQ1, DRIVER_A, POOL1, DEVICE3))),
                tc("with-class-device-config").claims(claimWithRequest(CLAIM0, REQ0, CLASS_A))
                        .classes(classWithConfig(CLASS_A, DRIVER_A, "classAttribute"))
                        .slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A))
                        .want(resultWithConfigs(local1, List.of(new AllocationResult.AllocationConfig(AllocationResult.ConfigSource.FromClass,
                                List.of(REQ0), config(DRIVER_A, "classAttribute"))), r(REQ0, DRIVER_A, POOL1, DEVICE1))),
                tc("with-class-device-config-with-multiple-request-and-configs").claims(claim(CLAIM0, request(REQ0, CLASS_A, 1),
                                request(REQ1, CLASS_A, 1), request(REQ2, CLASS_B, 1)))
                        .classes(classWithConfig(CLASS_A, DRIVER_A, "classAttribute-A"), classWithConfig(CLASS_B, DRIVER_B, "classAttribute-B"))
                        .slices(sliceWithMultipleDevices(SLICE1, NODE1, POOL1, DRIVER_A, 2), sliceWithOneDevice(SLICE2, NODE1, POOL1, DRIVER_B))
                        .want(resultWithConfigs(local1, List.of(
                                        new AllocationResult.AllocationConfig(AllocationResult.ConfigSource.FromClass, List.of(REQ0, REQ1), config(DRIVER_A, "classAttribute-A")),
                                        new AllocationResult.AllocationConfig(AllocationResult.ConfigSource.FromClass, List.of(REQ2), config(DRIVER_B, "classAttribute-B"))),
                                r(REQ0, DRIVER_A, POOL1, DEVICE0), r(REQ1, DRIVER_A, POOL1, DEVICE1), r(REQ2, DRIVER_B, POOL1, DEVICE1))),
                tc("claim-with-device-config").claims(withConfig(claimWithRequest(CLAIM0, REQ0, CLASS_A),
                                new ResourceClaimSpec.ClaimConfig(null, config(DRIVER_A, "deviceAttribute"))))
                        .classes(deviceClass(CLASS_A, DRIVER_A)).slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A))
                        .want(resultWithConfigs(local1, List.of(new AllocationResult.AllocationConfig(AllocationResult.ConfigSource.FromClaim,
                                List.of(), config(DRIVER_A, "deviceAttribute"))), r(REQ0, DRIVER_A, POOL1, DEVICE1))),
                tc("invalid-CEL-one-device").claims(claim(CLAIM0, request(REQ0, CLASS_A, 1, broken())))
                        .classes(deviceClass(CLASS_A, DRIVER_A)).slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A))
                        .error("undeclared reference"),
                tc("invalid-CEL-one-device-class").claims(claimWithRequest(CLAIM0, REQ0, CLASS_A))
                        .classes(new DeviceClass(CLASS_A, List.of(broken()), null)).slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A))
                        .error("class class-a: selector #0 on device driver-a/pool-1/device-1: CEL runtime error: undeclared reference"),
                tc("invalid-CEL-all-devices").claims(claim(CLAIM0, allRequest(REQ0, CLASS_A, broken())))
                        .classes(deviceClass(CLASS_A, DRIVER_A)).slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A))
                        .error("undeclared reference"),
                tc("too-many-devices-single-request").claims(claim(CLAIM0, request(REQ0, CLASS_A, 500)))
                        .classes(deviceClass(CLASS_A, DRIVER_A)).error("exceeds the claim limit"),
                tc("many-devices-okay").claims(claim(CLAIM0, request(REQ0, CLASS_A, 32))).classes(deviceClass(CLASS_A, DRIVER_A)).unfit(),
                tc("too-many-devices-total").claims(claim(CLAIM0, request(REQ0, CLASS_A, 32), request(REQ1, CLASS_A, 1)))
                        .classes(deviceClass(CLASS_A, DRIVER_A)).slices(sliceWithMultipleDevices(SLICE1, NODE1, POOL1, DRIVER_A, 33))
                        .error("exceeds the claim limit"),
                tc("all-devices-invalid-CEL").claims(claim(CLAIM0, request(REQ0, CLASS_A, 500)))
                        .classes(deviceClass(CLASS_A, DRIVER_A)).error("exceeds the claim limit"),
                tc("max-number-devices").claims(claim(CLAIM0, request(REQ0, CLASS_A, 32)))
                        .classes(deviceClass(CLASS_A, DRIVER_A)).slices(sliceWithMultipleDevices(SLICE1, NODE1, POOL1, DRIVER_A, 32))
                        .want(result(local1, manyResults(REQ0, 32, 0)))
        );
    }

    static String[] manyResults(String req, int count, int start) {
        String[] out = new String[count];
        for (int k = 0; k < count; k++) {
            out[k] = r(req, DRIVER_A, POOL1, "device-" + (start + k));
        }
        return out;
    }

    static TableCase constraintMismatch(String name, String attribute, String key, DeviceAttribute a, DeviceAttribute b) {
        return tc(name).claims(claim(CLAIM0, List.of(Constraint.match(attribute)), request(REQ0, CLASS_A, 2)))
                .classes(deviceClass(CLASS_A, DRIVER_A), deviceClass(CLASS_B, DRIVER_B))
                .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, dev(DEVICE1).attr(key, a), dev(DEVICE2).attr(key, b)))
                .unfit();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void upstreamCase(TableCase c) {
        c.check();
    }
}
