package dev.muster.core.dra;

import dev.muster.core.model.Node;
import dev.muster.core.model.PodRef;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

import static dev.muster.core.dra.DraFixtures.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The index's pool bookkeeping and the ledger's undo log. */
class DraIndexLedgerTest {
    static final Node N1 = node(NODE1, REGION1);

    @Test
    void poolsAtHighestGenerationSortedWithBindingConditionsLast() {
        ResourceSlice old = slice("a-old", NODE1, new ResourceSlice.Pool(POOL1, 1, 1), DRIVER_B, dev("old"));
        ResourceSlice newer = slice("z-new", NODE1, new ResourceSlice.Pool(POOL1, 2, 1), DRIVER_B, dev("new"));
        Device bound = new Device("bound", null, null, null, null, false, false, List.of("ready"), null, null, null, false);
        ResourceSlice binding = slice("b", NODE1, "aaa-pool", DRIVER_A, List.of(bound), null);
        ResourceSlice plain = slice("c", NODE1, POOL2, DRIVER_A, dev("plain"));
        ResourceSlice elsewhere = slice("d", NODE2, POOL3, DRIVER_A, dev("far"));
        DraIndex index = DraIndex.build(List.of(), List.of(old, newer, binding, plain, elsewhere), List.of());
        List<String> order = index.poolsFor(N1).stream().map(p -> p.pool().id()).toList();
        assertThat(order).containsExactly("driver-a/pool-2", "driver-b/pool-1", "driver-a/aaa-pool");
        assertThat(index.poolsFor(N1).get(1).slices()).containsExactly(newer);
        assertThat(index.poolsFor(node(NODE2, REGION1)).stream().map(p -> p.pool().id()).toList()).containsExactly("driver-a/pool-3");
    }

    @Test
    void warmingWorksOutEachNodesPoolsAndDeviceListsAsFirstUseWould() {
        ResourceSlice a1 = slice("a1", NODE1, POOL1, DRIVER_A, dev("x"), dev("y"));
        ResourceSlice b1 = slice("b1", NODE1, POOL2, DRIVER_B, dev("x"));
        ResourceSlice a2 = slice("a2", NODE2, POOL3, DRIVER_A, dev("x"), dev("y"));
        List<ResourceSlice> slices = List.of(a1, b1, a2);
        DraIndex cold = DraIndex.build(List.of(), slices, List.of());
        DraIndex warm = DraIndex.build(List.of(), slices, List.of());
        warm.warmNodePools();
        Node n2 = node(NODE2, REGION1);
        for (Node n : List.of(N1, n2)) {
            assertThat(warm.poolsFor(n).stream().map(p -> p.pool().id() + p.slices()).toList()).as(n.name())
                    .isEqualTo(cold.poolsFor(n).stream().map(p -> p.pool().id() + p.slices()).toList());
        }
        // equal device lists share a number, different ones do not, however the numbers were handed out
        NodePool onN1 = warm.poolsFor(N1).get(0);
        NodePool onN2 = warm.poolsFor(n2).get(0);
        NodePool otherList = warm.poolsFor(N1).get(1);
        assertThat(onN1.pool().sliceLooks[0]).as("computed by warming").isNotNegative();
        assertThat(warm.devicesLook(onN1.pool(), 0)).isEqualTo(warm.devicesLook(onN2.pool(), 0))
                .isNotEqualTo(warm.devicesLook(otherList.pool(), 0));
        assertThat(cold.poolsFor(N1).get(0).pool().sliceLooks[0]).as("cold: only on first use").isNegative();
    }

    @Test
    void deviceListsDifferingOnlyInAttributesNothingReadsLookAlike() {
        DeviceAttribute h100 = new DeviceAttribute.StringValue("H100");
        ResourceSlice a1 = slice("a1", NODE1, POOL1, DRIVER_A,
                dev("x").attr("model", h100).attr("uuid", new DeviceAttribute.StringValue("GPU-1")));
        ResourceSlice a2 = slice("a2", NODE2, POOL3, DRIVER_A,
                dev("x").attr("model", h100).attr("uuid", new DeviceAttribute.StringValue("GPU-2")));
        ResourceSlice a3 = slice("a3", "node-3", "pool-4", DRIVER_A,
                dev("x").attr("model", new DeviceAttribute.StringValue("L4"))
                        .attr("uuid", new DeviceAttribute.StringValue("GPU-3")));
        List<ResourceSlice> slices = List.of(a1, a2, a3);

        DraIndex model = DraIndex.build(List.of(), slices, List.of());
        model.readAttributes(java.util.Set.of(DRIVER_A + "/model")); // read unqualified in the driver's own domain
        assertThat(look(model, NODE1)).as("uuid not read").isEqualTo(look(model, NODE2))
                .as("model read").isNotEqualTo(look(model, "node-3"));

        DraIndex uuid = DraIndex.build(List.of(), slices, List.of());
        uuid.readAttributes(java.util.Set.of(DRIVER_A + "/model", DRIVER_A + "/uuid"));
        assertThat(look(uuid, NODE1)).isNotEqualTo(look(uuid, NODE2));

        DraIndex unknown = DraIndex.build(List.of(), slices, List.of());
        unknown.readAttributes(null); // a selector that cannot say what it reads: every attribute counts
        assertThat(look(unknown, NODE1)).isNotEqualTo(look(unknown, NODE2));
    }

