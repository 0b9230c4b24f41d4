package dev.muster.core.plugins.defaultpreemption;

import dev.muster.core.framework.ClusterView;
import dev.muster.core.framework.FreeCapacity;
import dev.muster.core.framework.GroupContext;
import dev.muster.core.framework.GroupDomains;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.framework.PostFilterPlugin.Simulation;
import dev.muster.core.model.VictimUnits.Unit;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Preemption for a group with a required topology constraint (beyond upstream v1.36, which does not preempt for
 * them): the victims of each domain of the constraint's key are searched as for the whole cluster, with only the
 * units that lie entirely inside the domain eligible; the domain whose victims are least important wins (lowest
 * highest priority), then the fewest victims, then the lowest sum of priorities, then the domain name.
 * <p>
 * For cost, a domain is searched only when its free capacity plus what its eligible units hold could take the
 * members the group needs, and at most {@value #MAX_DOMAINS} domains are searched, those whose most important
 * eligible unit is least important first (then fewer units, then name). Bound members pin the group to their
 * domain ({@link GroupDomains}).
 */
final class DomainPreemption {
    static final int MAX_DOMAINS = 8;

    private record Domain(String value, int[] nodes, List<Unit<PodInfo>> units, int maxPriority) {
    }

    private record Found(String value, List<PodInfo> victims, int maxPriority, long prioritySum) {
    }

    private static final Comparator<Found> BEST = Comparator.comparingInt(Found::maxPriority)
            .thenComparingInt(f -> f.victims().size())
            .thenComparingLong(Found::prioritySum)
            .thenComparing(Found::value);

    private DomainPreemption() {
    }

    /** The chosen domain's victims, evicted in the simulation; null when no domain can be freed. */
    static List<PodInfo> select(GroupContext group, String key, List<Unit<PodInfo>> units, Simulation sim,
                                int maxTrials) {
        ClusterView cluster = sim.cluster();
        GroupDomains.Pin pin = GroupDomains.pin(group.bound(), key, cluster);
        if (pin.conflict()) {
            return null; // the generator refuses such a group; nothing to free
        }
        List<Domain> domains = new ArrayList<>();
        for (GroupDomains.Domain d : GroupDomains.domains(cluster, key, pin, null)) {
            Set<Integer> inside = new HashSet<>();
            for (int n : d.nodes()) {
                inside.add(n);
            }
            List<Unit<PodInfo>> own = new ArrayList<>();
            int max = Integer.MIN_VALUE;
            for (Unit<PodInfo> u : units) {
                boolean all = true;
                for (PodInfo p : u.pods()) {
                    all &= inside.contains(sim.nodeOf(p));
                }
                if (all) {
                    own.add(u);
                    max = Math.max(max, u.priority());
                }
            }
            if (!own.isEmpty() && couldHold(group, cluster, d.nodes(), own)) {
                domains.add(new Domain(d.value(), d.nodes(), own, max));
            }
        }
        domains.sort(Comparator.comparingInt(Domain::maxPriority).thenComparingInt(d -> d.units().size())
                .thenComparing(Domain::value));
        Found best = null;
        for (Domain d : domains.subList(0, Math.min(MAX_DOMAINS, domains.size()))) {
            List<PodInfo> victims = VictimSearch.select(d.units(), sim, maxTrials);
            if (victims == null) {
                continue;
            }
            victims.forEach(sim::restore);
            Set<PodInfo> chosen = new HashSet<>(victims);
            int max = Integer.MIN_VALUE;
            long sum = 0;
            for (Unit<PodInfo> u : d.units()) {
                if (chosen.contains(u.pods().get(0))) {
                    max = Math.max(max, u.priority());
                    sum += (long) u.priority() * u.pods().size();
                }
            }
            Found f = new Found(d.value(), victims, max, sum);
            if (best == null || BEST.compare(f, best) < 0) {
                best = f;
            }
        }
        if (best == null) {
            return null;
        }
        best.victims().forEach(sim::evict);
        return best.victims();
    }

    /**
     * A necessary condition: per resource, the domain's free capacity plus what its eligible units request covers the
     * smallest members the group needs, and so do its pod slots.
     */
    private static boolean couldHold(GroupContext group, ClusterView cluster, int[] nodes,
                                     List<Unit<PodInfo>> units) {
        FreeCapacity free = FreeCapacity.of(cluster, nodes);
        for (Unit<PodInfo> u : units) {
            for (PodInfo p : u.pods()) {
                free.release(p);
            }
        }
        return free.holdsSmallestNeeded(group);
    }
}
