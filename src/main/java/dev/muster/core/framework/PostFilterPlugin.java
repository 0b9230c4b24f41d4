package dev.muster.core.framework;

import dev.muster.core.model.VictimUnits;

import java.util.List;

/**
 * Runs when a PodGroup cycle found no feasible placement (upstream's PodGroupPostFilter: workload-aware preemption).
 * Sequential. It may evict running pods through the {@link Simulation} and re-run the group's algorithm to see
 * whether the group then fits; everything it changes is undone by the caller unless it returns victims.
 */
public interface PostFilterPlugin extends Plugin {
    /** What the plugin may do to the cluster while it searches. */
    interface Simulation {
        ClusterView cluster();

        /**
         * The victim units of the pods running when the simulation began (bound, not terminal or terminating, on a
         * node), in snapshot order.
         */
        VictimUnits<PodInfo> victimUnits();

        /** Node (snapshot index) a running pod is on, or -1 when it was evicted in this simulation. */
        int nodeOf(PodInfo pod);

        void evict(PodInfo pod);

        void restore(PodInfo pod);

        /**
         * Re-runs the group's algorithm on the current simulated cluster, without post-filters, and undoes its
         * placements. Returns the snapshot node index of each member it placed when the group is feasible (its
         * length is the number placed), or null when the group does not fit.
         */
        int[] tryGroup();

        /**
         * The members the last {@link #tryGroup} that fitted placed, in the order of the node indices it returned;
         * null when the simulation cannot say.
         */
        default List<PodInfo> placedMembers() {
            return null;
        }

        /**
         * Whether a search may show that the group fits by arguments on capacity instead of a trial (false: every
         * answer from a trial, the reference that property tests compare against).
         */
        default boolean proofs() {
            return true;
        }

        /**
         * The snapshot indices of the nodes where a member the last fitting {@link #tryGroup} placed passes every
         * filter on the cluster as simulated now (the group's other members not assumed), among the nodes that
         * placement was chosen in (its topology domain, or every node); ascending. Null when the simulation cannot
         * say.
         */
        default int[] feasibleNodes(PodInfo member) {
            return null;
        }

        /**
         * Runs PreFilter once and then Filter on each of {@code nodes} (snapshot indices) for {@code member} on the
         * cluster as simulated now, the group's other members not assumed: per node, {@link Status#SUCCESS} or the
         * status that rejected it (a PreFilter rejection for every node alike). What single-pod preemption asks of
         * each node.
         */
        Status[] filter(PodInfo member, int[] nodes);

    }

    /**
     * The outcome: victims to evict (empty with a reason when preemption cannot help). The caller evicts the
     * victims and runs the group once more to obtain its nominations.
     */
    record Result(List<PodInfo> victims, Status status) {
    }

    Result postFilter(GroupContext group, int groupPriority, Simulation simulation);
}
