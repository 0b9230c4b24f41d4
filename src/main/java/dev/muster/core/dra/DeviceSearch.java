package dev.muster.core.dra;

import dev.muster.core.dra.Allocator.Outcome;
import dev.muster.core.dra.Allocator.PendingClaim;
import dev.muster.core.dra.DraIndex.CounterKey;
import dev.muster.core.dra.ResourceClaimSpec.AllocationMode;
import dev.muster.core.model.Node;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One run of the allocator's depth-first search for devices (see {@link Allocator} for the contract). Single-threaded,
 * used once.
 * <p>
 * Decision points are the subrequest chosen for a firstAvailable request and the candidate chosen for each device
 * of a request. The current choices form a path; a found solution keeps its path, and a later run given that path
 * as {@code replay} follows it straight down (each choice is feasible again: same input, same state), treats the
 * solution at its end as already given and carries on with the depth-first search from there.
 */
final class DeviceSearch {
    private enum R { DONE, FAIL, MAX_EXCEEDED }

    /** Aborts the search with an input error. */
    static class Abort extends RuntimeException {
        Abort(String message) {
            super(message, null, false, false);
        }
    }

    /** A request names a class the cluster does not have (yet): the pod cannot be placed, but nothing erred. */
    static final class MissingClass extends Abort {
        MissingClass(String message) {
            super(message);
        }
    }

    private static final class OutOfSteps extends RuntimeException {
        OutOfSteps() {
            super(null, null, false, false);
        }
    }

    private final DraIndex index;
    private final DeviceLedger.State state;
    private final Node node;
    private final List<PendingClaim> claims;
    private final long budget;
    private long steps;

    private final List<NodePool> pools;
    /** Devices of usable (complete, valid) pools in allocation order. */
    private final PoolDevice[] candidates;
    private final ClaimPlan[] plans;

    /**
     * device → picks per claim index (exclusive picks and admin-access picks; not shares). Keyed by the index's device
     * objects (by identity: one per device among the candidates), so no device's names are hashed to find what this
     * search took; a HashMap makes its table on the first pick, and most searches pick one device or none.
     */
    private final Map<PoolDevice, int[]> allocating = new HashMap<>();
    private final Map<PoolDevice, Map<String, BigDecimal>> allocatingCapacity = new HashMap<>();
    private final Map<PoolDevice, Integer> allocatingShares = new HashMap<>();
    private final Map<CounterKey, BigDecimal> allocatingCounters = new HashMap<>();
    private final List<List<Pick>> results = new ArrayList<>();

    private int[] path = new int[16];
    private int depth;
    private final int[] replay;
    private int replayPos;
    private boolean replaying;
    private int[] solutionPath;
    private List<AllocationResult> solution;
    private List<PoolDevice[]> solutionDevices;

    DeviceSearch(DraIndex index, DeviceLedger.State state, Node node, List<NodePool> pools,
           List<PendingClaim> claims, long budget, int[] replay) {
        this.index = index;
        this.state = state;
        this.node = node;
        this.claims = claims;
        this.budget = budget;
        this.replay = replay;
        this.replaying = replay != null;
        this.pools = pools;
        this.candidates = NodePool.usableDevices(pools);
        this.plans = new ClaimPlan[claims.size()];
    }

    int[] solutionPath() {
        return solutionPath;
    }

    Outcome run() {
        try {
            for (int i = 0; i < claims.size(); i++) {
                plans[i] = plan(i);
                results.add(new ArrayList<>());
            }
            R r = allocateOne(0, 0, 0, 0, false, 0);
            if (r == R.DONE) {
                return new Allocator.Allocated(solution, steps, solutionDevices);
            }
            for (NodePool p : pools) {
                if (p.pool().invalid()) {
                    return new Allocator.Unfit(Allocator.INVALID_POOLS, steps);
                }
            }
            return new Allocator.Unfit(Allocator.CANNOT_ALLOCATE, steps);
        } catch (MissingClass e) {
            return new Allocator.Failed(e.getMessage(), steps, false);
        } catch (Abort e) {
            return new Allocator.Failed(e.getMessage(), steps, true);
        } catch (Capacities.CapacityError e) {
            return new Allocator.Failed(e.getMessage(), steps, true);
        } catch (OutOfSteps e) {
            return new Allocator.Exhausted(steps);
        }
    }

    // ---- preparation -------------------------------------------------------------------------------------------