    @Test
    void aDeviceListThatLeavesOutUnreadAttributesStillComparesEveryOtherField() {
        // DeviceList compares devices field by field when it leaves attributes out: a new Device field needs a line there
        assertThat(java.util.Arrays.stream(Device.class.getRecordComponents()).map(c -> c.getName()))
                .containsExactly("name", "attributes", "capacity", "consumesCounters", "taints",
                        "allowMultipleAllocations", "bindsToNode", "bindingConditions", "bindingFailureConditions",
                        "nodeName", "nodeSelector", "allNodes");
        DeviceList.Reads read = new DeviceList.Reads(java.util.Set.of("model"));
        Device plain = dev("x").attr("uuid", new DeviceAttribute.StringValue("GPU-1")).build();
        Device shared = dev("x").attr("uuid", new DeviceAttribute.StringValue("GPU-2")).multi().build();
        assertThat(DeviceList.of(List.of(plain), read)).isNotEqualTo(DeviceList.of(List.of(shared), read));
    }

    @Test
    void readAttributesCompareAlikeWhateverTheOrderAndKeyObjectsOfTheMaps() {
        // read attributes are found by position in maps of one key layout, by name across layouts
        DeviceList.Reads read = new DeviceList.Reads(java.util.Set.of("model", "memory"));
        DeviceAttribute h100 = new DeviceAttribute.StringValue("H100");
        DeviceAttribute mem = new DeviceAttribute.IntValue(80);
        Device a = dev("x").attr("model", h100).attr("memory", mem).attr("uuid", new DeviceAttribute.StringValue("1"))
                .build();
        Device b = dev("x").attr("model", h100).attr("memory", mem).attr("uuid", new DeviceAttribute.StringValue("2"))
                .build();
        Device reordered = dev("x").attr("uuid", new DeviceAttribute.StringValue("3"))
                .attr(new String("memory"), new DeviceAttribute.IntValue(80))
                .attr(new String("model"), new DeviceAttribute.StringValue("H100")).build();
        Device other = dev("x").attr("model", h100).attr("memory", new DeviceAttribute.IntValue(40))
                .attr("uuid", new DeviceAttribute.StringValue("4")).build();
        Device missing = dev("x").attr("model", h100).attr("uuid", new DeviceAttribute.StringValue("5")).build();
        DeviceList ab = DeviceList.of(List.of(a, b), read);
        assertThat(ab).isEqualTo(DeviceList.of(List.of(b, a), read))
                .isEqualTo(DeviceList.of(List.of(reordered, a), read))
                .isNotEqualTo(DeviceList.of(List.of(a, other), read))
                .isNotEqualTo(DeviceList.of(List.of(a, missing), read));
        assertThat(ab.hashCode()).isEqualTo(DeviceList.of(List.of(reordered, reordered), read).hashCode());
        assertThat(DeviceList.of(List.of(a, b), new DeviceList.Reads(java.util.Set.of("model", "memory"))))
                .as("the same reads, kept apart").isEqualTo(ab);
    }

    @Test
    void theCatalogCollectsWhatSelectorsAndConstraintsReadOrNothingWhenASelectorCannotSay() {
        DeviceSelector reads = new DeviceSelector() {
            @Override
            public String expression() {
                return "device.attributes['" + DRIVER_A + "'].model == 'H100'";
            }

            @Override
            public boolean matches(SelectorDevice device) {
                return true;
            }

            @Override
            public SelectorReads reads() {
                return new SelectorReads(List.of(new SelectorReads.Name(DRIVER_A, "model")), List.of());
            }
        };
        ResourceClaimSpec spec = new ResourceClaimSpec(List.of(request("gpu", "gpus", 1, reads)),
                List.of(new ResourceClaimSpec.Constraint(List.of(), "example.com/interconnect", null)), List.of());
        DeviceClass plain = new DeviceClass("gpus", List.of(), List.of(), null, 0);
        assertThat(ClaimCatalog.readAttributes(List.of(plain), List.of(spec)))
                .containsExactlyInAnyOrder(DRIVER_A + "/model", "example.com/interconnect");

        ResourceClaimSpec opaque = new ResourceClaimSpec(List.of(request("gpu", "gpus", 1, memoryAtLeast("40Gi"))),
                List.of(), List.of());
        assertThat(ClaimCatalog.readAttributes(List.of(plain), List.of(spec, opaque)))
                .as("a request selector that cannot say").isNull();
        assertThat(ClaimCatalog.readAttributes(List.of(deviceClass("gpus", DRIVER_A)), List.of(spec)))
                .as("a class selector that cannot say").isNull();
    }

    private static int look(DraIndex index, String node) {
        NodePool p = index.poolsFor(node(node, REGION1)).get(0);
        return index.devicesLook(p.pool(), p.sliceIndexes()[0]);
    }

