package dev.muster.core.dra;

import dev.muster.core.model.Node;
import dev.muster.core.model.Quantity;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The devices in use during one decision: the index's allocated state plus every allocation this decision reserved.
 * The scheduler's Reserve calls {@link #reserve}, Unreserve {@link #release} (or {@link #rollbackTo} a
 * {@link #mark}: every change is written to an undo log, so trial placements cost nothing to take back).
 * <p>
 * Tracked per device: exclusive holders (results without {@code shareID}; admin-access results take nothing),
 * shares of devices allowing multiple allocations with the capacity each consumes, and the shared counters a
 * partitionable device consumes from its pool while anyone holds it. Not thread-safe: one decision, one thread.
 */
public final class DeviceLedger {
    private final DraIndex index;
    private final State state;
    private final List<Runnable> undo = new ArrayList<>();
    /** Per pool (by ordinal): bumped whenever anything in it is taken or given back, rollbacks included. */
    private final int[] poolVersion;

    DeviceLedger(DraIndex index, State state) {
        this.index = index;
        this.state = state;
        this.poolVersion = new int[index.poolCount()];
    }

    /**
     * A number that changes whenever a device of a pool the node sees is taken or given back (never repeats): equal
     * numbers mean the node's devices are held exactly as before.
     */
    long nodeVersion(Node node) {
        long v = 0;
        for (DraIndex.NodePool p : index.poolsFor(node)) {
            v += poolVersion[p.pool().ordinal];
        }
        return v;
    }

    /** Bumps the versions of the allocation's pools, now and again when the change is undone. */
    private void touch(AllocationResult allocation) {
        int[] pools = new int[allocation.devices().size()];
        int n = 0;
        for (AllocationResult.DeviceResult r : allocation.devices()) {
            DraIndex.PoolDevice d = index.device(r.id());
            if (d != null) {
                pools[n++] = d.pool().ordinal;
            }
        }
        int[] touched = java.util.Arrays.copyOf(pools, n);
        Runnable bump = () -> {
            for (int p : touched) {
                poolVersion[p]++;
            }
        };
        bump.run();
        undo.add(bump);
    }

    /** A position in the undo log. */
    public int mark() {
        return undo.size();
    }

    /** Undoes every change after the mark. */
    public void rollbackTo(int mark) {
        if (mark < 0 || mark > undo.size()) {
            throw new IllegalArgumentException("no such mark: " + mark);
        }
        while (undo.size() > mark) {
            undo.remove(undo.size() - 1).run();
        }
    }

    /** Takes the allocation's devices, shares and counters. */
    public void reserve(AllocationResult allocation) {
        touch(allocation);
        state.apply(index, allocation, +1, undo);
    }

    /** Gives the allocation's devices, shares and counters back (the inverse of {@link #reserve}). */
    public void release(AllocationResult allocation) {
        touch(allocation);
        state.apply(index, allocation, -1, undo);
    }

    /** Whether anyone holds the device, exclusively or as a share. */
    public boolean isInUse(AllocatedDevice id) {
        return state.inUse(id);
    }

    /** Whether someone holds the device exclusively. */
    public boolean isAllocatedExclusively(AllocatedDevice id) {
        return state.exclusive.getOrDefault(id, 0) > 0;
    }

    /** How many holders the device has (exclusive ones plus shares); more than one exclusive is a conflict. */
    public int holders(AllocatedDevice id) {
        return state.exclusive.getOrDefault(id, 0) + state.shares.getOrDefault(id, 0);
    }

    /** Consumed capacity of a shared device: fully qualified capacity name → amount (empty when unshared). */
    public Map<String, BigDecimal> consumedCapacity(AllocatedDevice id) {
        return Map.copyOf(state.capacity.getOrDefault(id, Map.of()));
    }

    /** What is left of a pool's shared counter (may be negative when the snapshot over-commits it). */
    public BigDecimal availableCounter(String driver, String pool, String counterSet, String counter) {
        BigDecimal total = index.counterSets(driver, pool).getOrDefault(counterSet, Map.of()).get(counter);
        if (total == null) {
            return BigDecimal.ZERO;
        }
        return total.subtract(state.counters.getOrDefault(new DraIndex.CounterKey(driver, pool, counterSet, counter),
                BigDecimal.ZERO));
    }

    DraIndex index() {
        return index;
    }

    /** The live state, read-only use (one allocation attempt). */
    State snapshotView() {
        return state;
    }

    /** A copy of the current state, detached from this ledger (what a solution cursor searches against). */
    State snapshot() {
        return state.copy();
    }

    /**
     * The raw state. Device counters are consumed while a device has any holder: on its first holder and given back
     * when the last one leaves.
     */
    static final class State {
        final Map<AllocatedDevice, Integer> exclusive;
        final Map<AllocatedDevice, Integer> shares;
        /** device → fully qualified capacity name → consumed by shares. */
        final Map<AllocatedDevice, Map<String, BigDecimal>> capacity;
        final Map<DraIndex.CounterKey, BigDecimal> counters;

        State() {
            this(new HashMap<>(), new HashMap<>(), new HashMap<>(), new HashMap<>());
        }

        private State(Map<AllocatedDevice, Integer> exclusive, Map<AllocatedDevice, Integer> shares,
                      Map<AllocatedDevice, Map<String, BigDecimal>> capacity, Map<DraIndex.CounterKey, BigDecimal> counters) {
            this.exclusive = exclusive;
            this.shares = shares;
            this.capacity = capacity;
            this.counters = counters;
        }

        State copy() {
            Map<AllocatedDevice, Map<String, BigDecimal>> cap = new HashMap<>();
            capacity.forEach((k, v) -> cap.put(k, new HashMap<>(v)));
            return new State(new HashMap<>(exclusive), new HashMap<>(shares), cap, new HashMap<>(counters));
        }

        boolean inUse(AllocatedDevice id) {
            return exclusive.getOrDefault(id, 0) > 0 || shares.getOrDefault(id, 0) > 0;
        }

        boolean exclusivelyInUse(AllocatedDevice id) {
            return exclusive.getOrDefault(id, 0) > 0;
        }

        boolean sharedInUse(AllocatedDevice id) {
            return shares.getOrDefault(id, 0) > 0;
        }

        BigDecimal consumedCapacity(AllocatedDevice id, String fqName) {
            Map<String, BigDecimal> m = capacity.get(id);
            return m == null ? BigDecimal.ZERO : m.getOrDefault(fqName, BigDecimal.ZERO);
        }

        BigDecimal consumedCounter(DraIndex.CounterKey key) {
            return counters.getOrDefault(key, BigDecimal.ZERO);
        }

        /** Adds (sign +1) or removes (-1) one allocation; inverse operations go to {@code undo} when given. */
        void apply(DraIndex index, AllocationResult allocation, int sign, List<Runnable> undo) {
            for (AllocationResult.DeviceResult r : allocation.devices()) {
                if (r.adminAccess()) {
                    continue;
                }
                AllocatedDevice id = r.id();
                boolean before = inUse(id);
                if (r.shareID() == null) {
                    bump(exclusive, id, sign, undo);
                } else {
                    bump(shares, id, sign, undo);
                    r.consumedCapacity().forEach((name, q) ->
                            addCapacity(id, Capacities.qualify(name, id.driver()), Quantity.exact(q).multiply(BigDecimal.valueOf(sign)), undo));
                }
                boolean after = inUse(id);
                if (before != after) {
                    DraIndex.PoolDevice d = index.device(id);
                    if (d != null) {
                        addCounters(d, after ? +1 : -1, undo);
                    }
                }
            }
        }

        void addCounters(DraIndex.PoolDevice d, int sign, List<Runnable> undo) {
            for (Device.CounterConsumption cc : d.device().consumesCounters()) {
                cc.counters().forEach((name, q) -> {
                    DraIndex.CounterKey key = new DraIndex.CounterKey(d.id().driver(), d.id().pool(), cc.counterSet(), name);
                    add(counters, key, Quantity.exact(q).multiply(BigDecimal.valueOf(sign)), undo);
                });
            }
        }

        void addCapacity(AllocatedDevice id, String fqName, BigDecimal delta, List<Runnable> undo) {
            Map<String, BigDecimal> m = capacity.computeIfAbsent(id, k -> new HashMap<>());
            add(m, fqName, delta, undo); // an emptied map stays: undo entries hold on to it
        }

        private static <K> void add(Map<K, BigDecimal> m, K key, BigDecimal delta, List<Runnable> undo) {
            BigDecimal old = m.get(key);
            BigDecimal now = (old == null ? BigDecimal.ZERO : old).add(delta);
            if (now.signum() == 0) {
                m.remove(key);
            } else {
                m.put(key, now);
            }
            if (undo != null) {
                undo.add(() -> {
                    if (old == null) {
                        m.remove(key);
                    } else {
                        m.put(key, old);
                    }
                });
            }
        }

        private static void bump(Map<AllocatedDevice, Integer> m, AllocatedDevice id, int sign, List<Runnable> undo) {
            Integer old = m.get(id);
            int now = Math.max(0, (old == null ? 0 : old) + sign);
            if (now == 0) {
                m.remove(id);
            } else {
                m.put(id, now);
            }
            if (undo != null) {
                undo.add(() -> {
                    if (old == null) {
                        m.remove(id);
                    } else {
                        m.put(id, old);
                    }
                });
            }
        }
    }

    @Override
    public String toString() {
        return "DeviceLedger{exclusive=" + state.exclusive + ", shares=" + state.shares + "}";
    }
}