    /** One request or subrequest, ready to allocate. */
    static final class Spec {
        final String request;
        final String sub;
        final String fullName;
        final DeviceClass cls;
        final List<DeviceSelector> selectors;
        final AllocationMode mode;
        final boolean adminAccess;
        final List<ResourceClaimSpec.Toleration> tolerations;
        final Map<String, String> capacityRequests;
        /** Per candidate position: 0 not asked yet, 1 usable, 2 not (made at the first question; see usable). */
        byte[] usable;
        List<PoolDevice> allDevices;
        int numDevices;

        Spec(String request, String sub, DeviceClass cls, List<DeviceSelector> selectors, AllocationMode mode,
             long count, boolean adminAccess, List<ResourceClaimSpec.Toleration> tolerations,
             Map<String, String> capacityRequests) {
            this.request = request;
            this.sub = sub;
            this.fullName = sub == null ? request : request + "/" + sub;
            this.cls = cls;
            this.selectors = selectors;
            this.mode = mode;
            this.numDevices = (int) Math.min(count, Integer.MAX_VALUE);
            this.adminAccess = adminAccess;
            this.tolerations = tolerations;
            this.capacityRequests = capacityRequests;
        }
    }

    static final class ClaimPlan {
        final PendingClaim claim;
        final Spec[][] requests;
        final boolean[] firstAvailable;
        final Constraints.Constraint[] constraints;
        final int[] currentSub;

        ClaimPlan(PendingClaim claim, Spec[][] requests, boolean[] firstAvailable, Constraints.Constraint[] constraints) {
            this.claim = claim;
            this.requests = requests;
            this.firstAvailable = firstAvailable;
            this.constraints = constraints;
            this.currentSub = new int[requests.length];
        }
    }

    private int currentClaim;

    private ClaimPlan plan(int claimIndex) {
        currentClaim = claimIndex;
        PendingClaim claim = claims.get(claimIndex);
        List<ResourceClaimSpec.Request> reqs = claim.spec().requests();
        Spec[][] specs = new Spec[reqs.size()][];
        boolean[] fa = new boolean[reqs.size()];
        long minDevices = 0;
        for (int i = 0; i < reqs.size(); i++) {
            ResourceClaimSpec.Request r = reqs.get(i);
            if (r.exactly() != null) {
                ResourceClaimSpec.ExactRequest e = r.exactly();
                Spec s = new Spec(r.name(), null, classOf(r.name(), e.deviceClassName()), e.selectors(),
                        e.allocationMode(), e.count(), e.adminAccess(), e.tolerations(), e.capacityRequests());
                prepare(claim, s);
                specs[i] = new Spec[]{s};
                minDevices += s.numDevices;
            } else {
                fa[i] = true;
                specs[i] = new Spec[r.firstAvailable().size()];
                long min = Long.MAX_VALUE;
                for (int j = 0; j < specs[i].length; j++) {
                    ResourceClaimSpec.SubRequest sr = r.firstAvailable().get(j);
                    Spec s = new Spec(r.name(), sr.name(), classOf(r.name() + "/" + sr.name(), sr.deviceClassName()),
                            sr.selectors(), sr.allocationMode(), sr.count(), false, sr.tolerations(), sr.capacityRequests());
                    prepare(claim, s);
                    specs[i][j] = s;
                    min = Math.min(min, s.numDevices);
                }
                minDevices += min;
            }
        }
        if (minDevices > ResourceClaimSpec.MAX_RESULTS) {
            throw new Abort("claim " + claim.key() + ": number of requested devices " + minDevices
                    + " exceeds the claim limit of " + ResourceClaimSpec.MAX_RESULTS);
        }
        Constraints.Constraint[] cs = new Constraints.Constraint[claim.spec().constraints().size()];
        for (int i = 0; i < cs.length; i++) {
            cs[i] = Constraints.of(claim.spec().constraints().get(i));
        }
        return new ClaimPlan(claim, specs, fa, cs);
    }

    private DeviceClass classOf(String requestName, String className) {
        if (className.isEmpty()) {
            throw new Abort("claim " + claims.get(currentClaim).key() + ", request " + requestName
                    + ": missing device class name (unsupported request type?)");
        }
        DeviceClass c = index.deviceClass(className);
        if (c == null) {
            throw new MissingClass("request " + requestName + ": device class " + className + " does not exist");
        }
        return c;
    }

