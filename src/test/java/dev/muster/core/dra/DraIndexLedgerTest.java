package dev.muster.core.dra;

import dev.muster.core.model.Node;
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
        DraIndex.NodePool onN1 = warm.poolsFor(N1).get(0);
        DraIndex.NodePool onN2 = warm.poolsFor(n2).get(0);
        DraIndex.NodePool otherList = warm.poolsFor(N1).get(1);
        assertThat(onN1.pool().sliceLooks[0]).as("computed by warming").isNotNegative();
        assertThat(warm.devicesLook(onN1.pool(), 0)).isEqualTo(warm.devicesLook(onN2.pool(), 0))
                .isNotEqualTo(warm.devicesLook(otherList.pool(), 0));
        assertThat(cold.poolsFor(N1).get(0).pool().sliceLooks[0]).as("cold: only on first use").isNegative();
    }

    @Test
    void warmingLeavesIndexesWithSharedPoolsToFirstUse() {
        ResourceSlice counters = counterSlice(SLICE2, NODE1, pool(POOL1, 2), DRIVER_A, counterSet(COUNTER_SET1, "c", "3"));
        ResourceSlice devices = slice(SLICE1, NODE1, pool(POOL1, 2), DRIVER_A, dev("p").consumes(COUNTER_SET1, "c", "1"));
        DraIndex index = DraIndex.build(List.of(), List.of(counters, devices), List.of());
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
        DraIndex.NodePool p1 = index.poolsFor(N1).get(0);
        assertThat(p1.pool().incomplete).isTrue();
        assertThat(p1.slices()).containsExactly(a, b);
        DraIndex.NodePool p2 = index.poolsFor(N1).get(1);
        assertThat(p2.pool().incomplete).isFalse();
        assertThat(p2.pool().invalidReason).isEqualTo("duplicate device name same");
        // within one slice, as among slices
        ResourceSlice twins = slice("t", NODE1, POOL3, DRIVER_A, dev("twin"), dev("other"), dev("twin"));
        ResourceSlice distinct = slice("u", NODE2, POOL3, DRIVER_B, dev("one"), dev("two"), dev("three"));
        DraIndex again = DraIndex.build(List.of(), List.of(twins, distinct), List.of());
        assertThat(again.poolsFor(N1).get(0).pool().invalidReason).isEqualTo("duplicate device name twin");
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
