package dev.muster.core.plugins.topologyplacement;

import dev.muster.core.framework.ClusterView;
import dev.muster.core.framework.GroupContext;
import dev.muster.core.framework.NodeInfo;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.model.PlacementStrategy;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The {@code BestFit} placement strategy (docs/placement.md), asked for with the PodGroup annotation
 * {@value #STRATEGY}{@code : BestFit}: the group's feasible placements are ranked by the capacity they would leave
 * stranded, least first, in place of the other PlacementScore plugins. Groups that do not ask for it are not scored.
 * <p>
 * For every resource a pending member requests (cpu, memory, ephemeral-storage, extended resources such as
 * {@code nvidia.com/gpu}) and for pod slots, a placement strands the AMOUNT its nodes would still have free once the
 * members are placed. Each amount is divided by the largest allocatable of that resource over the placements being
 * ranked, so that no resource dominates for being counted in bigger units, and the shares are summed:
 * <pre>
 *   stranded(p) = Σ_r free_r(p after placing) / max_q allocatable_r(q)
 * </pre>
 * Ties: fewest domains of the group's topology level used, then the smallest placement (least allocatable, by the
 * same normalised sum: the tightest fit keeps big domains free), then the placement name. The score reported per
 * placement is the stranded share in parts per million, negated (higher is better).
 */
public final class BestFitPlugin implements StrategyRanking {
    public static final String NAME = "BestFit";
    /** PodGroup annotation choosing how feasible placements are ranked. */
    public static final String STRATEGY = PlacementStrategy.ANNOTATION;
    public static final String BEST_FIT = PlacementStrategy.BEST_FIT;

    /** Ranking keys of one placement. */
    private record Ranked(String name, double stranded, int domains, double size) {
        long strandedPpm() {
            return Math.round(stranded * 1_000_000d);
        }
    }

    private static final Comparator<Ranked> ORDER = Comparator.comparingDouble(Ranked::stranded)
            .thenComparingInt(Ranked::domains)
            .thenComparingDouble(Ranked::size)
            .thenComparing(Ranked::name);

    @Override
    public String name() {
        return NAME;
    }

    /** Whether the group asked for this strategy. */
    public static boolean asked(GroupContext group) {
        return PlacementStrategy.asks(group.group(), BEST_FIT);
    }

    @Override
    public boolean ranksAlone(GroupContext group) {
        return asked(group);
    }

    @Override
    public Ranking rankAlone(GroupContext group, ClusterView cluster, List<Proposal> proposals) {
        if (!asked(group)) {
            return null;
        }
        Ranked[] ranked = rank(group, cluster, proposals);
        long[] scores = new long[ranked.length];
        int best = 0;
        for (int i = 0; i < ranked.length; i++) {
            scores[i] = -ranked[i].strandedPpm();
            if (ORDER.compare(ranked[i], ranked[best]) < 0) {
                best = i;
            }
        }
        return new Ranking(scores, best);
    }

    /** One entry per proposal, in the proposals' order. The cluster must not hold the proposals' members. */
    private static Ranked[] rank(GroupContext group, ClusterView cluster, List<Proposal> proposals) {
        int[] resources = requestedResources(group, cluster);
        int k = resources.length + 1; // the last column counts pod slots
        long[][] free = new long[proposals.size()][k];
        long[][] alloc = new long[proposals.size()][k];
        long[] max = new long[k];
        for (int i = 0; i < proposals.size(); i++) {
            Proposal o = proposals.get(i);
            for (int idx : o.nodes()) {
                NodeInfo n = cluster.anyNode(idx);
                for (int c = 0; c < resources.length; c++) {
                    alloc[i][c] += n.allocatable(resources[c]);
                    free[i][c] += Math.max(0, n.allocatable(resources[c]) - n.requested(resources[c]));
                }
                alloc[i][k - 1] += n.allowedPodNumber();
                free[i][k - 1] += Math.max(0, n.allowedPodNumber() - n.podCount());
            }
            for (PodInfo p : o.pods()) {
                for (int c = 0; c < resources.length; c++) {
                    free[i][c] -= p.request(resources[c]);
                }
                free[i][k - 1]--;
            }
            for (int c = 0; c < k; c++) {
                max[c] = Math.max(max[c], alloc[i][c]);
            }
        }
        Ranked[] out = new Ranked[proposals.size()];
        for (int i = 0; i < out.length; i++) {
            double stranded = 0;
            double size = 0;
            for (int c = 0; c < k; c++) {
                if (max[c] > 0) {
                    stranded += (double) Math.max(0, free[i][c]) / max[c];
                    size += (double) alloc[i][c] / max[c];
                }
            }
            Proposal o = proposals.get(i);
            out[i] = new Ranked(o.placement(), stranded, domains(group, cluster, o), size);
        }
        return out;
    }

    /** Resource indices some pending member requests. */
    private static int[] requestedResources(GroupContext group, ClusterView cluster) {
        List<Integer> requested = new ArrayList<>();
        for (int r = 0; r < cluster.resources().size(); r++) {
            for (PodInfo p : group.pending()) {
                if (p.request(r) > 0) {
                    requested.add(r);
                    break;
                }
            }
        }
        return requested.stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * Domains the placed members use at the group's level: the required topology key, else the key the placement is
     * a domain of ({@code key=value}); 1 when there is no level.
     */
    private static int domains(GroupContext group, ClusterView cluster, Proposal o) {
        String key = group.group().topologyKeys().isEmpty() ? null : group.group().topologyKeys().get(0);
        String name = o.placement();
        if (key == null && name.indexOf('=') > 0) {
            key = name.substring(0, name.indexOf('='));
        }
        if (key == null) {
            return 1;
        }
        Set<String> values = new HashSet<>();
        for (int node : o.podNodes()) {
            values.add(String.valueOf(cluster.anyNode(node).node().labels().get(key)));
        }
        return Math.max(1, values.size());
    }
}
