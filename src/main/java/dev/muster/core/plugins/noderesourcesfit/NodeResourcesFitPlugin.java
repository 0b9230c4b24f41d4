package dev.muster.core.plugins.noderesourcesfit;

import dev.muster.core.dra.ClaimBook;
import dev.muster.core.framework.ClusterView;
import dev.muster.core.framework.CycleState;
import dev.muster.core.framework.FilterPlugin;
import dev.muster.core.framework.GroupContext;
import dev.muster.core.framework.PlacementScorePlugin;
import dev.muster.core.framework.NodeField;
import dev.muster.core.framework.NodeInfo;
import dev.muster.core.framework.PodField;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.framework.PreFilterPlugin;
import dev.muster.core.framework.ResourceIndex;
import dev.muster.core.framework.ScorePlugin;
import dev.muster.core.framework.StateKey;
import dev.muster.core.model.SchedulingPolicy;
import dev.muster.core.framework.Status;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Filter: the node must have room for one more pod and for every resource the pod requests (requested by the
 * pods there plus this request within allocatable). All shortfalls are reported, in upstream order: pods, cpu,
 * memory, ephemeral-storage, then scalar resources (by name, where upstream's order is a map's). An extended
 * resource that a DeviceClass backs is not checked on a node that does not advertise it: DynamicResources allocates
 * devices for it there. Preemption can free resources, so the rejection is Unschedulable.
 * <p>
 * Score: upstream's default LeastAllocated strategy over cpu and memory, weight 1 each, on non-zero requests
 * (a pod without a cpu or memory request counts as 100m / 200Mi, so empty-looking nodes do not attract
 * everything).
 * <p>
 * PlacementScore (upstream #136652): the same LeastAllocated formula over a whole placement, with requested = the
 * placement's nodes' requests plus the proposed members' and allocatable = the sum over its nodes. With the default
 * strategy the emptier domain wins.
 */
public final class NodeResourcesFitPlugin implements PreFilterPlugin, FilterPlugin, ScorePlugin,
        PlacementScorePlugin {
    public static final String NAME = "NodeResourcesFit";
    public static final String TOO_MANY_PODS = "Too many pods";

    /**
     * The resources the pod requests (> 0), in check order, and their reasons; {@code viaDevices[k]}: a DeviceClass
     * backs the k-th one, so a node that does not advertise it is left to DynamicResources (DRAExtendedResource).
     */
    private record Requested(int[] indices, String[] reasons, boolean[] viaDevices) {
    }

    private static final StateKey<Requested> REQUESTED = StateKey.of("PreFilter" + NAME);

    /** The requests; PreFilter asks whether the pod has extended requests a DeviceClass may serve. */
    private static final Set<PodField> READS = Set.of(PodField.REQUESTS, PodField.EXTENDED_REQUESTS);

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Set<PodField> podFields() {
        return READS;
    }

    /** Filter reads allocatable, requested and the pod slots; Score the non-zero requests against allocatable. */
    @Override
    public Set<NodeField> nodeFields() {
        return Set.of(NodeField.ALLOCATABLE, NodeField.REQUESTED, NodeField.POD_COUNT);
    }

    public static String insufficient(String resource) {
        return "Insufficient " + resource;
    }

    @Override
    public Status preFilter(CycleState state, PodInfo pod, ClusterView cluster) {
        ResourceIndex index = cluster.resources();
        List<Integer> picked = new ArrayList<>();
        for (int i = 0; i < index.size(); i++) {
            if (pod.request(i) > 0) {
                picked.add(i);
            }
        }
        int[] indices = new int[picked.size()];
        String[] reasons = new String[picked.size()];
        boolean[] viaDevices = new boolean[picked.size()];
        ClaimBook book = pod.pod().extendedRequests().isEmpty() ? null : cluster.claims();
        for (int k = 0; k < indices.length; k++) {
            indices[k] = picked.get(k);
            reasons[k] = insufficient(index.name(indices[k]));
            viaDevices[k] = book != null && book.extendedResourceClass(index.name(indices[k])) != null;
        }
        state.put(REQUESTED, new Requested(indices, reasons, viaDevices));
        return Status.SUCCESS;
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
        Requested req = state.get(REQUESTED);
        if (req == null) {
            return Status.error(NAME, "PreFilter state of " + NAME + " is missing: run PreFilter before Filter");
        }
        List<String> reasons = null;
        if (node.podCount() + 1L > node.allowedPodNumber()) {
            reasons = new ArrayList<>(4);
            reasons.add(TOO_MANY_PODS);
        }
        int[] indices = req.indices();
        for (int k = 0; k < indices.length; k++) {
            int r = indices[k];
            if (req.viaDevices()[k] && node.allocatable(r) == 0) {
                continue;
            }
            if (pod.request(r) > node.allocatable(r) - node.requested(r)) {
                if (reasons == null) {
                    reasons = new ArrayList<>(4);
                }
                reasons.add(req.reasons()[k]);
            }
        }
        if (reasons == null) {
            return Status.SUCCESS;
        }
        return Status.unschedulable(NAME, reasons.toArray(new String[0]));
    }

    /** LeastAllocated: per resource {@code (allocatable - requested) * 100 / allocatable}, averaged by weight. */
    @Override
    public long score(CycleState state, PodInfo pod, NodeInfo node) {
        long sum = 0;
        long weights = 0;
        long cpuAlloc = node.allocatable(ResourceIndex.CPU);
        if (cpuAlloc != 0) {
            sum += leastRequested(node.nonZeroCpu() + pod.nonZeroCpu(), cpuAlloc);
            weights++;
        }
        long memAlloc = node.allocatable(ResourceIndex.MEMORY);
        if (memAlloc != 0) {
            sum += leastRequested(node.nonZeroMemory() + pod.nonZeroMemory(), memAlloc);
            weights++;
        }
        return weights == 0 ? 0 : sum / weights;
    }

    @Override
    public long scorePlacement(GroupContext group, ClusterView cluster, Proposal proposal) {
        long cpu = 0;
        long mem = 0;
        for (PodInfo p : proposal.pods()) {
            cpu += p.nonZeroCpu();
            mem += p.nonZeroMemory();
        }
        return placementScore(cluster, proposal.nodes(), cpu, mem);
    }

    /** LeastAllocated over the placement's nodes with {@code cpu} and {@code mem} requested on top of theirs. */
    private static long placementScore(ClusterView cluster, int[] nodes, long cpu, long mem) {
        long cpuAlloc = 0;
        long memAlloc = 0;
        long cpuReq = cpu;
        long memReq = mem;
        for (int idx : nodes) {
            NodeInfo n = cluster.anyNode(idx);
            cpuAlloc += n.allocatable(ResourceIndex.CPU);
            memAlloc += n.allocatable(ResourceIndex.MEMORY);
            cpuReq += n.nonZeroCpu();
            memReq += n.nonZeroMemory();
        }
        long sum = 0;
        long weights = 0;
        if (cpuAlloc != 0) {
            sum += leastRequested(cpuReq, cpuAlloc);
            weights++;
        }
        if (memAlloc != 0) {
            sum += leastRequested(memReq, memAlloc);
            weights++;
        }
        return weights == 0 ? 0 : sum / weights;
    }

    /**
     * Each placement's score with the fewest requests a feasible proposal can add: the members the policy still
     * needs, the smallest of them (CPU and memory each, the same for every placement), since more requested never
     * scores higher. No normalization: settled at once.
     */
    @Override
    public long[] scoreBounds(GroupContext group, ClusterView cluster, List<int[]> candidates) {
        int bound = group.bound().size();
        SchedulingPolicy policy = group.group().policy();
        int needed = policy.holds(bound) ? 0 : Math.min(policy.needed(bound), group.pending().size());
        long[] cpu = new long[group.pending().size()];
        long[] mem = new long[cpu.length];
        for (int i = 0; i < cpu.length; i++) {
            cpu[i] = group.pending().get(i).nonZeroCpu();
            mem[i] = group.pending().get(i).nonZeroMemory();
        }
        java.util.Arrays.sort(cpu);
        java.util.Arrays.sort(mem);
        long cpuLeast = 0;
        long memLeast = 0;
        for (int i = 0; i < needed; i++) {
            cpuLeast += cpu[i];
            memLeast += mem[i];
        }
        long[] bounds = new long[candidates.size()];
        for (int i = 0; i < bounds.length; i++) {
            bounds[i] = placementScore(cluster, candidates.get(i), cpuLeast, memLeast);
        }
        return bounds;
    }

    @Override
    public boolean settles(GroupContext group, List<Proposal> proposals) {
        return true;
    }

    static long leastRequested(long requested, long capacity) {
        if (capacity == 0 || requested > capacity) {
            return 0;
        }
        return (capacity - requested) * MAX_SCORE / capacity;
    }
}
