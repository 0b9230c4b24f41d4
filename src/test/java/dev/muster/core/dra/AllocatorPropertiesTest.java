package dev.muster.core.dra;

import dev.muster.core.dra.ResourceClaimSpec.AllocationMode;
import dev.muster.core.dra.ResourceClaimSpec.Constraint;
import dev.muster.core.dra.ResourceClaimSpec.Request;
import dev.muster.core.model.Node;
import dev.muster.core.model.Quantity;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.LongStream;

import static dev.muster.core.dra.DraFixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random slices and claims on one node, one reproducible case per seed (jqwik is not on this project's test
 * classpath, so seeds drive a plain parameterized test). Checked with code independent of the allocator: no device
 * over-allocated (exclusive holders at most one; shares within capacity), every matchAttribute/distinctAttribute
 * constraint holds, shared counters never negative after reserving, the cursor's first solution equals
 * {@link Allocator#allocate}, and every further solution is distinct and valid too.
 */
class AllocatorPropertiesTest {
    static final int SEEDS = Integer.getInteger("muster.props.seeds", 300);
    static final String NUMA = DRIVER_A + "/numa";

    static LongStream seeds() {
        return LongStream.range(0, SEEDS);
    }

    record World(DraIndex index, List<ResourceSlice> slices, List<Allocator.PendingClaim> claims) {
    }

    static World generate(long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        List<ResourceSlice> slices = new ArrayList<>();
        int pools = 1 + rnd.nextInt(3);
        for (int p = 0; p < pools; p++) {
            String driver = rnd.nextInt(3) == 0 ? DRIVER_B : DRIVER_A;
            boolean counters = rnd.nextBoolean();
            int n = 2 + rnd.nextInt(4);
            List<Dev> devs = new ArrayList<>();
            for (int d = 0; d < n; d++) {
                Dev dev = dev("dev-" + d).attr("numa", new DeviceAttribute.IntValue(rnd.nextInt(2)));
                if (counters) {
                    dev.consumes(COUNTER_SET1, "c", String.valueOf(1 + rnd.nextInt(2)));
                }
                if (rnd.nextInt(4) == 0) {
                    dev.multi().cap(CAPACITY0, String.valueOf(2 + rnd.nextInt(3)));
                }
                if (rnd.nextInt(6) == 0) {
                    dev.taint(new Device.Taint("k", "v", "NoSchedule"));
                }
                devs.add(dev);
            }
            Object where = rnd.nextBoolean() ? NODE1 : ALL;
            String poolName = "pool-" + p;
            slices.add(slice("s-" + p, where, pool(poolName, counters ? 2 : 1), driver, devs.toArray(Dev[]::new)));
            if (counters) {
                slices.add(counterSlice("s-" + p + "-counters", where, pool(poolName, 2), driver,
                        counterSet(COUNTER_SET1, "c", String.valueOf(2 + rnd.nextInt(3)))));
            }
        }
        List<Allocator.PendingClaim> claims = new ArrayList<>();
        int nClaims = 1 + rnd.nextInt(2);
        for (int c = 0; c < nClaims; c++) {
            List<Request> reqs = new ArrayList<>();
            int nReq = 1 + rnd.nextInt(2);
            for (int r = 0; r < nReq; r++) {
                reqs.add(randomRequest(rnd, "r" + r));
            }
            List<Constraint> constraints = new ArrayList<>();
            if (rnd.nextInt(3) == 0) {
                constraints.add(rnd.nextBoolean() ? Constraint.match(NUMA) : Constraint.distinct(NUMA));
            }
            claims.add(claim("ns/c" + c, constraints, reqs.toArray(Request[]::new)));
        }
        DraIndex index = DraIndex.build(List.of(deviceClass(CLASS_A, DRIVER_A), deviceClass(CLASS_B, DRIVER_B),
                new DeviceClass("any", List.of(), null)), slices, List.of());
        return new World(index, slices, claims);
    }

    static Request randomRequest(SplittableRandom rnd, String name) {
        String cls = switch (rnd.nextInt(10)) {
            case 0, 1, 2, 3, 4 -> CLASS_A;
            case 5, 6 -> CLASS_B;
            default -> "any";
        };
        int kind = rnd.nextInt(10);
        Map<String, String> capacity = rnd.nextInt(4) == 0 ? Map.of(CAPACITY0, "1") : null;
        List<ResourceClaimSpec.Toleration> tolerations = rnd.nextInt(4) == 0
                ? List.of(new ResourceClaimSpec.Toleration("k", ResourceClaimSpec.Toleration.Operator.Exists, null, null, null))
                : null;
        if (kind == 0) {
            return exact(name, cls, AllocationMode.All, 0, false, tolerations, capacity);
        }
        if (kind == 1) {
            return exact(name, cls, AllocationMode.ExactCount, 1, true, tolerations, null);
        }
        if (kind <= 3) {
            return firstAvailable(name, subFull("big", cls, 2, tolerations, capacity), subFull("small", CLASS_A, 1, null, null));
        }
        return exact(name, cls, AllocationMode.ExactCount, 1 + rnd.nextInt(2), false, tolerations, capacity);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void invariants(long seed) {
        World w = generate(seed);
        Node node = node(NODE1, REGION1);
        DeviceLedger ledger = w.index().newLedger();
        // a snapshot: whatever the first claim gets is already allocated
        Allocator.Outcome pre = Allocator.allocate(ledger, node, w.claims().subList(0, 1), 100_000);
        List<AllocationResult> snapshot = new ArrayList<>();
        if (pre instanceof Allocator.Allocated a) {
            snapshot.addAll(a.results());
            a.results().forEach(ledger::reserve);
        }
        Allocator.Outcome o = Allocator.allocate(ledger, node, w.claims(), 100_000);
        Allocator.Solutions cursor = Allocator.solutions(ledger, node, w.claims(), 1_000_000);
        Allocator.Outcome first = cursor.next();
        assertThat(first.getClass()).isEqualTo(o.getClass());
        if (!(o instanceof Allocator.Allocated allocated)) {
            return;
        }
        assertThat(((Allocator.Allocated) first).results()).isEqualTo(allocated.results());
        // the devices the search hands on are the index's devices of the results: taking them needs no look-up
        for (int i = 0; i < allocated.results().size(); i++) {
            assertThat(allocated.devicesOf(i)).containsExactly(w.index().devicesIn(allocated.results().get(i)));
        }
        Set<List<AllocationResult>> seen = new HashSet<>();
        Allocator.Outcome next = first;
        for (int i = 0; i < 20 && next instanceof Allocator.Allocated sol; i++) {
            assertThat(seen.add(sol.results())).as("solution repeated").isTrue();
            check(w, ledger, snapshot, sol.results());
            next = cursor.next();
        }
    }

    /** The generator must reach the interesting cases: many allocations, and alternatives for some. */
    @org.junit.jupiter.api.Test
    void generatorCoversSuccessAndAlternatives() {
        int allocated = 0;
        int withAlternatives = 0;
        for (long seed = 0; seed < SEEDS; seed++) {
            World w = generate(seed);
            DeviceLedger ledger = w.index().newLedger();
            Allocator.Solutions cursor = Allocator.solutions(ledger, node(NODE1, REGION1), w.claims(), 100_000);
            if (cursor.next() instanceof Allocator.Allocated) {
                allocated++;
                if (cursor.next() instanceof Allocator.Allocated) {
                    withAlternatives++;
                }
            }
        }
        assertThat(allocated).isGreaterThan(SEEDS / 4);
        assertThat(withAlternatives).isGreaterThan(SEEDS / 10);
    }

    /** Independent checks of one solution on top of the snapshot. */
    static void check(World w, DeviceLedger ledger, List<AllocationResult> snapshot, List<AllocationResult> results) {
        Map<AllocatedDevice, Device> devices = new HashMap<>();
        for (ResourceSlice s : w.slices()) {
            for (Device d : s.devices()) {
                devices.put(new AllocatedDevice(s.driver(), s.pool().name(), d.name()), d);
            }
        }
        Map<AllocatedDevice, Integer> exclusive = new HashMap<>();
        Map<AllocatedDevice, BigDecimal> shared = new HashMap<>();
        List<AllocationResult> all = new ArrayList<>(snapshot);
        all.addAll(results);
        for (AllocationResult r : all) {
            for (AllocationResult.DeviceResult d : r.devices()) {
                if (d.adminAccess()) {
                    continue;
                }
                if (d.shareID() == null) {
                    exclusive.merge(d.id(), 1, Integer::sum);
                } else {
                    shared.merge(d.id(), Quantity.exact(d.consumedCapacity().get(CAPACITY0)), BigDecimal::add);
                }
            }
        }
        exclusive.forEach((id, n) -> {
            assertThat(n).as("exclusive holders of " + id).isEqualTo(1);
            assertThat(shared).as("shared and exclusive " + id).doesNotContainKey(id);
        });
        shared.forEach((id, sum) -> assertThat(sum).as("capacity of " + id)
                .isLessThanOrEqualTo(Quantity.exact(devices.get(id).capacity().get(CAPACITY0).value())));
        for (int i = 0; i < results.size(); i++) {
            checkConstraints(w.claims().get(i), results.get(i), devices);
            assertThat(results.get(i).devices().size()).isLessThanOrEqualTo(ResourceClaimSpec.MAX_RESULTS);
        }
        int mark = ledger.mark();
        results.forEach(ledger::reserve);
        for (ResourceSlice s : w.slices()) {
            for (ResourceSlice.CounterSet cs : s.sharedCounters()) {
                for (String c : cs.counters().keySet()) {
                    assertThat(ledger.availableCounter(s.driver(), s.pool().name(), cs.name(), c)).as("counter " + s.pool())
                            .isGreaterThanOrEqualTo(BigDecimal.ZERO);
                }
            }
        }
        ledger.rollbackTo(mark);
    }

    static void checkConstraints(Allocator.PendingClaim claim, AllocationResult result, Map<AllocatedDevice, Device> devices) {
        for (Constraint c : claim.spec().constraints()) {
            List<DeviceAttribute> values = new ArrayList<>();
            for (AllocationResult.DeviceResult d : result.devices()) {
                DeviceAttribute a = devices.get(d.id()).attributes().get("numa");
                boolean driverA = d.driver().equals(DRIVER_A);
                assertThat(driverA).as("constrained device must have the attribute").isTrue();
                values.add(a);
            }
            if (c.matchAttribute() != null) {
                assertThat(new HashSet<>(values)).as("matchAttribute").hasSizeLessThanOrEqualTo(1);
            } else {
                assertThat(new HashSet<>(values)).as("distinctAttribute").hasSize(values.size());
            }
        }
    }
}
