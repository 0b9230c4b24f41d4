package dev.muster.core.plugins.noderesourcesbalancedallocation;

import dev.muster.core.framework.ClusterView;
import dev.muster.core.framework.CycleState;
import dev.muster.core.framework.NodeField;
import dev.muster.core.framework.NodeInfo;
import dev.muster.core.framework.PodField;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.framework.PreScorePlugin;
import dev.muster.core.framework.ResourceIndex;
import dev.muster.core.framework.ScorePlugin;
import dev.muster.core.framework.Status;

import java.util.Set;

/**
 * Favours nodes whose cpu and memory would be used in equal proportion after placing the pod. Upstream's formula
 * on actual requests (not the non-zero defaults): each fraction is {@code (requested + request) / allocatable},
 * capped at 1, skipped when allocatable is 0; with two fractions the standard deviation is
 * {@code |f1 - f2| / 2}; the score is {@code (1 - std) * 100}, truncated. Best-effort pods (no cpu and no memory
 * request) are skipped, as upstream does, so they do not all pile onto one node.
 */
public final class NodeResourcesBalancedAllocationPlugin implements PreScorePlugin, ScorePlugin {
    public static final String NAME = "NodeResourcesBalancedAllocation";

    /** PreScore and Score read the cpu and memory requests. */
    private static final Set<PodField> READS = Set.of(PodField.REQUESTS);

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Set<PodField> podFields() {
        return READS;
    }

    /** Score reads the cpu and memory requested and allocatable. */
    @Override
    public Set<NodeField> nodeFields() {
        return Set.of(NodeField.ALLOCATABLE, NodeField.REQUESTED);
    }

    @Override
    public Status preScore(CycleState state, PodInfo pod, ClusterView cluster, int[] feasibleNodes) {
        if (pod.request(ResourceIndex.CPU) == 0 && pod.request(ResourceIndex.MEMORY) == 0) {
            return Status.SKIP;
        }
        return Status.SUCCESS;
    }

    @Override
    public long score(CycleState state, PodInfo pod, NodeInfo node) {
        if (pod.request(ResourceIndex.CPU) == 0 && pod.request(ResourceIndex.MEMORY) == 0) {
            return 0;
        }
        double f1 = Double.NaN;
        double f2 = Double.NaN;
        int n = 0;
        long cpuAlloc = node.allocatable(ResourceIndex.CPU);
        if (cpuAlloc != 0) {
            f1 = fraction(node.requested(ResourceIndex.CPU) + pod.request(ResourceIndex.CPU), cpuAlloc);
            n++;
        }
        long memAlloc = node.allocatable(ResourceIndex.MEMORY);
        if (memAlloc != 0) {
            double f = fraction(node.requested(ResourceIndex.MEMORY) + pod.request(ResourceIndex.MEMORY), memAlloc);
            if (n == 0) {
                f1 = f;
            } else {
                f2 = f;
            }
            n++;
        }
        double std = n == 2 ? Math.abs((f1 - f2) / 2) : 0.0;
        return (long) ((1 - std) * MAX_SCORE);
    }

    private static double fraction(long requested, long allocatable) {
        double f = (double) requested / (double) allocatable;
        return f > 1 ? 1 : f;
    }
}