    @Test
    void aWarmedCatalogKnowsEachNodesDeviceStateUntilTheNodeIsTouched() {
        ResourceSlice a1 = slice("a1", NODE1, POOL1, DRIVER_A, dev(DEVICE1), dev(DEVICE2));
        ResourceSlice a2 = slice("a2", NODE2, POOL3, DRIVER_A, dev(DEVICE1), dev(DEVICE2));
        AllocationResult held = allocated("driver-a/pool-3/" + DEVICE1).get(0);
        ResourceClaim claim = new ResourceClaim("ns", "held", "uid-held", claimWithRequest("ns/held", REQ0, CLASS_A).spec(),
                held, List.of(), false);
        ResourceClaimSpec spec = claimWithRequest("ns/x", REQ0, CLASS_A).spec();
        DraObjects objects = new DraObjects(List.of(deviceClass(CLASS_A, DRIVER_A)), List.of(a1, a2), List.of(claim), null);
        ClaimCatalog warmed = new ClaimCatalog(objects).warm();
        ClaimBook warm = new ClaimBook(warmed, 1_000);
        ClaimBook alsoWarm = new ClaimBook(warmed, 1_000);
        ClaimBook cold = new ClaimBook(new ClaimCatalog(objects), 1_000);
        Node n2 = node(NODE2, REGION1);
        for (Node n : List.of(N1, n2)) {
            assertThat(warm.deviceState(n)).as(n.name()).isEqualTo(cold.deviceState(n)).isSameAs(alsoWarm.deviceState(n));
        }
        assertThat(warm.deviceState(N1)).as("one device held on node 2").isNotEqualTo(warm.deviceState(n2));
        List<ClaimBook.ClaimUse> uses = List.of(new ClaimBook.ClaimUse("ns/c", "t", spec, ClaimConsumer.pod("p", "u")));
        PodRef pod = new PodRef("ns", "p");
        assertThat(warm.reserve(pod, N1, uses, 0)).isNull();
        assertThat(cold.reserve(pod, N1, uses, 0)).isNull();
        assertThat(warm.deviceState(N1)).as("after a reserve: worked out again")
                .isEqualTo(cold.deviceState(N1)).isEqualTo(warm.deviceState(n2)).isNotSameAs(alsoWarm.deviceState(N1));
        warm.unreserve(pod);
        assertThat(warm.deviceState(N1)).isEqualTo(alsoWarm.deviceState(N1));
    }

