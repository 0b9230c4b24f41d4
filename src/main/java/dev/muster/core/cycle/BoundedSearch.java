package dev.muster.core.cycle;

import dev.muster.core.framework.CycleState;
import dev.muster.core.framework.GroupContext;
import dev.muster.core.framework.NodeInfo;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.framework.ReservePlugin;
import dev.muster.core.framework.Status;
import dev.muster.core.model.NodeSelectorTerm;
import dev.muster.core.model.Pod;
import dev.muster.core.snapshot.LabelSets;
import dev.muster.core.snapshot.SnapshotOverlay;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * Depth-first search for a gang placement the greedy pass missed (heterogeneous members, or members that constrain
 * each other). Members are tried largest first; each member is either placed on one of its feasible nodes (best
 * scored first, one node per class of interchangeable empty nodes) or skipped while enough members remain to reach
 * {@code minCount} (and, for a gang with per-role minimums, until every role holds). On a node, a member with resource claims is tried with each way its devices can be allocated
 * there, the first fit first (beyond upstream, whose device choice per member is final). Every filter pass and every
 * further device choice is charged to a budget; when the budget runs out the search stops and says so. A found
 * placement is completed greedily with the skipped members.
 */
final class BoundedSearch {
    private static final String HOSTNAME = LabelSets.HOSTNAME;

    private final MemberAssumption assumption;
    private final PodScheduler scheduler;
    private final SnapshotOverlay snapshot;
    private final GroupContext group;
    private final Placement placement;
    private final long budget;
    private final int need;
    private final PodInfo[] order;
    private final int[] chosen;
    private final int[] alternatives; // per member in search order: the Reserve alternative it was placed with
    private final boolean mergeByHostname;
    private final boolean withClaims;
    private long steps;
    private boolean exhausted;

    BoundedSearch(PodScheduler scheduler, SnapshotOverlay snapshot, MemberAssumption assumption, GroupContext group,
                  Placement placement, long budget) {
        this(scheduler, snapshot, assumption, group, placement, budget,
                group.group().policy().needed(group.bound().size()));
    }

    /** @param need pending members a found placement must hold (more than minCount asks, to place more members) */
    BoundedSearch(PodScheduler scheduler, SnapshotOverlay snapshot, MemberAssumption assumption, GroupContext group,
                  Placement placement, long budget, int need) {
        this.assumption = assumption;
        this.scheduler = scheduler;
        this.snapshot = snapshot;
        this.group = group;
        this.placement = placement;
        this.budget = budget;
        this.need = need;
        this.order = group.pending().toArray(new PodInfo[0]);
        // Largest first (cpu, then memory), stable on cycle order: big members are the hard ones to fit.
        Arrays.sort(order, (a, b) -> {
            int c = Long.compare(b.request(0), a.request(0));
            return c != 0 ? c : Long.compare(b.request(1), a.request(1));
        });
        this.chosen = new int[order.length];
        this.alternatives = new int[order.length];
        Arrays.fill(chosen, -1);
        this.mergeByHostname = !referencesNodeIdentity(group.pending());
        boolean claims = false;
        for (PodInfo p : group.pending()) {
            claims |= mergesNoNodes(p);
        }
        this.withClaims = claims;
    }

    /** The members' results when a placement was found (placed ones assumed in the snapshot), else null. */
    List<MemberResult> run() {
        int mark = snapshot.mark();
        if (budget == 0 || !dfs(0, 0)) {
            snapshot.rollbackTo(mark);
            return null;
        }
        // Complete greedily with the members the search skipped, in cycle order.
        scheduler.invalidate();
        List<MemberResult> results = new ArrayList<>(order.length);
        int[] sequence = new int[order.length]; // the search assumed its members in search order
        int placed = 0;
        for (int i = 0; i < order.length; i++) {
            if (chosen[i] >= 0) {
                sequence[i] = placed++;
            }
        }
        for (PodInfo pod : group.pending()) {
            int i = indexOf(pod);
            if (chosen[i] >= 0) {
                results.add(MemberResult.placed(pod, chosen[i], sequence[i], alternatives[i]));
                continue;
            }
            PodAttempt a = scheduler.schedule(pod, placement);
            if (!a.fits()) {
                results.add(new MemberResult(pod, -1, a.diagnosis(), null));
                continue;
            }
            Status permit = assumption.assume(group, pod, a.node(), a.state(), placed + 1);
            if (!MemberAssumption.kept(permit)) {
                results.add(new MemberResult(pod, -1, null, permit.message()));
            } else {
                results.add(MemberResult.placed(pod, a.node(), placed, 0));
                placed++;
            }
        }
        return results;
    }

