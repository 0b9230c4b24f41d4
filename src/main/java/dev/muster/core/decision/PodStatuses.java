package dev.muster.core.decision;

import dev.muster.core.framework.PodInfo;
import dev.muster.core.model.GroupRef;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodRef;
import dev.muster.core.snapshot.SnapshotOverlay;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The response's {@code pods[]}: every pending pod of the snapshot (unbound, not terminal) that takes part in no
 * decision, with the reason, so that no pending pod is left out of both. Gated pods are listed whatever else names
 * them (they cannot be placed until their gates are removed).
 */
final class PodStatuses {
    private PodStatuses() {
    }

    /** @param plainDecided the snapshot ordinals of the plain pods decided (their decisions name no other pod) */
    static List<PodStatus> of(SnapshotOverlay snapshot, List<Decision> decisions, java.util.BitSet plainDecided) {
        List<PodStatus> out = new ArrayList<>();
        for (PodInfo p : snapshot.gatedPendingPods()) {
            out.add(new PodStatus(p.ref(), PodStatus.SCHEDULING_GATED,
                    "Scheduling is blocked due to non-empty scheduling gates: " + String.join(", ",
                            p.pod().schedulingGates())));
        }
        Set<PodRef> decided = decided(decisions);
        Set<GroupRef> decidedGroups = new HashSet<>();
        for (Decision d : decisions) {
            if (d.podGroup() != null) {
                decidedGroups.add(d.podGroup());
            }
        }
        for (PodInfo p : snapshot.pendingPods()) {
            Pod pod = p.pod();
            if (pod.isGated() || plainDecided.get(p.ordinal())
                    || !decided.isEmpty() && decided.contains(p.ref())) {
                continue;
            }
            out.add(status(p, decidedGroups));
        }
        out.sort(Comparator.comparing(PodStatus::pod));
        return out;
    }

    private static PodStatus status(PodInfo p, Set<GroupRef> decidedGroups) {
        Pod pod = p.pod();
        if (pod.terminating()) {
            return new PodStatus(p.ref(), PodStatus.TERMINATING,
                    "the pod is being deleted (metadata.deletionTimestamp is set) and is not scheduled");
        }
        GroupRef g = pod.groupRef();
        if (g == null) {
            return new PodStatus(p.ref(), PodStatus.NOT_SELECTED, "the request's pods do not name this pod");
        }
        if (!decidedGroups.contains(g)) {
            return new PodStatus(p.ref(), PodStatus.NOT_SELECTED,
                    "the request's podGroups do not name its pod group \"" + g + "\"");
        }
        return new PodStatus(p.ref(), PodStatus.NOT_SELECTED,
                "its pod group \"" + g + "\" was decided without it");
    }

    /** Every pod a group's decision names: placements, nominations and unplaced members (plain pods go by ordinal). */
    private static Set<PodRef> decided(List<Decision> decisions) {
        Set<PodRef> out = new HashSet<>();
        for (Decision d : decisions) {
            if (d.pod() != null) {
                continue; // a plain pod's: known by its ordinal, and it names no other pod
            }
            for (Assignment a : d.placements()) {
                out.add(a.pod());
            }
            for (Assignment a : d.nominations()) {
                out.add(a.pod());
            }
            for (PodMessage m : d.unschedulablePods()) {
                out.add(m.pod());
            }
        }
        return out;
    }
}
