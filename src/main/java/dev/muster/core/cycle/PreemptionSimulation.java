package dev.muster.core.cycle;

import dev.muster.core.dra.ClaimBook;
import dev.muster.core.dra.ClaimConsumer;
import dev.muster.core.framework.ClusterView;
import dev.muster.core.framework.CycleState;
import dev.muster.core.framework.FrameworkRuntime;
import dev.muster.core.framework.Status;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.framework.PostFilterPlugin;
import dev.muster.core.model.GroupRef;
import dev.muster.core.model.PodRef;
import dev.muster.core.model.VictimUnits;
import dev.muster.core.snapshot.SnapshotOverlay;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The cluster as a PostFilter plugin may change it: running pods are evicted and restored through the snapshot's
 * journal, and the group's algorithm is re-run (greedy, no bounded search, no post-filters) to test a victim set.
 * The caller rolls the snapshot back to its mark when the plugin's victims are not used.
 */
public final class PreemptionSimulation implements PostFilterPlugin.Simulation {
    private final SchedulingScope scope;
    private final SnapshotOverlay snapshot;
    private final Placement all;
    private final java.util.function.Supplier<AlgorithmResult> trial;
    private final VictimUnits<PodInfo> units;
    private final Set<PodInfo> evicted = new HashSet<>();
    private final java.util.Map<PodInfo, Runnable> releasedClaims = new java.util.HashMap<>();
    private List<PodInfo> placed;
    private Placement chosen;

    /** @param trial places the group on the cluster as simulated now (its members stay assumed if it fits) */
    PreemptionSimulation(SchedulingScope scope, java.util.function.Supplier<AlgorithmResult> trial) {
        this.scope = scope;
        this.snapshot = scope.snapshot();
        this.trial = trial;
        this.all = scope.allNodes();
        this.units = snapshot.victimUnits(); // victims of an earlier group in this request are already gone
    }

    @Override
    public ClusterView cluster() {
        return all;
    }

    @Override
    public VictimUnits<PodInfo> victimUnits() {
        return units;
    }

    @Override
    public int nodeOf(PodInfo pod) {
        return evicted.contains(pod) ? -1 : snapshot.nodeIndex(pod.pod().nodeName());
    }

    @Override
    public void evict(PodInfo pod) {
        if (evicted.add(pod)) {
            snapshot.forget(pod, snapshot.nodeIndex(pod.pod().nodeName()));
            releaseClaims(pod);
        }
    }

    @Override
    public void restore(PodInfo pod) {
        if (evicted.remove(pod)) {
            Runnable undo = releasedClaims.remove(pod);
            if (undo != null) {
                undo.run();
            }
            snapshot.assume(pod, snapshot.nodeIndex(pod.pod().nodeName()));
        }
    }

    /**
     * Frees the devices of the victim's claims that no pod left running uses (its extended-resource claim among them),
     * until the victim is restored or the simulation rolled back.
     */
    private void releaseClaims(PodInfo pod) {
        ClaimBook book = snapshot.claims();
        if (book == null || !pod.pod().usesDevices()) {
            return;
        }
        GroupRef g = pod.pod().groupRef();
        String namespace = pod.ref().namespace();
        Runnable undo = book.releaseForVictim(pod.pod(), g == null ? null : snapshot.podGroups().get(g),
                c -> stillRuns(namespace, c));
        releasedClaims.put(pod, undo);
        snapshot.recordUndo(undo);
    }

    /**
     * Whether a consumer of a claim in {@code namespace} is still on a node: the pod itself, or some member of the
     * PodGroup. Looked up by name, not by walking every running pod: a trial may evict many pods with claims.
     */
    private boolean stillRuns(String namespace, ClaimConsumer c) {
        if (c.isPodGroup()) {
            for (PodInfo p : snapshot.members(new GroupRef(namespace, c.name()))) {
                if (snapshot.isOnNode(p)) {
                    return true;
                }
            }
            return false;
        }
        PodInfo p = snapshot.pod(new PodRef(namespace, c.name()));
        return p != null && snapshot.isOnNode(p) && (c.uid().isEmpty() || c.uid().equals(p.pod().uid()));
    }

    @Override
    public int[] tryGroup() {
        int mark = snapshot.mark();
        AlgorithmResult r = trial.get();
        int[] nodes = null;
        if (r.cycle().feasible()) {
            List<Integer> used = new ArrayList<>();
            List<PodInfo> members = new ArrayList<>();
            for (MemberResult m : r.cycle().members()) {
                if (m.placed()) {
                    used.add(m.node());
                    members.add(m.pod());
                }
            }
            nodes = used.stream().mapToInt(Integer::intValue).toArray();
            placed = members;
            chosen = r.chosen();
        }
        snapshot.rollbackTo(mark);
        return nodes;
    }

    @Override
    public List<PodInfo> placedMembers() {
        return placed;
    }

    @Override
    public boolean proofs() {
        return scope.batching();
    }

    @Override
    public int[] feasibleNodes(PodInfo member) {
        return chosen == null ? null : scope.scheduler(chosen).feasibleNodes(member, chosen);
    }

    @Override
    public Status[] filter(PodInfo member, int[] nodes) {
        FrameworkRuntime runtime = scope.runtime();
        boolean[] skipped = new boolean[runtime.filterCount()];
        CycleState state = new CycleState();
        Status pre = runtime.runPreFilter(state, member, all, skipped);
        Status[] out = new Status[nodes.length];
        for (int i = 0; i < nodes.length; i++) {
            Status st = pre != null ? pre : runtime.runFilter(state, member, all.anyNode(nodes[i]), skipped);
            out[i] = st == null ? Status.SUCCESS : st;
        }
        return out;
    }

    /** The pods evicted now: the victims once the plugin has returned. */
    public Set<PodInfo> evicted() {
        return evicted;
    }
}
