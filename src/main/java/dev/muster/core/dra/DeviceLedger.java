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
    /**
     * Per pool (by ordinal): the number of the state its devices are in, 0 being the index's own. A change moves a
     * pool to the number {@link #steps} gives the step from its current state; undoing it moves the pool back.
     */
    private final int[] poolVersion;
    /**
     * Per pool (by ordinal), every step taken so far: (state, allocation, reserve or release) to the number of the
     * state it leads to. The same step from the same state always gets the same number, so a number names one exact way
     * the pool's devices are held; a trial taken back and taken again walks through the same numbers.
     */
    private final PoolSteps[] steps;
    /**
     * How many combinations are remembered before the table starts over, and how many steps per pool: later ones then
     * get new numbers, never old ones, so equal numbers still mean equal states, and memory stays bounded however long
     * a decision searches.
     */
    static final int MAX_REMEMBERED = 1 << 16;
    static final int STEPS_PER_POOL = 256;
    /** Nodes seeing several pools: (the first pools' combined number, the next pool's number) to a number. */
    private final Map<Long, Integer> combined = new java.util.concurrent.ConcurrentHashMap<>();
    /** The next state number; combinations are numbered from Filter threads at once (steps only by one thread). */
    private final java.util.concurrent.atomic.AtomicInteger nextVersion = new java.util.concurrent.atomic.AtomicInteger(1);

    DeviceLedger(DraIndex index, State state) {
        this.index = index;
        this.state = state;
        this.poolVersion = new int[index.poolCount()];
        this.steps = new PoolSteps[index.poolCount()];
    }

    /**
     * The steps taken from one pool's states, newest last: from which state, by which allocation (by identity: the same
     * object is the same devices), reserved or released, to which state. A pool sees a few steps in a decision (a
     * node's pods, a trial's members), so a scan from the newest finds one: no hashing, no identity hash.
     */
    private static final class PoolSteps {
        private int n;
        private int[] from = new int[4];
        private int[] to = new int[4];
        private AllocationResult[] allocation = new AllocationResult[4];

        /** The state the step leads to, or 0 when it was not taken (or forgotten). */
        int find(int state, AllocationResult a, int sign) {
            for (int i = n - 1; i >= 0; i--) {
                if (allocation[i] == a && from[i] == state && (to[i] > 0) == (sign > 0)) {
                    return Math.abs(to[i]);
                }
            }
            return 0;
        }

        void add(int state, AllocationResult a, int sign, int next) {
            if (n == STEPS_PER_POOL) {
                n = 0;
                java.util.Arrays.fill(allocation, null);
            }
            if (n == from.length) {
                from = java.util.Arrays.copyOf(from, 2 * n);
                to = java.util.Arrays.copyOf(to, 2 * n);
                allocation = java.util.Arrays.copyOf(allocation, 2 * n);
            }
            from[n] = state;
            to[n] = sign > 0 ? next : -next; // the direction in the sign: reserving and releasing are different steps
            allocation[n] = a;
            n++;
        }
    }

    /**
     * A number for how the devices of the pools the node sees are held: equal numbers for the same node mean its
     * devices are held exactly alike (0: as the index holds them). Reserving and releasing the same allocations in
     * the same order from the same state gives the same numbers again, after a rollback too. Numbers of different
     * nodes are not comparable.
     */
    long nodeVersion(Node node) {
        return nodeVersion(index.poolsFor(node));
    }

    /** {@link #nodeVersion(Node)} of a node seeing these pools. */
    long nodeVersion(List<NodePool> pools) {
        if (pools.isEmpty()) {
            return 0;
        }
        int v = poolVersion[pools.get(0).pool().ordinal];
        for (int i = 1; i < pools.size(); i++) {
            int next = poolVersion[pools.get(i).pool().ordinal];
            if (v == 0 && next == 0) {
                continue; // untouched so far: still 0
            }
            long pair = ((long) v << 32) | (next & 0xffffffffL);
            Integer c = combined.get(pair);
            if (c == null) {
                if (combined.size() >= MAX_REMEMBERED) {
                    combined.clear();
                }
                c = combined.computeIfAbsent(pair, k -> nextVersion.getAndIncrement());
            }
            v = c;
        }
        return v;
    }

    /** The number of the state the pool's devices are in: 0 while as the index holds them (see {@link #nodeVersion}). */
    int poolVersion(int ordinal) {
        return poolVersion[ordinal];
    }

    /** Moves each pool the allocation takes from to the state after this step; the undo log moves it back. */
    private void touch(AllocationResult allocation, PoolDevice[] devices, int sign) {
        int[] seen = null;
        int n = 0;
        for (PoolDevice d : devices) {
            if (d == null) {
                continue;
            }
            int pool = d.pool().ordinal;
            boolean again = false;
            for (int i = 0; i < n && !again; i++) {
                again = seen[i] == pool;
            }
            if (again) {
                continue;
            }
            if (seen == null) {
                seen = new int[allocation.devices().size()];
            }
            seen[n++] = pool;
            int from = poolVersion[pool];
            PoolSteps taken = steps[pool];
            if (taken == null) {
                taken = new PoolSteps();
                steps[pool] = taken;
            }
            int to = taken.find(from, allocation, sign);
            if (to == 0) {
                to = nextVersion.getAndIncrement();
                taken.add(from, allocation, sign, to);
            }
            poolVersion[pool] = to;
            undo.add(() -> poolVersion[pool] = from);
        }
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
        reserve(allocation, null);
    }

    /**
     * {@link #reserve(AllocationResult)} of an allocation the search just made: {@code devices} are its results'
     * devices as the search picked them from the index (null: looked up by name).
     */
    void reserve(AllocationResult allocation, PoolDevice[] picked) {
        PoolDevice[] devices = picked != null ? picked : index.devicesIn(allocation); // once for both
        touch(allocation, devices, +1);
        state.apply(devices, allocation, +1, undo);
    }


    /** Gives the allocation's devices, shares and counters back (the inverse of {@link #reserve}). */
    public void release(AllocationResult allocation) {
        PoolDevice[] devices = index.devicesIn(allocation); // looked up once for both
        touch(allocation, devices, -1);
        state.apply(devices, allocation, -1, undo);
    }

    /** Whether anyone holds the device, exclusively or as a share. */
    public boolean isInUse(AllocatedDevice id) {
        PoolDevice d = index.numbered(id);
        return d != null ? state.inUse(d) : state.unknownInUse(id);
    }

    /** Whether someone holds the device exclusively. */
    public boolean isAllocatedExclusively(AllocatedDevice id) {
        PoolDevice d = index.numbered(id);
        return (d != null ? state.exclusiveHolders(d) : state.unknownExclusiveHolders(id)) > 0;
    }

    /** How many holders the device has (exclusive ones plus shares); more than one exclusive is a conflict. */
    public int holders(AllocatedDevice id) {
        PoolDevice d = index.numbered(id);
        return d != null ? holders(d) : state.unknownExclusiveHolders(id) + state.unknownShareHolders(id);
    }

    /** {@link #holders(AllocatedDevice)} of one of the index's devices. */
    int holders(PoolDevice d) {
        return state.exclusiveHolders(d) + state.shareHolders(d);
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
        /**
         * Exclusive holders and shares of the index's devices: per pool (by ordinal), per device (by its number in the
         * pool); null where the pool has none. Read by every device check of every search, so an array slot, not a
         * look-up by the device's name.
         */
        private final int[][] exclusiveAt;
        private final int[][] sharesAt;
        /**
         * Which of those arrays this state may write in place: a copy shares every array with the state it was copied
         * from until one of them writes, which then writes its own copy of that pool's array.
         */
        private final boolean[] ownExclusive;
        private final boolean[] ownShares;
        private boolean ownsAny;
        /** Holders of devices the index cannot number (allocations naming devices it does not know). */
        private final Map<AllocatedDevice, Integer> exclusive;
        private final Map<AllocatedDevice, Integer> shares;
        /** device → fully qualified capacity name → consumed by shares. */
        final Map<AllocatedDevice, Map<String, BigDecimal>> capacity;
        final Map<DraIndex.CounterKey, BigDecimal> counters;

        /** An empty state for an index of {@code pools} pools. */
        State(int pools) {
            this(new int[pools][], new int[pools][], new HashMap<>(), new HashMap<>(), new HashMap<>(), new HashMap<>());
        }

        private State(int[][] exclusiveAt, int[][] sharesAt, Map<AllocatedDevice, Integer> exclusive,
                      Map<AllocatedDevice, Integer> shares, Map<AllocatedDevice, Map<String, BigDecimal>> capacity,
                      Map<DraIndex.CounterKey, BigDecimal> counters) {
            this.exclusiveAt = exclusiveAt;
            this.sharesAt = sharesAt;
            this.ownExclusive = new boolean[exclusiveAt.length];
            this.ownShares = new boolean[sharesAt.length];
            this.exclusive = exclusive;
            this.shares = shares;
            this.capacity = capacity;
            this.counters = counters;
        }

        /**
         * A copy: the per-pool arrays are shared until either state writes one. Copying the index's own state, which is
         * {@linkplain #freeze frozen}, changes nothing in it, so runs on several threads may copy it at once.
         */
        State copy() {
            freeze();
            Map<AllocatedDevice, Map<String, BigDecimal>> cap = new HashMap<>();
            capacity.forEach((k, v) -> cap.put(k, new HashMap<>(v)));
            return new State(exclusiveAt.clone(), sharesAt.clone(), new HashMap<>(exclusive), new HashMap<>(shares), cap,
                    new HashMap<>(counters));
        }

        /** From now on every per-pool array this state writes is copied first (it may be shared by copies). */
        void freeze() {
            if (ownsAny) {
                java.util.Arrays.fill(ownExclusive, false);
                java.util.Arrays.fill(ownShares, false);
                ownsAny = false;
            }
        }

        /** Exclusive holders of the device. */
        int exclusiveHolders(PoolDevice d) {
            if (d.number() < 0) {
                return exclusive.getOrDefault(d.id(), 0);
            }
            int[] a = exclusiveAt[d.pool().ordinal];
            return a == null ? 0 : a[d.number()];
        }

        /** Shares taken of the device. */
        int shareHolders(PoolDevice d) {
            if (d.number() < 0) {
                return shares.getOrDefault(d.id(), 0);
            }
            int[] a = sharesAt[d.pool().ordinal];
            return a == null ? 0 : a[d.number()];
        }

        boolean inUse(PoolDevice d) {
            return exclusiveHolders(d) > 0 || shareHolders(d) > 0;
        }

        /** {@link #inUse(PoolDevice)} of a device the index does not know. */
        boolean unknownInUse(AllocatedDevice id) {
            return exclusive.getOrDefault(id, 0) > 0 || shares.getOrDefault(id, 0) > 0;
        }

        int unknownExclusiveHolders(AllocatedDevice id) {
            return exclusive.getOrDefault(id, 0);
        }

        int unknownShareHolders(AllocatedDevice id) {
            return shares.getOrDefault(id, 0);
        }

        /** Devices held exclusively and devices shared, for messages. */
        String describe() {
            return "exclusive=" + count(exclusiveAt, exclusive) + " devices, shared=" + count(sharesAt, shares) + " devices";
        }

        private static int count(int[][] at, Map<AllocatedDevice, Integer> unknown) {
            int n = unknown.size();
            for (int[] a : at) {
                if (a != null) {
                    for (int v : a) {
                        n += v > 0 ? 1 : 0;
                    }
                }
            }
            return n;
        }

        /** Whether shares consume some capacity of the device. */
        boolean consumesCapacity(AllocatedDevice id) {
            return !capacity.isEmpty() && capacity.containsKey(id);
        }

        BigDecimal consumedCapacity(AllocatedDevice id, String fqName) {
            Map<String, BigDecimal> m = capacity.get(id);
            return m == null ? BigDecimal.ZERO : m.getOrDefault(fqName, BigDecimal.ZERO);
        }

        BigDecimal consumedCounter(DraIndex.CounterKey key) {
            return counters.getOrDefault(key, BigDecimal.ZERO);
        }

        /** Adds (sign +1) or removes (-1) one allocation; inverse operations go to {@code undo} when given. */
        /** @param devices the index's device of each result ({@link DraIndex#devicesIn}), null where it has none */
        void apply(PoolDevice[] devices, AllocationResult allocation, int sign, List<Runnable> undo) {
            List<AllocationResult.DeviceResult> results = allocation.devices();
            for (int i = 0; i < results.size(); i++) {
                AllocationResult.DeviceResult r = results.get(i);
                if (r.adminAccess()) {
                    continue;
                }
                // the index's own id where it knows the device: the capacity map's keys are then the objects searches
                // ask with
                PoolDevice d = devices[i] != null && devices[i].number() >= 0 ? devices[i] : null;
                AllocatedDevice id = devices[i] != null ? devices[i].id() : r.id();
                boolean before = d != null ? inUse(d) : unknownInUse(id);
                boolean exclusively = r.shareID() == null;
                if (d != null) {
                    bump(exclusively, d, sign, undo);
                } else {
                    bump(exclusively ? exclusive : shares, id, sign, undo);
                }
                if (!exclusively) {
                    r.consumedCapacity().forEach((name, q) ->
                            addCapacity(id, Capacities.qualify(name, id.driver()), Quantity.exact(q).multiply(BigDecimal.valueOf(sign)), undo));
                }
                boolean after = d != null ? inUse(d) : unknownInUse(id);
                if (before != after && devices[i] != null) {
                    addCounters(devices[i], after ? +1 : -1, undo);
                }
            }
        }

        void addCounters(PoolDevice d, int sign, List<Runnable> undo) {
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

        /** One holder more or fewer of a numbered device, in this state's own copy of its pool's array. */
        private void bump(boolean exclusively, PoolDevice d, int sign, List<Runnable> undo) {
            int[] a = writable(exclusively, d);
            int old = a[d.number()];
            a[d.number()] = Math.max(0, old + sign);
            if (undo != null) {
                undo.add(() -> writable(exclusively, d)[d.number()] = old); // the array then, which a copy may share
            }
        }

        private int[] writable(boolean exclusively, PoolDevice d) {
            int[][] at = exclusively ? exclusiveAt : sharesAt;
            boolean[] own = exclusively ? ownExclusive : ownShares;
            int pool = d.pool().ordinal;
            int[] a = at[pool];
            if (a == null || !own[pool]) {
                a = a == null ? new int[d.pool().deviceCount()] : a.clone();
                at[pool] = a;
                own[pool] = true;
                ownsAny = true;
            }
            return a;
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
        return "DeviceLedger{" + state.describe() + "}";
    }
}