    /** For All mode: every selectable device of every pool on the node, which must all be complete and valid. */
    private void prepare(PendingClaim claim, Spec s) {
        if (s.mode != AllocationMode.All) {
            return;
        }
        List<PoolDevice> all = new ArrayList<>();
        for (NodePool p : pools) {
            if (p.pool().incomplete) {
                throw new Abort("claim " + claim.key() + ", request " + s.fullName
                        + ": asks for all devices, but resource pool " + p.pool().id() + " is currently being updated");
            }
            if (p.pool().invalid()) {
                throw new Abort("claim " + claim.key() + ", request " + s.fullName
                        + ": asks for all devices, but resource pool " + p.pool().id() + " is currently invalid");
            }
            for (int k = 0; k < p.slices().size(); k++) {
                for (PoolDevice pd : p.devices(k)) {
                    if (isSelectable(claim, s, pd) && capacityFits(s, pd) != null) {
                        all.add(pd);
                    }
                }
            }
        }
        s.allDevices = all;
        s.numDevices = all.size();
    }

    // ---- the search ----------------------------------------------------------------------------------------------

    private void step() {
        if (++steps > budget) {
            throw new OutOfSteps();
        }
    }

    private void push(int choice) {
        if (depth == path.length) {
            path = Arrays.copyOf(path, depth * 2);
        }
        path[depth++] = choice;
    }

    private int replayed() {
        return replay[replayPos++];
    }

    private R allocateOne(int ci, int ri, int si, int di, boolean inSub, int start) {
        if (ci >= plans.length) {
            if (replaying) {
                // The end of the replayed path: that solution was given already, search on.
                replaying = false;
                return R.FAIL;
            }
            solutionPath = Arrays.copyOf(path, depth);
            solution = AllocationResults.build(this, plans, results, node);
            solutionDevices = AllocationResults.devices(results);
            return R.DONE;
        }
        ClaimPlan plan = plans[ci];
        if (ri >= plan.requests.length) {
            R r = allocateOne(ci + 1, 0, 0, 0, false, 0);
            return r == R.MAX_EXCEEDED ? R.FAIL : r;
        }
        if (plan.firstAvailable[ri] && !inSub) {
            boolean allExceeded = true;
            int from = 0;
            if (replaying) {
                from = replayed();
                allExceeded = false; // the replayed subrequest led to a solution
            }
            for (int sub = from; sub < plan.requests[ri].length; sub++) {
                plan.currentSub[ri] = sub;
                push(sub);
                R r = allocateOne(ci, ri, sub, 0, true, 0);
                depth--;
                if (r == R.MAX_EXCEEDED) {
                    continue;
                }
                allExceeded = false;
                if (r == R.DONE) {
                    return R.DONE;
                }
            }
            return allExceeded ? R.MAX_EXCEEDED : R.FAIL;
        }
        Spec spec = plan.requests[ri][plan.firstAvailable[ri] ? si : 0];
        boolean all = spec.mode == AllocationMode.All;
        if (all && spec.allDevices.isEmpty()) {
            return R.FAIL;
        }
        if (di >= spec.numDevices) {
            return allocateOne(ci, ri + 1, 0, 0, false, 0);
        }
        if (results.get(ci).size() + spec.numDevices - di > ResourceClaimSpec.MAX_RESULTS) {
            return R.MAX_EXCEEDED;
        }
        if (all) {
            step();
            Pick p = allocateDevice(ci, spec, spec.allDevices.get(di), true);
            if (p == null) {
                return R.FAIL;
            }
            R r = allocateOne(ci, ri, si, di + 1, inSub, 0);
            if (r != R.DONE) {
                deallocate(ci, p);
            }
            return r;
        }
        int from = start;
        if (replaying) {
            from = replayed();
        }
        for (int c = from; c < candidates.length; c++) {
            step();
            PoolDevice pd = candidates[c];
            if (pd == null) {
                continue;
            }
            if (spec.adminAccess ? allocatingFor(pd, ci) : deviceInUse(pd)) {
                continue;
            }
            if (!usable(plan.claim, spec, c, pd)) {
                continue;
            }
            Pick p = allocateDevice(ci, spec, pd, false);
            if (p == null) {
                continue;
            }
            push(c);
            R r = allocateOne(ci, ri, si, di + 1, inSub, c + 1);
            depth--;
            if (r == R.DONE) {
                return R.DONE;
            }
            deallocate(ci, p);
            if (r == R.MAX_EXCEEDED) {
                return r;
            }
        }
        return R.FAIL;
    }

    // ---- one device --------------------------------------------------------------------------------------------

    /** A device picked for a request, with what it took. */
    record Pick(Spec spec, PoolDevice device, boolean share, boolean countersTaken,
                Map<String, BigDecimal> consumedFq, Map<String, BigDecimal> consumedByKey) {
    }

