package dev.muster.core.cycle;

import dev.muster.core.framework.GroupContext;
import dev.muster.core.framework.NodeInfo;
import dev.muster.core.framework.PlacementGeneratePlugin;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.snapshot.SnapshotOverlay;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The {@code BestFit} placement strategy (docs/placement.md): feasible placements ranked by the capacity they would
 * leave stranded, least first.
 * <p>
 * For every resource a pending member requests (cpu, memory, ephemeral-storage, extended resources such as
 * {@code nvidia.com/gpu}) and for pod slots, a placement strands the AMOUNT its nodes would still have free once the
 * members are placed. Each amount is divided by the largest allocatable of that resource over the placements being
 * ranked, so that no resource dominates for being counted in bigger units, and the shares are summed:
 * <pre>
 *   stranded(p) = Σ_r free_r(p after placing) / max_q allocatable_r(q)
 * </pre>
 * Ties: fewest domains of the group's topology level used, then the smallest placement (least allocatable, by the
 * same normalised sum: the tightest fit keeps big domains free), then the placement name.
 */
final class BestFit {
    /** A feasible placement to rank. */
    record Option(PlacementGeneratePlugin.Candidate candidate, CycleResult result) {
    }

    /** Ranking keys of one option; the stranded share in parts per million is reported as its (negated) score. */
    record Ranked(String name, double stranded, int domains, double size) {
        long strandedPpm() {
            return Math.round(stranded * 1_000_000d);
        }
    }

    static final Comparator<Ranked> ORDER = Comparator.comparingDouble(Ranked::stranded)
            .thenComparingInt(Ranked::domains)
            .thenComparingDouble(Ranked::size)
            .thenComparing(Ranked::name);

    private final SnapshotOverlay snapshot;
    private final GroupContext group;
    private final int[] resources; // resource indices some pending member requests

    BestFit(SnapshotOverlay snapshot, GroupContext group) {
        this.snapshot = snapshot;
        this.group = group;
        List<Integer> requested = new ArrayList<>();
        for (int r = 0; r < snapshot.resources().size(); r++) {
            for (PodInfo p : group.pending()) {
                if (p.request(r) > 0) {
                    requested.add(r);
                    break;
                }
            }
        }
        this.resources = requested.stream().mapToInt(Integer::intValue).toArray();
    }

    /** One entry per option, in the options' order. The snapshot must not hold the options' members. */
    Ranked[] rank(List<Option> options) {
        int k = resources.length + 1; // the last column counts pod slots
        long[][] free = new long[options.size()][k];
        long[][] alloc = new long[options.size()][k];
        long[] max = new long[k];
        for (int i = 0; i < options.size(); i++) {
            Option o = options.get(i);
            for (int idx : o.candidate().nodes()) {
                NodeInfo n = snapshot.node(idx);
                for (int c = 0; c < resources.length; c++) {
                    alloc[i][c] += n.allocatable(resources[c]);
                    free[i][c] += Math.max(0, n.allocatable(resources[c]) - n.requested(resources[c]));
                }
                alloc[i][k - 1] += n.allowedPodNumber();
                free[i][k - 1] += Math.max(0, n.allowedPodNumber() - n.podCount());
            }
            for (MemberResult m : o.result().members()) {
                if (m.placed()) {
                    for (int c = 0; c < resources.length; c++) {
                        free[i][c] -= m.pod().request(resources[c]);
                    }
                    free[i][k - 1]--;
                }
            }
            for (int c = 0; c < k; c++) {
                max[c] = Math.max(max[c], alloc[i][c]);
            }
        }
        Ranked[] out = new Ranked[options.size()];
        for (int i = 0; i < out.length; i++) {
            double stranded = 0;
            double size = 0;
            for (int c = 0; c < k; c++) {
                if (max[c] > 0) {
                    stranded += (double) Math.max(0, free[i][c]) / max[c];
                    size += (double) alloc[i][c] / max[c];
                }
            }
            Option o = options.get(i);
            out[i] = new Ranked(o.candidate().name(), stranded, domains(o), size);
        }
        return out;
    }

    /**
     * Domains the placed members use at the group's level: the required topology key, else the key the candidate is
     * a domain of ({@code key=value}); 1 when there is no level.
     */
    private int domains(Option o) {
        String key = group.group().topologyKeys().isEmpty() ? null : group.group().topologyKeys().get(0);
        String name = o.candidate().name();
        if (key == null && name.indexOf('=') > 0) {
            key = name.substring(0, name.indexOf('='));
        }
        if (key == null) {
            return 1;
        }
        Set<String> values = new HashSet<>();
        for (MemberResult m : o.result().members()) {
            if (m.placed()) {
                values.add(String.valueOf(snapshot.node(m.node()).node().labels().get(key)));
            }
        }
        return Math.max(1, values.size());
    }
}
