package dev.muster.core.dra;

import dev.muster.core.model.Node;

import java.util.List;
import java.util.Objects;

/**
 * Structured device allocation for one node and one pod's unallocated claims: the algorithm of Kubernetes'
 * "incubating" structured allocator (the variant kube-scheduler 1.36 runs with its default feature gates).
 * <p>
 * The search is depth-first and first-fit: claims in the given order, their requests in order, a firstAvailable
 * request's subrequests in order, and for each request its devices as combinations in pool → slice → device order
 * ({@link DraIndex} fixes that order). A device must be selected by the class's and the request's selectors, be
 * reachable from the node, be free (devices of other claims and of earlier picks are taken, except for admin access
 * and for shares of devices allowing multiple allocations while their capacity lasts), keep the pool's shared
 * counters non-negative, have its NoSchedule/NoExecute taints tolerated and keep every constraint of its claim
 * (matchAttribute, distinctAttribute) satisfied. A failed branch is rolled back and the next candidate tried, so the
 * search is exhaustive; the first full solution wins. A claim never gets more than
 * {@value ResourceClaimSpec#MAX_RESULTS} results.
 * <p>
 * Work is bounded by a step budget: one step per device considered. The count is deterministic, so the same input
 * always gives the same answer; running out is reported as {@link Exhausted}, never as an exception.
 * <p>
 * Beyond upstream, {@link #solutions} enumerates further full solutions on the same node in the same depth-first
 * order, so a caller can revisit an earlier claim's device choice when a later one does not fit.
 */
public final class Allocator {
    /** A generous default: one step is one device looked at. */
    public static final long DEFAULT_STEP_BUDGET = 1_000_000;

    private Allocator() {
    }

    /**
     * A claim to allocate.
     *
     * @param key  the claim's {@code namespace/name}: used in messages and to derive share IDs
     * @param spec its {@code spec.devices}
     */
    public record PendingClaim(String key, ResourceClaimSpec spec) {
        public PendingClaim {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(spec, "spec");
        }
    }

    /** What one allocation attempt gives. */
    public sealed interface Outcome permits Allocated, Unfit, Failed, Exhausted {
        /** Steps (devices considered) spent. */
        long steps();
    }

    /**
     * Success: one allocation per claim, in claim order; {@code devices}, when known, the index's device of each
     * result's entries (what the search picked), so that taking them needs no look-up by name.
     */
    public record Allocated(List<AllocationResult> results, long steps, List<PoolDevice[]> devices)
            implements Outcome {
        public Allocated {
            results = List.copyOf(results);
            devices = devices == null ? null : List.copyOf(devices);
        }

        public Allocated(List<AllocationResult> results, long steps) {
            this(results, steps, null);
        }

        /** Equal when the answers are: the devices are how the search found them, not part of the answer. */
        @Override
        public boolean equals(Object o) {
            return o instanceof Allocated a && a.steps == steps && a.results.equals(results);
        }

        @Override
        public int hashCode() {
            return results.hashCode() * 31 + Long.hashCode(steps);
        }

        /** The devices of result {@code i}, or null when they are to be looked up by name. */
        PoolDevice[] devicesOf(int i) {
            return devices == null ? null : devices.get(i);
        }
    }

    /** The claims cannot be allocated on this node; other nodes may do. */
    public record Unfit(String reason, long steps) implements Outcome {
    }

    /**
     * The input cannot be allocated anywhere (a missing class, a selector failing at run time, too many devices, a
     * malformed request): the caller reports the pod unschedulable with this message.
     */
    public record Failed(String message, long steps, boolean error) implements Outcome {
    }

    /** The step budget ran out before the search finished. */
    public record Exhausted(long steps) implements Outcome {
    }

    /** The reason given when no combination of devices fits. */
    public static final String CANNOT_ALLOCATE = "cannot allocate all claims";
    /** The reason given when nothing fits and a pool on the node is invalid (upstream fails that node only). */
    public static final String INVALID_POOLS = "invalid resource pools were encountered";
    /** What {@link Solutions#next} answers after the last solution. */
    public static final String NO_FURTHER_SOLUTION = "no further device allocation on this node";

    /**
     * The first solution (upstream's answer) for the claims on the node, against the ledger's current state. The
     * ledger is only read; reserving the result is the caller's move.
     */
    public static Outcome allocate(DeviceLedger ledger, Node node, List<PendingClaim> claims, long stepBudget) {
        return allocate(ledger, node, ledger.index().poolsFor(node), claims, stepBudget);
    }

    /** {@link #allocate(DeviceLedger, Node, List, long)} with the node's pools ({@link DraIndex#poolsFor}) at hand. */
    static Outcome allocate(DeviceLedger ledger, Node node, List<NodePool> pools, List<PendingClaim> claims,
                            long stepBudget) {
        DeviceSearch s = new DeviceSearch(ledger.index(), ledger.snapshotView(), node, pools, claims, stepBudget, null);
        return s.run();
    }

    /**
     * A lazy cursor over every full solution for the claims on the node, in depth-first order: its first element is
     * exactly {@link #allocate}'s answer. It searches against a copy of the ledger's state taken now, so the caller
     * may reserve and release in the ledger between calls. The step budget covers the whole cursor.
     */
    public static Solutions solutions(DeviceLedger ledger, Node node, List<PendingClaim> claims, long stepBudget) {
        return new Solutions(ledger.index(), ledger.snapshot(), node, List.copyOf(claims), stepBudget);
    }

    /**
     * The cursor. Each {@link #next} resumes the search where the previous solution was found: it replays that
     * solution's choices (subrequest picked, device picked, for every decision point) and continues past it, so no
     * solution comes twice and none is skipped.
     */
    public static final class Solutions {
        private final DraIndex index;
        private final DeviceLedger.State state;
        private final Node node;
        private final List<PendingClaim> claims;
        private long remaining;
        private int[] lastPath;
        private Outcome terminal;
        private int count;

        private Solutions(DraIndex index, DeviceLedger.State state, Node node, List<PendingClaim> claims, long budget) {
            this.index = index;
            this.state = state;
            this.node = node;
            this.claims = claims;
            this.remaining = budget;
        }

        /**
         * The next solution ({@link Allocated}), or: {@link Unfit} when there is none (the first call: none at all;
         * later: {@link #NO_FURTHER_SOLUTION}), {@link Failed}, {@link Exhausted}. Those three end the cursor; calling
         * again repeats them.
         */
        public Outcome next() {
            if (terminal != null) {
                return terminal;
            }
            DeviceSearch s = new DeviceSearch(index, state, node, index.poolsFor(node), claims, remaining, lastPath);
            Outcome o = s.run();
            remaining = Math.max(0, remaining - o.steps());
            if (o instanceof Allocated) {
                lastPath = s.solutionPath();
                count++;
                return o;
            }
            if (o instanceof Unfit && count > 0) {
                o = new Unfit(NO_FURTHER_SOLUTION, o.steps());
            }
            terminal = o;
            return o;
        }

        /** How many solutions this cursor has given. */
        public int solutionsGiven() {
            return count;
        }
    }
}