    private boolean deviceInUse(PoolDevice pd) {
        if (state.exclusiveHolders(pd) > 0) {
            return true;
        }
        int[] per = allocating.isEmpty() ? null : allocating.get(pd);
        if (per != null) {
            for (int n : per) {
                if (n > 0) {
                    return true;
                }
            }
        }
        return false;
    }

    private boolean allocatingFor(PoolDevice pd, int ci) {
        int[] per = allocating.get(pd);
        return per != null && per[ci] > 0;
    }

    /**
     * Whether candidate {@code c} ({@code pd}) may serve the request: selectable, and its capacity fits. Selectors
     * and, for a device only one request may hold, the capacity check depend on the request and the device alone, so
     * they are remembered per candidate for the search; a device that allows multiple allocations has its capacity
     * checked each time, as what is left of it changes with the shares taken.
     */
    private boolean usable(PendingClaim claim, Spec spec, int c, PoolDevice pd) {
        byte[] known = spec.usable;
        if (known == null) {
            known = new byte[candidates.length];
            spec.usable = known;
        }
        boolean multi = pd.device().allowMultipleAllocations();
        if (known[c] == 0) {
            boolean ok = isSelectable(claim, spec, pd) && (multi || capacityAdmits(spec, pd));
            known[c] = (byte) (ok ? 1 : 2);
        }
        return known[c] == 1 && (!multi || capacityFits(spec, pd) != null);
    }

    private boolean isSelectable(PendingClaim claim, Spec spec, PoolDevice pd) {
        return selectorsMatch("class ", spec.cls.name(), spec.cls.selectors(), pd)
                && selectorsMatch("claim ", claim.key(), spec.selectors, pd)
                && (!pd.slice().perDeviceNodeSelection() || DraIndex.deviceOnNode(pd.device(), node));
    }