    @Test
    void aWarmUpSharedByTwoThreadsWorksOutWhatOneThreadDoes() throws Exception {
        List<Node> nodes = new java.util.ArrayList<>();
        List<ResourceSlice> slices = oneSliceEach(40, 3, nodes);
        AllocationResult held = allocated("driver-a/pool-7/" + DEVICE1).get(0);
        ResourceClaim claim = new ResourceClaim("ns", "held", "uid-held", claimWithRequest("ns/held", REQ0, CLASS_A).spec(),
                held, List.of(), false);
        DraObjects objects = new DraObjects(List.of(deviceClass(CLASS_A, DRIVER_A)), slices, List.of(claim), null);
        ClaimCatalog whole = new ClaimCatalog(objects).warm();
        ClaimCatalog shared = new ClaimCatalog(objects);
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            java.util.concurrent.Future<?> a = pool.submit(() -> shared.warmShare(null, 3));
            java.util.concurrent.Future<?> b = pool.submit(() -> shared.warmShare(null, 3));
            a.get();
            b.get();
        } finally {
            pool.shutdown();
        }
        ClaimBook one = new ClaimBook(whole, 1_000);
        ClaimBook two = new ClaimBook(shared, 1_000);
        ClaimBook cold = new ClaimBook(new ClaimCatalog(objects), 1_000);
        // a state numbers device lists in the order the index first met them, which two threads may change: what must
        // agree is which nodes share a state, and the states of one catalog compared among themselves
        for (Node n : nodes) {
            assertThat(shared.index.devicesOf(n).untouched).as(n.name() + " worked out ahead").isNotNull();
            for (Node m : nodes) {
                boolean alike = one.deviceState(n).equals(one.deviceState(m));
                assertThat(two.deviceState(n).equals(two.deviceState(m))).as(n.name() + " ~ " + m.name()).isEqualTo(alike);
                assertThat(cold.deviceState(n).equals(cold.deviceState(m))).as(n.name() + " ~ " + m.name())
                        .isEqualTo(alike);
            }
        }
        assertThat(one.deviceState(nodes.get(3))).as("single devices alike").isEqualTo(one.deviceState(nodes.get(6)));
        assertThat(one.deviceState(nodes.get(1))).as("one device or two").isNotEqualTo(one.deviceState(nodes.get(3)));
        assertThat(two.deviceState(nodes.get(3))).as("equal states: one object").isSameAs(two.deviceState(nodes.get(6)));
        assertThat(two.deviceState(nodes.get(7))).as("a device held on node 7").isNotEqualTo(two.deviceState(nodes.get(4)));
    }

    @Test
    void aCatalogWarmedForASnapshotsNodesFindsEachNodesDevicesByPosition() throws Exception {
        List<Node> nodes = new java.util.ArrayList<>();
        List<ResourceSlice> slices = oneSliceEach(12, 2, nodes);
        DraObjects objects = new DraObjects(List.of(deviceClass(CLASS_A, DRIVER_A)), slices, List.of(),
                List.of(new ResourceClaimTemplate("ns", "t", claimWithRequest("ns/t", REQ0, CLASS_A).spec())));
        ClaimCatalog byPosition = new ClaimCatalog(objects);
        Thread other = new Thread(() -> byPosition.warmShare(nodes, 2));
        other.start();
        byPosition.warmShare(nodes, 2);
        other.join();
        ClaimBook cold = new ClaimBook(new ClaimCatalog(objects), 1_000);
        ClaimBook warm = new ClaimBook(byPosition, 1_000);
        for (int i = 0; i < nodes.size(); i++) {
            Node n = nodes.get(i);
            assertThat(byPosition.index.devicesOf(i, n)).as(n.name()).isSameAs(byPosition.index.devicesOf(n));
            assertThat(byPosition.index.devicesOf(i, n).untouched).as(n.name() + " worked out ahead").isNotNull();
            assertThat(warm.deviceState(i, n)).isEqualTo(cold.deviceState(n));
        }
        // a reserve on node 4 changes what position 4 says, as it does for a node looked up by name
        Object before = warm.deviceState(4, nodes.get(4));
        ResourceClaimSpec spec = claimWithRequest("ns/x", REQ0, CLASS_A).spec();
        List<ClaimBook.ClaimUse> uses = List.of(new ClaimBook.ClaimUse("ns/c", "t", spec, ClaimConsumer.pod("p", "u")));
        PodRef pod = new PodRef("ns", "p");
        assertThat(warm.reserve(pod, nodes.get(4), uses, 0)).isNull();
        assertThat(cold.reserve(pod, nodes.get(4), uses, 0)).isNull();
        assertThat(warm.deviceState(4, nodes.get(4))).as("touched").isNotEqualTo(before)
                .isEqualTo(cold.deviceState(nodes.get(4)));
        assertThat(warm.deviceState(5, nodes.get(5))).as("another node, untouched")
                .isEqualTo(cold.deviceState(nodes.get(5)));
        warm.unreserve(pod);
        assertThat(warm.deviceState(4, nodes.get(4))).as("given back").isSameAs(before);
        Node stranger = node("node-3", REGION1); // same name, another object: looked up by name
        assertThat(byPosition.index.devicesOf(3, stranger)).isSameAs(byPosition.index.devicesOf(nodes.get(3)));
        assertThat(byPosition.index.devicesOf(2, nodes.get(5))).as("a node at another position")
                .isSameAs(byPosition.index.devicesOf(nodes.get(5))).isNotSameAs(byPosition.index.devicesOf(2, nodes.get(2)));
    }

    /**
     * Nodes {@code node-0} … each with one slice of its own pool ({@code pool-i}): one device on every
     * {@code singleEvery}-th node, two on the others. The nodes are added to {@code nodes}, in order.
     */
    private static List<ResourceSlice> oneSliceEach(int count, int singleEvery, List<Node> nodes) {
        List<ResourceSlice> slices = new java.util.ArrayList<>();
        for (int i = 0; i < count; i++) {
            String name = "node-" + i;
            nodes.add(node(name, REGION1));
            slices.add(slice("s" + i, name, "pool-" + i, DRIVER_A, i % singleEvery == 0 ? new Dev[] {dev(DEVICE1)}
                    : new Dev[] {dev(DEVICE1), dev(DEVICE2)}));
        }
        return slices;
    }

    @Test
    void countersOfAPoolOnOneNodeKeepItNodeLocal() {
        ResourceSlice counters = counterSlice(SLICE2, NODE1, pool(POOL1, 2), DRIVER_A, counterSet(COUNTER_SET1, "c", "3"));
        ResourceSlice devices = slice(SLICE1, NODE1, pool(POOL1, 2), DRIVER_A, dev("p").consumes(COUNTER_SET1, "c", "1"));
        DraIndex index = DraIndex.build(List.of(), List.of(counters, devices), List.of());
        index.warmNodePools();
        assertThat(index.allNodeLocal()).as("the counters only matter to the node the devices are on").isTrue();
        assertThat(index.poolsFor(N1)).hasSize(1);
        assertThat(index.poolsFor(N1).get(0).slices()).as("the counters' slice holds no device").containsExactly(devices);
        assertThat(index.poolsFor(N1).get(0).pool().sliceLooks).as("the device slice worked out ahead")
                .contains(-1).doesNotHaveDuplicates();
    }

    @Test
    void warmingLeavesIndexesWithSharedPoolsToFirstUse() {
        // one counter set consumed by devices on two nodes: what one node takes, the other loses
        ResourceSlice counters = counterSlice(SLICE2, NODE1, pool(POOL1, 3), DRIVER_A, counterSet(COUNTER_SET1, "c", "3"));
        ResourceSlice devices = slice(SLICE1, NODE1, pool(POOL1, 3), DRIVER_A, dev("p").consumes(COUNTER_SET1, "c", "1"));
        ResourceSlice more = slice("slice-3", NODE2, pool(POOL1, 3), DRIVER_A, dev("q").consumes(COUNTER_SET1, "c", "1"));
        DraIndex index = DraIndex.build(List.of(), List.of(counters, devices, more), List.of());
        index.warmNodePools();
        assertThat(index.allNodeLocal()).isFalse();
        assertThat(index.poolsFor(N1).get(0).pool().sliceLooks).as("nothing worked out ahead").containsOnly(-1);
        assertThat(index.poolsFor(N1)).hasSize(1);
    }

    @Test
    void incompleteAndInvalidPoolsAreFlaggedAndSlicesSortedByName() {
        ResourceSlice b = slice("b", NODE1, pool(POOL1, 3), DRIVER_A, dev("x"));
        ResourceSlice a = slice("a", NODE1, pool(POOL1, 3), DRIVER_A, dev("y"));
        ResourceSlice dup1 = slice("d1", NODE1, pool(POOL2, 2), DRIVER_A, dev("same"));
        ResourceSlice dup2 = slice("d2", NODE1, pool(POOL2, 2), DRIVER_A, dev("same"));
        DraIndex index = DraIndex.build(List.of(), List.of(b, a, dup1, dup2), List.of());
        NodePool p1 = index.poolsFor(N1).get(0);
        assertThat(p1.pool().incomplete).isTrue();
        assertThat(p1.slices()).containsExactly(a, b);
        NodePool p2 = index.poolsFor(N1).get(1);
        assertThat(p2.pool().incomplete).isFalse();
        assertThat(p2.pool().invalidReason()).isEqualTo("duplicate device name same");
        // within one slice, as among slices
        ResourceSlice twins = slice("t", NODE1, POOL3, DRIVER_A, dev("twin"), dev("other"), dev("twin"));
        ResourceSlice distinct = slice("u", NODE2, POOL3, DRIVER_B, dev("one"), dev("two"), dev("three"));
        DraIndex again = DraIndex.build(List.of(), List.of(twins, distinct), List.of());
        assertThat(again.poolsFor(N1).get(0).pool().invalidReason()).isEqualTo("duplicate device name twin");
        assertThat(again.poolsFor(node(NODE2, REGION1)).get(0).pool().invalid()).isFalse();
    }

    @Test
    void snapshotAllocationsSkipAdminAccessAndCountSharesAndCounters() {
        ResourceSlice devices = slice(SLICE1, NODE1, pool(POOL1, 2), DRIVER_A,
                dev("p").consumes(COUNTER_SET1, "c", "1"), dev("q").consumes(COUNTER_SET1, "c", "1"),
                dev("m").multi().cap(CAPACITY0, "4").consumes(COUNTER_SET1, "c", "1"));
        ResourceSlice counters = counterSlice(SLICE2, NODE1, pool(POOL1, 2), DRIVER_A, counterSet(COUNTER_SET1, "c", "3"));
        AllocationResult admin = new AllocationResult(List.of(new AllocationResult.DeviceResult("r", DRIVER_A, POOL1, "q",
                true, null, null, null, null, null)), null, null);
        List<AllocationResult> snapshot = List.of(allocated("driver-a/pool-1/p").get(0), admin,
                allocatedShare(DRIVER_A, POOL1, "m", "1"), allocatedShare(DRIVER_A, POOL1, "m", "2"));
        DraIndex index = DraIndex.build(List.of(), List.of(devices, counters), snapshot);
        DeviceLedger ledger = index.newLedger();
        assertThat(ledger.isAllocatedExclusively(new AllocatedDevice(DRIVER_A, POOL1, "p"))).isTrue();
        assertThat(ledger.isInUse(new AllocatedDevice(DRIVER_A, POOL1, "q"))).isFalse();
        assertThat(ledger.holders(new AllocatedDevice(DRIVER_A, POOL1, "m"))).isEqualTo(2);
        assertThat(ledger.consumedCapacity(new AllocatedDevice(DRIVER_A, POOL1, "m")))
                .isEqualTo(Map.of(DRIVER_A + "/" + CAPACITY0, new BigDecimal("3")));
        // p and m (once, however many shares) consume counters
        assertThat(ledger.availableCounter(DRIVER_A, POOL1, COUNTER_SET1, "c")).isEqualByComparingTo("1");
    }

    @Test
    void markAndRollbackUndoReserveAndRelease() {
        ResourceSlice s = slice(SLICE1, NODE1, pool(POOL1, 2), DRIVER_A, dev("p").consumes(COUNTER_SET1, "c", "2"), dev("m").multi().cap(CAPACITY0, "4"));
        ResourceSlice counters = counterSlice(SLICE2, NODE1, pool(POOL1, 2), DRIVER_A, counterSet(COUNTER_SET1, "c", "3"));
        AllocationResult snapshotP = allocated("driver-a/pool-1/p").get(0);
        DraIndex index = DraIndex.build(List.of(), List.of(s, counters), List.of(snapshotP));
        DeviceLedger ledger = index.newLedger();
        AllocatedDevice p = new AllocatedDevice(DRIVER_A, POOL1, "p");
        AllocatedDevice m = new AllocatedDevice(DRIVER_A, POOL1, "m");
        int start = ledger.mark();
        ledger.release(snapshotP);
        assertThat(ledger.isInUse(p)).isFalse();
        assertThat(ledger.availableCounter(DRIVER_A, POOL1, COUNTER_SET1, "c")).isEqualByComparingTo("3");
        int mid = ledger.mark();
        ledger.reserve(allocatedShare(DRIVER_A, POOL1, "m", "3"));
        assertThat(ledger.consumedCapacity(m)).containsEntry(DRIVER_A + "/" + CAPACITY0, new BigDecimal("3"));
        ledger.rollbackTo(mid);
        assertThat(ledger.holders(m)).isZero();
        assertThat(ledger.consumedCapacity(m)).isEmpty();
        ledger.rollbackTo(start);
        assertThat(ledger.isAllocatedExclusively(p)).isTrue();
        assertThat(ledger.availableCounter(DRIVER_A, POOL1, COUNTER_SET1, "c")).isEqualByComparingTo("1");
        assertThat(index.isAllocated(p)).isTrue();
        assertThatThrownBy(() -> ledger.rollbackTo(99)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void copiesOfAStateShareNothingTheyWrite() {
        ResourceSlice s = slice(SLICE1, NODE1, POOL1, DRIVER_A, dev("p"), dev("q"), dev("m").multi().cap(CAPACITY0, "4"));
        AllocationResult snapshotP = allocated("driver-a/pool-1/p").get(0);
        DraIndex index = DraIndex.build(List.of(), List.of(s), List.of(snapshotP));
        AllocatedDevice p = new AllocatedDevice(DRIVER_A, POOL1, "p");
        AllocatedDevice q = new AllocatedDevice(DRIVER_A, POOL1, "q");
        AllocatedDevice m = new AllocatedDevice(DRIVER_A, POOL1, "m");
        DeviceLedger one = index.newLedger();
        DeviceLedger two = index.newLedger();
        int start = one.mark();
        one.reserve(allocated("driver-a/pool-1/q").get(0));
        one.reserve(allocatedShare(DRIVER_A, POOL1, "m", "1"));
        one.release(snapshotP);
        assertThat(one.isInUse(q)).isTrue();
        assertThat(one.isInUse(p)).isFalse();
        assertThat(two.isInUse(q)).as("another run's ledger").isFalse();
        assertThat(two.isAllocatedExclusively(p)).isTrue();
        assertThat(index.isAllocated(q)).as("the index's own state").isFalse();
        assertThat(index.isAllocated(p)).isTrue();

        DeviceLedger.State copy = one.snapshot();
        PoolDevice qd = index.device(q);
        PoolDevice pd = index.device(p);
        PoolDevice md = index.device(m);
        one.rollbackTo(start);
        assertThat(one.isInUse(q)).isFalse();
        assertThat(one.holders(m)).isZero();
        assertThat(one.isAllocatedExclusively(p)).isTrue();
        assertThat(copy.inUse(qd)).as("the copy keeps what was held when it was taken").isTrue();
        assertThat(copy.shareHolders(md)).isEqualTo(1);
        assertThat(copy.inUse(pd)).isFalse();
        one.reserve(allocated("driver-a/pool-1/q").get(0));
        one.rollbackTo(start);
        assertThat(copy.inUse(qd)).as("a write and its undo after the copy: still the copy's own").isTrue();
        assertThat(index.isAllocated(q)).isFalse();
    }

    @Test
    void nodeVersionsNameTheWayDevicesAreHeldAndComeBackWithARollback() {
        DraIndex index = DraIndex.build(List.of(deviceClass(CLASS_A, DRIVER_A)), List.of(
                slice(SLICE1, NODE1, POOL1, DRIVER_A, dev(DEVICE1), dev(DEVICE2), dev("d3")),
                slice(SLICE2, NODE1, POOL2, DRIVER_B, dev(DEVICE1)),
                slice("s3", NODE2, POOL3, DRIVER_A, dev(DEVICE1))), List.of());
        Node n2 = node(NODE2, REGION1);
        DeviceLedger ledger = index.newLedger();
        AllocationResult a = allocated("driver-a/pool-1/" + DEVICE1).get(0);
        AllocationResult b = allocated("driver-a/pool-1/" + DEVICE2).get(0);
        AllocationResult onOtherPool = allocated("driver-b/pool-2/" + DEVICE1).get(0);
        long v0 = ledger.nodeVersion(N1);
        assertThat(v0).as("untouched").isZero();
        int start = ledger.mark();
        ledger.reserve(a);
        long v1 = ledger.nodeVersion(N1);
        ledger.reserve(b);
        long v2 = ledger.nodeVersion(N1);
        ledger.reserve(onOtherPool);
        long v3 = ledger.nodeVersion(N1);
        assertThat(List.of(v0, v1, v2, v3)).doesNotHaveDuplicates();
        assertThat(ledger.nodeVersion(n2)).as("another node's pools were not touched").isZero();
        ledger.rollbackTo(start);
        assertThat(ledger.nodeVersion(N1)).isEqualTo(v0);
        // the same allocations in the same order walk through the same numbers again
        ledger.reserve(a);
        assertThat(ledger.nodeVersion(N1)).isEqualTo(v1);
        ledger.reserve(b);
        assertThat(ledger.nodeVersion(N1)).isEqualTo(v2);
        ledger.reserve(onOtherPool);
        assertThat(ledger.nodeVersion(N1)).isEqualTo(v3);
        ledger.rollbackTo(start);
        // another order, or an equal allocation that is another object, is another path: a number never met before
        ledger.reserve(b);
        assertThat(ledger.nodeVersion(N1)).isNotIn(v0, v1, v2, v3);
        ledger.rollbackTo(start);
        ledger.reserve(allocated("driver-a/pool-1/" + DEVICE1).get(0));
        assertThat(ledger.nodeVersion(N1)).isNotIn(v0, v1, v2, v3);
        // a release is a step of its own: taking a device and giving it back does not claim the first number
        ledger.rollbackTo(start);
        ledger.reserve(a);
        ledger.release(a);
        assertThat(ledger.nodeVersion(N1)).isNotIn(v0, v1, v2, v3);
        assertThat(ledger.isInUse(new AllocatedDevice(DRIVER_A, POOL1, DEVICE1))).isFalse();
    }

    @Test
    void rememberedStepsStartOverWithoutReusingANumber() {
        DraIndex index = DraIndex.build(List.of(deviceClass(CLASS_A, DRIVER_A)),
                List.of(slice(SLICE1, NODE1, POOL1, DRIVER_A, dev(DEVICE1), dev(DEVICE2))), List.of());
        DeviceLedger ledger = index.newLedger();
        AllocationResult a = allocated("driver-a/pool-1/" + DEVICE1).get(0);
        int start = ledger.mark();
        ledger.reserve(a);
        long first = ledger.nodeVersion(N1);
        ledger.rollbackTo(start);
        java.util.Set<Long> seen = new java.util.HashSet<>(List.of(0L, first));
        for (int i = 0; i < DeviceLedger.STEPS_PER_POOL + 10; i++) { // each a new object: a new step
            ledger.reserve(allocated("driver-a/pool-1/" + DEVICE2).get(0));
            assertThat(seen.add(ledger.nodeVersion(N1))).as("step %d got a number already used", i).isTrue();
            ledger.rollbackTo(start);
        }
        ledger.reserve(a);
        assertThat(ledger.nodeVersion(N1)).as("forgotten: a new number, not another state's").isNotIn(seen);
        ledger.rollbackTo(start);
        assertThat(ledger.nodeVersion(N1)).isZero();
    }

    @Test
    void aTrialTakenBackAndRunAgainFindsItsFirstFitsRemembered() {
        ResourceClaimSpec spec = claimWithRequest("ns/x", REQ0, CLASS_A).spec();
        DraObjects objects = new DraObjects(List.of(deviceClass(CLASS_A, DRIVER_A)),
                List.of(slice(SLICE1, NODE1, POOL1, DRIVER_A, dev(DEVICE1), dev(DEVICE2), dev("d3"))), null, null);
        ClaimBook book = new ClaimBook(new ClaimCatalog(objects), 1_000);
        List<Allocator.Outcome> first = new java.util.ArrayList<>();
        for (int i = 0; i < 3; i++) {
            List<ClaimBook.ClaimUse> uses = List.of(new ClaimBook.ClaimUse("ns/c" + i, "t", spec,
                    ClaimConsumer.pod("p" + i, "u" + i)));
            Allocator.Outcome o = book.allocate(N1, uses);
            first.add(o);
            assertThat(book.reserve(new PodRef("ns", "p" + i), N1, uses, 0)).isNull();
        }
        assertThat(book.allocate(N1, List.of(new ClaimBook.ClaimUse("ns/c9", "t", spec, ClaimConsumer.pod("p9", "u9")))))
                .as("all three devices taken").isInstanceOf(Allocator.Unfit.class);
        for (int i = 2; i >= 0; i--) {
            book.unreserve(new PodRef("ns", "p" + i)); // Unreserve, newest first
        }
        for (int i = 0; i < 3; i++) {
            List<ClaimBook.ClaimUse> uses = List.of(new ClaimBook.ClaimUse("ns/c" + i, "t", spec,
                    ClaimConsumer.pod("p" + i, "u" + i)));
            assertThat(book.allocate(N1, uses)).as("member %d: the answer of the first run, not a new search", i)
                    .isSameAs(first.get(i));
            book.reserve(new PodRef("ns", "p" + i), N1, uses, 0);
        }
        assertThat(((Allocator.Allocated) first.get(2)).results().get(0).devices().get(0).device()).isEqualTo("d3");
    }

    @Test
    void firstFitsKeptByPositionBelongToTheNodeTheyWereKeptFor() {
        ResourceClaimSpec spec = claimWithRequest("ns/x", REQ0, CLASS_A).spec();
        Node n2 = node(NODE2, REGION1);
        DraObjects objects = new DraObjects(List.of(deviceClass(CLASS_A, DRIVER_A)), List.of(
                slice(SLICE1, NODE1, POOL1, DRIVER_A, dev(DEVICE1), dev(DEVICE2)),
                slice("slice-2", NODE2, POOL3, DRIVER_A, dev("far"))), null, null);
        ClaimBook book = new ClaimBook(new ClaimCatalog(objects), 1_000, 2);
        List<ClaimBook.ClaimUse> uses = List.of(new ClaimBook.ClaimUse("ns/c0", "t", spec, ClaimConsumer.pod("p0", "u0")));
        Allocator.Outcome onN1 = book.allocate(0, N1, uses);
        assertThat(book.allocate(0, N1, uses)).as("remembered at its position").isSameAs(onN1);
        assertThat(book.allocate(N1, uses)).as("by name: another memory, the same answer").isEqualTo(onN1);
        Allocator.Outcome onN2 = book.allocate(0, n2, uses);
        assertThat(((Allocator.Allocated) onN2).results().get(0).devices().get(0).device())
                .as("a slot kept for node-1 is not node-2's answer").isEqualTo("far");
        assertThat(book.allocate(5, N1, uses)).as("a position past the snapshot's nodes: by name")
                .isEqualTo(onN1);
        assertThat(book.reserve(new PodRef("ns", "p0"), 1, n2, uses, 0)).isNull();
        List<ClaimBook.ClaimUse> next = List.of(new ClaimBook.ClaimUse("ns/c1", "t", spec, ClaimConsumer.pod("p1", "u1")));
        assertThat(book.allocate(1, n2, next)).as("its device taken: a new search, not the kept answer")
                .isInstanceOf(Allocator.Unfit.class);
    }

    @Test
    void reservedDevicesAreTakenForLaterAllocations() {
        DraIndex index = DraIndex.build(List.of(deviceClass(CLASS_A, DRIVER_A)),
                List.of(slice(SLICE1, NODE1, POOL1, DRIVER_A, dev(DEVICE1), dev(DEVICE2))), List.of());
        DeviceLedger ledger = index.newLedger();
        List<Allocator.PendingClaim> claims = List.of(claimWithRequest("ns/a", REQ0, CLASS_A));
        Allocator.Allocated first = (Allocator.Allocated) Allocator.allocate(ledger, N1, claims, 100);
        ledger.reserve(first.results().get(0));
        Allocator.Allocated second = (Allocator.Allocated) Allocator.allocate(ledger, N1, claims, 100);
        assertThat(second.results().get(0).devices().get(0).device()).isEqualTo(DEVICE2);
        ledger.reserve(second.results().get(0));
        assertThat(Allocator.allocate(ledger, N1, claims, 100)).isInstanceOf(Allocator.Unfit.class);
    }

    @Test
    void aDeviceAnswerWithoutCapacityRequestsStillCountsWhatSharesHold() {
        // A device that does not allow multiple allocations, whose whole capacity an allocation without capacity
        // requests takes. The index keeps that answer per device; a ledger in which a share (input that names a
        // share of it) consumes part of the capacity must still refuse it, before and after the answer is kept.
        DraIndex index = DraIndex.build(List.of(deviceClass(CLASS_A, DRIVER_A)),
                List.of(slice(SLICE1, NODE1, POOL1, DRIVER_A, dev(DEVICE1).cap(CAPACITY0, "4"))), List.of());
        List<Allocator.PendingClaim> claims = List.of(claimWithRequest("ns/a", REQ0, CLASS_A));
        DeviceLedger shared = index.newLedger();
        shared.reserve(allocatedShare(DRIVER_A, POOL1, DEVICE1, "1"));
        assertThat(Allocator.allocate(shared, N1, claims, 100)).isInstanceOf(Allocator.Unfit.class);
        Allocator.Allocated clean = (Allocator.Allocated) Allocator.allocate(index.newLedger(), N1, claims, 100);
        assertThat(clean.results().get(0).devices().get(0).device()).isEqualTo(DEVICE1);
        assertThat(Allocator.allocate(shared, N1, claims, 100)).isInstanceOf(Allocator.Unfit.class);
        assertThat(Allocator.allocate(index.newLedger(), N1, claims, 100)).isEqualTo(clean);
    }

    @Test
    void shareIdsAreDeterministicAndDistinct() {
        DraIndex index = DraIndex.build(List.of(deviceClass(CLASS_A, DRIVER_A)),
                List.of(slice(SLICE1, NODE1, POOL1, DRIVER_A, dev(DEVICE1).multi().cap(CAPACITY0, "4"))), List.of());
        Allocator.PendingClaim c = claim("ns/a", exactCap(REQ0), exactCap(REQ1));
        Allocator.Allocated one = (Allocator.Allocated) Allocator.allocate(index.newLedger(), N1, List.of(c), 100);
        Allocator.Allocated two = (Allocator.Allocated) Allocator.allocate(index.newLedger(), N1, List.of(c), 100);
        assertThat(one.results()).isEqualTo(two.results());
        List<AllocationResult.DeviceResult> ds = one.results().get(0).devices();
        assertThat(ds).hasSize(2);
        assertThat(ds.get(0).shareID()).isNotEqualTo(ds.get(1).shareID()).matches("[0-9a-f-]{36}");
        assertThat(ds.get(0).consumedCapacity()).isEqualTo(Map.of(CAPACITY0, "1500m"));
    }

    @Test
    void validValuesRoundUpAndRangeStepsRound() {
        Device.Capacity values = new Device.Capacity("10", new Device.RequestPolicy(null, List.of("1", "4", "8"), null));
        Device.Capacity range = new Device.Capacity("10", new Device.RequestPolicy(null, null, new Device.ValidRange("2", "9", "3")));
        Capacities.Resolved v = new Capacities.Resolved("x", values, new BigDecimal(10));
        Capacities.Resolved r = new Capacities.Resolved("x", range, new BigDecimal(10));
        assertThat(Capacities.consumed(new BigDecimal(3), v)).isEqualByComparingTo("4");
        assertThat(Capacities.consumed(new BigDecimal(9), v)).isEqualByComparingTo("9");
        assertThat(Capacities.violatesPolicy(new BigDecimal(9), values.requestPolicy())).isTrue();
        assertThat(Capacities.consumed(new BigDecimal(1), r)).isEqualByComparingTo("2");
        assertThat(Capacities.consumed(new BigDecimal(6), r)).isEqualByComparingTo("8");
        assertThat(Capacities.violatesPolicy(new BigDecimal(11), range.requestPolicy())).isTrue();
        assertThat(Capacities.consumed(null, r)).isEqualByComparingTo("10");
        assertThat(Capacities.render(new BigDecimal("1.5"))).isEqualTo("1500m");
        assertThat(Capacities.render(new BigDecimal("0.0000005"))).isEqualTo("500n");
        assertThat(Capacities.render(new BigDecimal("1073741824"))).isEqualTo("1073741824");
    }

    @Test
    void capacityNamedTwiceIsAnError() {
        DraIndex index = DraIndex.build(List.of(deviceClass(CLASS_A, DRIVER_A)),
                List.of(slice(SLICE1, NODE1, POOL1, DRIVER_A, dev(DEVICE1).multi().cap(CAPACITY0, "4"))), List.of());
        Allocator.PendingClaim c = claim("ns/a", exact(REQ0, CLASS_A, ResourceClaimSpec.AllocationMode.ExactCount, 1, false, null,
                Map.of(CAPACITY0, "1", DRIVER_A + "/" + CAPACITY0, "1")));
        Allocator.Outcome o = Allocator.allocate(index.newLedger(), N1, List.of(c), 100);
        assertThat(o).isInstanceOf(Allocator.Failed.class);
        assertThat(((Allocator.Failed) o).message()).contains("requested twice");
    }

    @Test
    void selectorResultsAreMemoisedPerLook() {
        int[] calls = {0};
        DeviceSelector counting = sel("count", d -> {
            calls[0]++;
            return true;
        });
        DraIndex index = DraIndex.build(List.of(new DeviceClass(CLASS_A, List.of(counting), null)),
                List.of(slice(SLICE1, NODE1, POOL1, DRIVER_A, dev(DEVICE1), dev(DEVICE2))), List.of());
        for (int i = 0; i < 3; i++) {
            Allocator.allocate(index.newLedger(), N1, List.of(claim("ns/a", request(REQ0, CLASS_A, 2))), 100);
        }
        // The two devices look the same to a selector (no attributes, no capacity): one evaluation serves both.
        assertThat(calls[0]).isEqualTo(1);
    }

    @Test
    void modelValidation() {
        assertThatThrownBy(() -> new ResourceSlice("s", DRIVER_A, pool(POOL1, 1), NODE1, null, true, false, null, null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ResourceSlice("s", DRIVER_A, pool(POOL1, 1), null, null, false, false, null, null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Device.Capacity.of("lots")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ResourceClaimSpec.Constraint.match(null)).isInstanceOf(IllegalArgumentException.class);
        assertThat(ResourceClaimSpec.ExactRequest.of(CLASS_A, 0).count()).isEqualTo(1);
        assertThatThrownBy(() -> new ResourceClaimSpec(List.of(request(REQ0, CLASS_A, 1), request(REQ0, CLASS_A, 1)), null, null))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static ResourceClaimSpec.Request exactCap(String name) {
        return exact(name, CLASS_A, ResourceClaimSpec.AllocationMode.ExactCount, 1, false, null, Map.of(CAPACITY0, "1.5"));
    }
}
