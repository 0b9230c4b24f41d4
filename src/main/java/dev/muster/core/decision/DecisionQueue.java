package dev.muster.core.decision;

import dev.muster.core.cycle.PodGroupCycle;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.model.GroupRef;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodGroup;
import dev.muster.core.model.PodRef;
import dev.muster.core.snapshot.SnapshotOverlay;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a run decides, in the order one scheduling queue would pop it: PodGroups and plain pods together, higher
 * priority first (a group at its PodGroup priority, a plain pod at its own), then older creationTimestamp, then
 * namespace/name (a group before a plain pod of the same name).
 */
final class DecisionQueue {
    /** One entry of the queue: a group ({@code pod} null) or a plain pod ({@code group} null). */
    record Entry(GroupRef group, PodInfo pod, int priority, long creation) {
        String namespace() {
            return group != null ? group.namespace() : pod.ref().namespace();
        }

        String name() {
            return group != null ? group.name() : pod.ref().name();
        }
    }

    /** Higher priority, older, namespace, name, a group first: one method, not a chain of five key extractors. */
    static final Comparator<Entry> ORDER = DecisionQueue::compare;

    private static int compare(Entry a, Entry b) {
        int c = Integer.compare(-a.priority(), -b.priority()); // negated as given, so the order of extreme values holds
        if (c != 0) {
            return c;
        }
        c = Long.compare(a.creation(), b.creation());
        if (c != 0) {
            return c;
        }
        c = a.namespace().compareTo(b.namespace());
        if (c != 0) {
            return c;
        }
        c = a.name().compareTo(b.name());
        return c != 0 ? c : Integer.compare(a.group() != null ? 0 : 1, b.group() != null ? 0 : 1);
    }

    private DecisionQueue() {
    }

    /**
     * The entries to decide, in decision order.
     *
     * @param groups the groups named, or null for every group with a member the cycle could place (unbound, not
     *               gated, not terminating): a group whose only unbound members are gated is not attempted, as
     *               upstream
     * @param pods   the plain pods named, or null for every pending plain pod; a named pod that cannot be decided now
     *               (gated, being deleted) is left to the pod statuses
     */
    static List<Entry> of(SnapshotOverlay snapshot, List<GroupRef> groups, List<PodRef> pods) {
        Set<GroupRef> refs = new LinkedHashSet<>();
        if (groups != null) {
            refs.addAll(groups);
        } else {
            for (Map.Entry<GroupRef, List<PodInfo>> e : snapshot.membersByGroup().entrySet()) {
                for (PodInfo p : e.getValue()) {
                    if (PodGroupCycle.isPending(p.pod()) && !p.pod().isGated()) {
                        refs.add(e.getKey());
                        break;
                    }
                }
            }
        }
        List<Entry> order = new ArrayList<>(refs.size());
        for (GroupRef r : refs) {
            PodGroup g = snapshot.podGroups().get(r);
            order.add(new Entry(r, null, g == null ? Integer.MIN_VALUE : snapshot.groupPriority(r),
                    g == null ? Long.MAX_VALUE : g.creationEpochSec()));
        }
        if (pods == null) {
            for (PodInfo p : snapshot.pendingPods()) {
                if (decidable(p)) {
                    order.add(plain(p));
                }
            }
        } else {
            Set<PodRef> seen = new java.util.HashSet<>();
            for (PodRef ref : pods) {
                PodInfo p = snapshot.pod(ref);
                if (p != null && decidable(p) && seen.add(ref)) {
                    order.add(plain(p));
                }
            }
        }
        order.sort(ORDER);
        return order;
    }

    private static Entry plain(PodInfo p) {
        return new Entry(null, p, p.priority(), p.pod().creationEpochSec());
    }

    /** A plain pod the engine decides: in no group, unbound, not terminal, not being deleted, not gated. */
    static boolean decidable(PodInfo p) {
        Pod pod = p.pod();
        return pod.podGroupName() == null && PodGroupCycle.isPending(pod) && !pod.isGated();
    }
}