    /** Whether every selector selects the device; a CEL runtime error aborts, naming its owner ({@code kind + name}). */
    private boolean selectorsMatch(String kind, String name, List<DeviceSelector> selectors, PoolDevice pd) {
        for (int i = 0; i < selectors.size(); i++) {
            boolean m;
            try {
                m = index.selects(selectors.get(i), pd);
            } catch (SelectorException e) {
                throw new Abort(kind + name + ": selector #" + i + " on device " + pd.id() + ": CEL runtime error: "
                        + e.getMessage());
            }
            if (!m) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether the request fits a device only one request may hold ({@link #capacityFits} != null): what this search
     * takes of such a device is never a share, so without capacity requests and without shares held in the ledger the
     * device's own answer ({@link Capacities#admitsUnrequested}) is it.
     */
    private boolean capacityAdmits(Spec spec, PoolDevice pd) {
        if (spec.capacityRequests.isEmpty() && !state.consumesCapacity(pd.id())) {
            return Capacities.admitsUnrequested(pd, index.capacities(pd), state);
        }
        return capacityFits(spec, pd) != null;
    }

    /** {@link Capacities#fit} of the request on the device, with what this search has taken of it so far. */
    private Map<String, BigDecimal> capacityFits(Spec spec, PoolDevice pd) {
        return Capacities.fit(spec.capacityRequests, pd, index.capacities(pd), state,
                allocatingCapacity.isEmpty() ? Map.of() : allocatingCapacity.getOrDefault(pd, Map.of()));
    }

    /**
     * Takes the device for the request if it is free, its counters last, its taints are tolerated and the claim's
     * constraints accept it; returns the pick, or null (state unchanged). With {@code must} (All mode) a constraint
     * refusing the device is an input error.
     */
    private Pick allocateDevice(int ci, Spec spec, PoolDevice pd, boolean must) {
        AllocatedDevice id = pd.id();
        boolean multi = pd.device().allowMultipleAllocations();
        if (!multi && spec.adminAccess && allocatingFor(pd, ci)) {
            return null;
        }
        if (!spec.adminAccess && deviceInUse(pd)) {
            return null;
        }
        Map<String, BigDecimal> consumedFq = multi ? capacityFits(spec, pd) : null;
        if (multi && consumedFq == null) {
            return null;
        }
        boolean skipCounters = multi && (state.shareHolders(pd) > 0 || allocatingShares.getOrDefault(pd, 0) > 0);
        boolean countersTaken = false;
        if (!skipCounters && !pd.device().consumesCounters().isEmpty()) {
            if (!countersFit(pd)) {
                return null;
            }
            addCounters(pd, +1);
            countersTaken = true;
        }
        for (Device.Taint t : pd.device().taints()) {
            if (t.preventsAllocation() && spec.tolerations.stream().noneMatch(tol -> tol.tolerates(t))) {
                if (countersTaken) {
                    addCounters(pd, -1);
                }
                return null;
            }
        }
        Constraints.Constraint[] cs = plans[ci].constraints;
        for (int i = 0; i < cs.length; i++) {
            if (!cs[i].add(spec.request, spec.sub, pd)) {
                for (int j = 0; j < i; j++) {
                    cs[j].remove(spec.request, spec.sub, pd);
                }
                if (countersTaken) {
                    addCounters(pd, -1);
                }
                if (must) {
                    throw new Abort("claim " + plans[ci].claim.key() + ", request " + spec.fullName + ": cannot add device "
                            + id + " because a claim constraint would not be satisfied");
                }
                return null;
            }
        }
        Map<String, BigDecimal> byKey = null;
        Map<String, BigDecimal> fq = null;
        if (multi) {
            fq = new HashMap<>();
            byKey = new java.util.LinkedHashMap<>();
            Map<String, Capacities.Resolved> caps = index.capacities(pd);
            Map<String, BigDecimal> local = allocatingCapacity.computeIfAbsent(pd, k -> new HashMap<>());
            for (Map.Entry<String, BigDecimal> e : consumedFq.entrySet()) {
                fq.put(e.getKey(), e.getValue());
                byKey.put(caps.get(e.getKey()).key(), e.getValue());
                local.merge(e.getKey(), e.getValue(), BigDecimal::add);
            }
            allocatingShares.merge(pd, 1, Integer::sum);
        } else {
            allocating.computeIfAbsent(pd, k -> new int[plans.length])[ci]++;
        }
        Pick p = new Pick(spec, pd, multi, countersTaken, fq, byKey);
        results.get(ci).add(p);
        return p;
    }

    private void deallocate(int ci, Pick p) {
        PoolDevice pd = p.device();
        for (Constraints.Constraint c : plans[ci].constraints) {
            c.remove(p.spec().request, p.spec().sub, p.device());
        }
        if (p.share()) {
            Map<String, BigDecimal> local = allocatingCapacity.get(pd);
            p.consumedFq().forEach((k, v) -> local.merge(k, v.negate(), BigDecimal::add));
            allocatingShares.merge(pd, -1, Integer::sum);
        } else {
            allocating.get(pd)[ci]--;
        }
        if (p.countersTaken()) {
            addCounters(p.device(), -1);
        }
        List<Pick> picks = results.get(ci);
        picks.remove(picks.size() - 1);
    }

    /**
     * Whether every counter of the device's pool stays ≥ 0 with the device's consumption added to the ledger's and
     * this search's (an over-committed counter blocks the whole pool, as upstream).
     */
    private boolean countersFit(PoolDevice pd) {
        PoolData pool = pd.pool();
        Map<CounterKey, BigDecimal> mine = new HashMap<>();
        for (Device.CounterConsumption cc : pd.device().consumesCounters()) {
            cc.counters().forEach((name, q) -> mine.merge(new CounterKey(pool.driver, pool.name, cc.counterSet(), name),
                    dev.muster.core.model.Quantity.exact(q), BigDecimal::add));
        }
        for (Map.Entry<String, Map<String, BigDecimal>> set : pool.counterSets.entrySet()) {
            for (Map.Entry<String, BigDecimal> counter : set.getValue().entrySet()) {
                CounterKey key = new CounterKey(pool.driver, pool.name, set.getKey(), counter.getKey());
                BigDecimal left = counter.getValue().subtract(state.consumedCounter(key))
                        .subtract(allocatingCounters.getOrDefault(key, BigDecimal.ZERO))
                        .subtract(mine.getOrDefault(key, BigDecimal.ZERO));
                if (left.signum() < 0) {
                    return false;
                }
            }
        }
        return true;
    }

    private void addCounters(PoolDevice pd, int sign) {
        for (Device.CounterConsumption cc : pd.device().consumesCounters()) {
            cc.counters().forEach((name, q) -> allocatingCounters.merge(
                    new CounterKey(pd.id().driver(), pd.id().pool(), cc.counterSet(), name),
                    dev.muster.core.model.Quantity.exact(q).multiply(BigDecimal.valueOf(sign)), BigDecimal::add));
        }
    }

    ClaimPlan[] plans() {
        return plans;
    }

    Node node() {
        return node;
    }
}
