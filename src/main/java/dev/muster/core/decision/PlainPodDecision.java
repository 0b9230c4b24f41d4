package dev.muster.core.decision;

import dev.muster.core.cycle.AlgorithmResult;
import dev.muster.core.cycle.GroupOutcome;
import dev.muster.core.cycle.MemberResult;
import dev.muster.core.dra.ClaimBook;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.model.Condition;
import dev.muster.core.model.PodRef;
import dev.muster.core.snapshot.SnapshotOverlay;

import java.util.ArrayList;
import java.util.List;

/**
 * A plain pod's cycle outcome as its decision: {@code pod} instead of {@code podGroup}, at most one placement or
 * nomination, the pod's own claim decisions, and, when it is not Scheduled, the pod condition kube-scheduler writes
 * ({@code PodScheduled} False, reason {@code Unschedulable}) with its FitError message. A Preempting pod waits for its
 * victims with that condition too.
 */
final class PlainPodDecision {
    static final String CONDITION_TYPE = "PodScheduled";
    static final String UNSCHEDULABLE = "Unschedulable";

    private PlainPodDecision() {
    }

    static Decision of(SnapshotOverlay snapshot, PodInfo pod, GroupOutcome outcome) {
        PodRef ref = pod.ref();
        AlgorithmResult result = outcome.result();
        MemberResult member = result == null || result.cycle().members().isEmpty() ? null
                : result.cycle().members().get(0);
        return switch (outcome.kind()) {
            case SCHEDULED -> member != null && member.placed()
                    ? new Decision(null, Outcome.Scheduled, List.of(at(snapshot, member)), List.of(), List.of(),
                    List.of(), claims(snapshot, member), List.of(), "", null, null, ref)
                    : unschedulable(ref, fitError(member, result, outcome));
            case PREEMPTING -> {
                String message = outcome.message() != null ? outcome.message() : fitError(member, result, null);
                yield new Decision(null, Outcome.Preempting, List.of(), List.of(), victims(outcome.victims()),
                        member != null && member.placed() ? List.of(at(snapshot, member)) : List.of(),
                        member != null && member.placed() ? claims(snapshot, member) : List.of(),
                        List.of(condition(message)), message, null, null, ref);
            }
            case UNSCHEDULABLE -> {
                String message = fitError(member, result, null);
                if (outcome.message() != null) {
                    // kube-scheduler appends the PostFilter's status as " preemption: <status>." to the FitError.
                    message += " preemption: " + outcome.message() + ".";
                }
                yield unschedulable(ref, message);
            }
            case REJECTED, WAITING -> unschedulable(ref, outcome.message());
        };
    }

    /** A plugin erred during the pod's cycle: placed nowhere, condition reason SchedulerError with the error's text. */
    static Decision schedulerError(PodRef ref, String message) {
        return new Decision(null, Outcome.Unschedulable, List.of(), List.of(), List.of(), List.of(), List.of(),
                List.of(new Condition(CONDITION_TYPE, "False", DecisionEngine.SCHEDULER_ERROR, message, null, null)),
                message, null, null, ref);
    }

    private static Decision unschedulable(PodRef ref, String message) {
        return new Decision(null, Outcome.Unschedulable, List.of(), List.of(), List.of(), List.of(), List.of(),
                List.of(condition(message)), message, null, null, ref);
    }

    private static String fitError(MemberResult member, AlgorithmResult result, GroupOutcome outcome) {
        if (member != null && !member.placed() && member.message() != null) {
            return member.message();
        }
        if (result != null && result.message() != null) {
            return result.message();
        }
        return outcome != null && outcome.message() != null ? outcome.message() : DecisionBuilder.GROUP_UNSCHEDULABLE;
    }

    static Condition condition(String message) {
        return new Condition(CONDITION_TYPE, "False", UNSCHEDULABLE, message, null, null);
    }

    private static Assignment at(SnapshotOverlay snapshot, MemberResult m) {
        return new Assignment(m.pod().ref(), snapshot.node(m.node()).name());
    }

    private static List<Assignment> victims(List<PodInfo> victims) {
        List<Assignment> out = new ArrayList<>(victims.size());
        for (PodInfo v : victims) {
            out.add(new Assignment(v.ref(), v.pod().nodeName()));
        }
        out.sort(java.util.Comparator.comparing(Assignment::pod));
        return out;
    }

    /** The pod's claims this decision allocated or reserved anew, sorted by namespace/name. */
    private static List<ClaimDecision> claims(SnapshotOverlay snapshot, MemberResult m) {
        ClaimBook book = snapshot.claims();
        if (book == null || !m.pod().pod().usesDevices()) {
            return List.of();
        }
        List<ClaimBook.ClaimOutcome> outcomes = book.outcomes(List.of(m.pod().pod()), null);
        ClaimDecision[] out = new ClaimDecision[outcomes.size()];
        for (int i = 0; i < out.length; i++) {
            ClaimBook.ClaimOutcome c = outcomes.get(i);
            out[i] = new ClaimDecision(new PodRef(c.namespace(), c.name()), c.generatedFrom(), c.allocation(),
                    c.reservedFor());
        }
        return List.of(out);
    }
}
