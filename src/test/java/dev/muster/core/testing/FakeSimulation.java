package dev.muster.core.testing;

import dev.muster.core.framework.ClusterView;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.framework.PostFilterPlugin;
import dev.muster.core.model.VictimUnits;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * A {@link PostFilterPlugin.Simulation} over a {@link TestCluster} that never places anything: whether the group
 * "fits" is a rule over the set of currently evicted pod names (a tiny stand-in for re-running the algorithm).
 * Records every pod ever evicted, so a test can tell which pods preemption even considered.
 */
public final class FakeSimulation implements PostFilterPlugin.Simulation {
    private final TestCluster cluster;
    private final Function<Set<String>, int[]> fits;
    private final Set<String> evicted = new LinkedHashSet<>();
    private final Set<String> everEvicted = new LinkedHashSet<>();
    private int tries;

    /** @param fits given the names of the evicted pods, the nodes the members would use, or null when it does not fit */
    public FakeSimulation(TestCluster cluster, Function<Set<String>, int[]> fits) {
        this.cluster = cluster;
        this.fits = fits;
    }

    /**
     * The group fits once every named pod is evicted, with one member on each node (so every victim unit sits on a
     * node the group uses and is tried one by one).
     */
    public static FakeSimulation fitsOnceEvicted(TestCluster cluster, String... pods) {
        int[] everyNode = java.util.stream.IntStream.range(0, cluster.nodeCount()).toArray();
        return new FakeSimulation(cluster, ev -> ev.containsAll(List.of(pods)) ? everyNode.clone() : null);
    }

    /** The group fits once any of the named pods is evicted, with one member on each node. */
    public static FakeSimulation fitsOnceAnyEvicted(TestCluster cluster, String... pods) {
        int[] everyNode = java.util.stream.IntStream.range(0, cluster.nodeCount()).toArray();
        return new FakeSimulation(cluster, ev -> {
            for (String p : pods) {
                if (ev.contains(p)) {
                    return everyNode.clone();
                }
            }
            return null;
        });
    }

    /** Names of pods evicted now. */
    public Set<String> evicted() {
        return Set.copyOf(evicted);
    }

    /** Names of pods evicted at any time during the search. */
    public Set<String> everEvicted() {
        return Set.copyOf(everEvicted);
    }

    public int tries() {
        return tries;
    }

    /** A node passes when the group, with the pods evicted now, would use it. */
    @Override
    public dev.muster.core.framework.Status[] filter(PodInfo member, int[] nodes) {
        int[] using = fits.apply(Set.copyOf(evicted));
        dev.muster.core.framework.Status[] out = new dev.muster.core.framework.Status[nodes.length];
        for (int i = 0; i < nodes.length; i++) {
            boolean used = false;
            for (int n : using == null ? new int[0] : using) {
                used |= n == nodes[i];
            }
            out[i] = used ? dev.muster.core.framework.Status.SUCCESS
                    : dev.muster.core.framework.Status.unschedulable("Fake", "does not fit");
        }
        return out;
    }

    @Override
    public ClusterView cluster() {
        return cluster;
    }

    /** The units of the cluster's running pods, from the snapshot as the engine's simulation takes them. */
    @Override
    public VictimUnits<PodInfo> victimUnits() {
        return cluster.snapshot().victimUnits();
    }

    @Override
    public int nodeOf(PodInfo pod) {
        return evicted.contains(pod.ref().name()) ? -1 : cluster.nodeIndex(pod.pod().nodeName());
    }

    @Override
    public void evict(PodInfo pod) {
        evicted.add(pod.ref().name());
        everEvicted.add(pod.ref().name());
    }

    @Override
    public void restore(PodInfo pod) {
        evicted.remove(pod.ref().name());
    }

    @Override
    public int[] tryGroup() {
        tries++;
        return fits.apply(Set.copyOf(evicted));
    }
}