    SearchReport report(boolean found) {
        return new SearchReport(true, steps, budget, exhausted && !found, found);
    }

    private int indexOf(PodInfo pod) {
        for (int i = 0; i < order.length; i++) {
            if (order[i] == pod) {
                return i;
            }
        }
        throw new IllegalStateException("not a member: " + pod);
    }

    /**
     * Whether a member makes the search treat every node as a class of its own ({@link #nodeClass}): it claims
     * devices, and devices differ between nodes that look alike. Then how labels split the nodes never matters to the
     * search ({@link SpeedupPlacementSymmetry} relies on it).
     */
    static boolean mergesNoNodes(PodInfo pod) {
        return hasClaims(pod);
    }

    private static boolean hasClaims(PodInfo pod) {
        return pod.pod().usesDevices();
    }

    private boolean dfs(int i, int placed) {
        if (placed >= need && group.rolesHeld()) {
            return true;
        }
        if (i >= order.length) {
            return false;
        }
        if (placed + (order.length - i) < need) {
            return false;
        }
        if (steps >= budget) {
            exhausted = true;
            return false;
        }
        PodInfo pod = order[i];
        int[] candidates = scheduler.rankedCandidates(pod, placement);
        steps += placement.nodeCount();
        Set<Object> tried = new HashSet<>();
        for (int node : candidates) {
            if (!tried.add(nodeClass(node))) {
                continue;
            }
            // Device choices on the node: the first fit, then (beyond upstream) each other way to hold the member's
            // claims there, while the budget lasts.
            for (int alternative = 0; ; alternative++) {
                int mark = snapshot.mark();
                CycleState state = new CycleState();
                state.put(ReservePlugin.ALTERNATIVE, alternative);
                Status permit = assumption.assume(group, pod, node, state, placed + 1);
                if (!MemberAssumption.kept(permit)) {
                    break;
                }
                chosen[i] = node;
                alternatives[i] = alternative;
                if (dfs(i + 1, placed + 1)) {
                    return true;
                }
                chosen[i] = -1;
                snapshot.rollbackTo(mark);
                if (exhausted || !hasClaims(pod)) {
                    break;
                }
                steps++;
                if (steps >= budget) {
                    exhausted = true;
                    break;
                }
            }
            if (exhausted) {
                return false;
            }
        }
        return dfs(i + 1, placed);
    }

    /**
     * Nodes in one class are interchangeable for the search: empty nodes (no pods) with equal allocatable, taints,
     * schedulability and labels (the hostname label aside when no member selects nodes by name). A node with pods
     * is a class of its own, and so is every node when members claim devices.
     */
    private Object nodeClass(int index) {
        NodeInfo n = snapshot.node(index);
        if (n.podCount() > 0 || withClaims) {
            return index; // devices differ between nodes that look alike
        }
        Map<String, String> labels = n.node().labels();
        if (mergeByHostname && labels.containsKey(HOSTNAME)) {
            labels = new TreeMap<>(labels);
            labels.remove(HOSTNAME);
        }
        return Arrays.asList(n.node().allocatable(), n.node().taints(), n.node().unschedulable(), labels);
    }

    private static boolean referencesNodeIdentity(List<PodInfo> pods) {
        for (PodInfo info : pods) {
            Pod p = info.pod();
            if (p.nodeSelector().containsKey(HOSTNAME)) {
                return true;
            }
            List<NodeSelectorTerm> terms = p.affinity().nodeTerms();
            for (NodeSelectorTerm t : terms) {
                if (!t.matchFields().isEmpty()) {
                    return true;
                }
                for (var r : t.matchExpressions()) {
                    if (Objects.equals(r.key(), HOSTNAME)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }
}
