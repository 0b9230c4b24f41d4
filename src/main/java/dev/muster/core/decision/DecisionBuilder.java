package dev.muster.core.decision;

import dev.muster.core.cycle.AlgorithmResult;
import dev.muster.core.dra.ClaimBook;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodRef;
import dev.muster.core.cycle.Diagnosis;
import dev.muster.core.cycle.PlacementReport;
import dev.muster.core.cycle.MemberResult;
import dev.muster.core.cycle.SearchReport;
import dev.muster.core.cycle.ShortageAnalysis;
import dev.muster.core.framework.GroupContext;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.framework.RoleTally;
import dev.muster.core.model.GroupRef;
import dev.muster.core.model.PodGroup;
import dev.muster.core.plugins.InTreePlugins;
import dev.muster.core.snapshot.SnapshotOverlay;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/** Turns a group's cycle results into its {@link Decision}: sorted lists, messages, condition, explanation. */
final class DecisionBuilder {
    /** Upstream's group status when no member's own reason explains the failure. */
    static final String GROUP_UNSCHEDULABLE = "pod group is unschedulable";

    private final GroupRef ref;
    private final PodGroup group;
    private final SnapshotOverlay snapshot;
    private final DecisionOptions options;

    DecisionBuilder(GroupRef ref, PodGroup group, SnapshotOverlay snapshot, DecisionOptions options) {
        this.ref = ref;
        this.group = group;
        this.snapshot = snapshot;
        this.options = options;
    }

    Decision scheduled(AlgorithmResult result) {
        List<MemberResult> members = result.cycle().members();
        List<Assignment> placements = new ArrayList<>();
        List<PodMessage> unplaced = new ArrayList<>();
        for (MemberResult m : members) {
            if (m.placed()) {
                placements.add(new Assignment(m.pod().ref(), snapshot.node(m.node()).name()));
            } else {
                unplaced.add(new PodMessage(m.pod().ref(), m.message()));
            }
        }
        placements.sort(Comparator.comparing(Assignment::pod));
        unplaced.sort(Comparator.comparing(PodMessage::pod));
        return new Decision(ref, Outcome.Scheduled, placements, unplaced, List.of(), List.of(), claims(result),
                List.of(DecisionEngine.condition(group, true, "")), "", explain(result)).withScore(score(result));
    }

    /** Upstream's group status while victims are being removed. */
    static final String WAITING_ON_PREEMPTION = "pod group is waiting for preemption to complete";

    Decision preempting(AlgorithmResult result, List<Assignment> victims) {
        List<Assignment> nominations = new ArrayList<>();
        List<PodMessage> unplaced = new ArrayList<>();
        for (MemberResult m : result.cycle().members()) {
            if (m.placed()) {
                nominations.add(new Assignment(m.pod().ref(), snapshot.node(m.node()).name()));
            } else {
                unplaced.add(new PodMessage(m.pod().ref(), m.message()));
            }
        }
        nominations.sort(Comparator.comparing(Assignment::pod));
        unplaced.sort(Comparator.comparing(PodMessage::pod));
        List<Assignment> sortedVictims = new ArrayList<>(victims);
        sortedVictims.sort(Comparator.comparing(Assignment::pod));
        return new Decision(ref, Outcome.Preempting, List.of(), unplaced, sortedVictims, nominations, claims(result),
                List.of(DecisionEngine.condition(group, false, WAITING_ON_PREEMPTION)), WAITING_ON_PREEMPTION,
                explain(result)).withScore(score(result));
    }

    /** The chosen placement's score among the candidate placements' reports; 0 for a group without candidates. */
    static long score(AlgorithmResult result) {
        if (result.placement() == null) {
            return 0;
        }
        for (PlacementReport r : result.placements()) {
            if (r.feasible() && r.name().equals(result.placement())) {
                return r.score();
            }
        }
        return 0;
    }

    /**
     * @param ctx the group's members as the cycle saw them: with per-role minimums, a role the bound and placed
     *            members leave short is named first in the message, and placed members wait for it once minCount holds
     */
    Decision unschedulable(GroupContext ctx, AlgorithmResult result, String preemptionMessage) {
        List<MemberResult> members = result.cycle().members();
        SearchReport search = result.cycle().search();
        String message = result.message();
        RoleTally.Shortfall shortRole = roleShortfall(ctx, members);
        String placedMessage = InTreePlugins.MEMBER_WAITING;
        if (shortRole != null && ctx.bound().size() + result.cycle().placed() >= group.policy().minCount()) {
            placedMessage = InTreePlugins.memberWaitingForRole(shortRole);
        }
        List<PodMessage> pods = new ArrayList<>();
        for (MemberResult m : members) {
            if (m.placed()) {
                pods.add(new PodMessage(m.pod().ref(), placedMessage));
            } else {
                pods.add(new PodMessage(m.pod().ref(), m.message()));
                if (message == null) {
                    message = m.message();
                }
            }
        }
        if (message == null) {
            message = GROUP_UNSCHEDULABLE;
        }
        if (shortRole != null) {
            message = InTreePlugins.memberWaitingForRole(shortRole) + ". " + message;
        }
        if (preemptionMessage != null) {
            message += (message.endsWith(".") ? "" : ".") + " preemption: " + preemptionMessage
                    + (preemptionMessage.endsWith(".") ? "" : ".");
        }
        if (search.ran() && search.exhausted()) {
            message += " Search budget of " + search.budget() + " node evaluations exhausted before a placement"
                    + " was found.";
        }
        pods.sort(Comparator.comparing(PodMessage::pod));
        Explanation explanation = explain(result);
        if (explanation != null) {
            explanation = withShortage(explanation, result);
        }
        return new Decision(ref, Outcome.Unschedulable, List.of(), pods, List.of(), List.of(), List.of(),
                List.of(DecisionEngine.condition(group, false, message)), message, explanation);
    }

    /**
     * The explanation with the group's shortage, worked out from the trials the cycle ran ({@link ShortageAnalysis}).
     */
    private Explanation withShortage(Explanation e, AlgorithmResult result) {
        ShortageAnalysis.Result s = ShortageAnalysis.of(snapshot, result, ref, needed(), snapshot.groupPriority(ref));
        if (s == null) {
            return e;
        }
        List<Explanation.Fit> fits = new ArrayList<>();
        for (ShortageAnalysis.Fit f : s.fits()) {
            fits.add(new Explanation.Fit(f.placement(), f.fits()));
        }
        List<Explanation.ReasonCount> excluded = new ArrayList<>();
        for (Map.Entry<String, Integer> x : s.excluded().entrySet()) {
            excluded.add(new Explanation.ReasonCount(x.getKey(), x.getValue()));
        }
        return new Explanation(e.nodes(), e.reasons(), e.members(), e.search(), e.placement(), e.placements(),
                e.warnings(), new Explanation.Shortage(s.needed(), fits, s.closest(), excluded, s.remedies()));
    }

    /** Members the group needs placed at once: a gang's minCount less its bound members, a basic group one. */
    private int needed() {
        int bound = 0;
        for (PodInfo p : snapshot.members(ref)) {
            if (p.pod().isBound() && !p.pod().isTerminal()) {
                bound++;
            }
        }
        return group.policy().needed(bound);
    }

    /** The role the group's bound and placed members leave below its minimum, or null. */
    private RoleTally.Shortfall roleShortfall(GroupContext ctx, List<MemberResult> members) {
        if (ctx == null || !group.hasRoleMinimums()) {
            return null;
        }
        RoleTally tally = RoleTally.of(group, ctx.bound());
        for (MemberResult m : members) {
            if (m.placed()) {
                tally.add(m.pod().pod());
            }
        }
        return tally.shortfall();
    }

    Decision unschedulableAll(List<PodInfo> pending, String message, SearchReport search) {
        List<PodMessage> pods = new ArrayList<>();
        for (PodInfo p : pending) {
            pods.add(new PodMessage(p.ref(), message));
        }
        pods.sort(Comparator.comparing(PodMessage::pod));
        return new Decision(ref, Outcome.Unschedulable, List.of(), pods, List.of(), List.of(), List.of(),
                List.of(DecisionEngine.condition(group, false, message)), message,
                options.explain() ? new Explanation(snapshot.nodeCount(), List.of(), List.of(), null, null, List.of(),
                        group.warnings())
                        : null);
    }

    /**
     * A plugin erred during the group's cycle: no member is placed anywhere, no victims, and the condition says
     * SchedulerError with the error's text, as kube-scheduler reports a cycle that ended with an error.
     */
    Decision schedulerError(List<PodInfo> pending, String message) {
        List<PodMessage> pods = new ArrayList<>();
        for (PodInfo p : pending) {
            pods.add(new PodMessage(p.ref(), message));
        }
        pods.sort(Comparator.comparing(PodMessage::pod));
        return new Decision(ref, Outcome.Unschedulable, List.of(), pods, List.of(), List.of(), List.of(),
                List.of(DecisionEngine.condition(group, false, message, DecisionEngine.SCHEDULER_ERROR)), message,
                options.explain() ? new Explanation(snapshot.nodeCount(), List.of(), List.of(), null, null, List.of(),
                        group.warnings())
                        : null);
    }

    Decision waiting(List<PodInfo> pending, String message) {
        List<PodMessage> pods = new ArrayList<>();
        for (PodInfo p : pending) {
            pods.add(new PodMessage(p.ref(), message));
        }
        pods.sort(Comparator.comparing(PodMessage::pod));
        return new Decision(ref, Outcome.WaitingForMembers, List.of(), pods, List.of(), List.of(), List.of(),
                List.of(DecisionEngine.condition(group, false, message)), message,
                options.explain() ? new Explanation(snapshot.nodeCount(), List.of(), List.of(), null, null, List.of(),
                        group.warnings())
                        : null);
    }

    /**
     * The claims the placed (or nominated) members use that this decision allocated or reserved anew, sorted by
     * namespace/name.
     */
    private List<ClaimDecision> claims(AlgorithmResult result) {
        ClaimBook book = snapshot.claims();
        if (book == null) {
            return List.of();
        }
        List<Pod> pods = new ArrayList<>();
        for (MemberResult m : result.cycle().members()) {
            if (m.placed()) {
                pods.add(m.pod().pod());
            }
        }
        List<ClaimDecision> out = new ArrayList<>();
        for (ClaimBook.ClaimOutcome c : book.outcomes(pods, group)) {
            out.add(new ClaimDecision(new PodRef(c.namespace(), c.name()), c.generatedFrom(), c.allocation(),
                    c.reservedFor()));
        }
        return out;
    }

    private Explanation explain(AlgorithmResult result) {
        if (!options.explain()) {
            return null;
        }
        List<MemberResult> members = result.cycle().members();
        SearchReport search = result.cycle().search();
        List<Explanation.ReasonCount> first = null;
        List<Explanation.Member> unplaced = new ArrayList<>();
        for (MemberResult m : members) {
            if (m.placed()) {
                continue;
            }
            List<Explanation.ReasonCount> reasons = reasons(m);
            if (first == null) {
                first = reasons;
            }
            unplaced.add(new Explanation.Member(m.pod().ref(), reasons));
        }
        unplaced.sort(Comparator.comparing(Explanation.Member::pod));
        Explanation.Search s = search == null || !search.ran() ? null
                : new Explanation.Search(true, search.steps(), search.budget(), search.exhausted(), search.found());
        List<Explanation.Candidate> candidates = new ArrayList<>();
        for (PlacementReport r : result.placements()) {
            candidates.add(new Explanation.Candidate(r.name(), r.tier(), r.nodes(), r.feasible(), r.pruned(), r.score(),
                    r.placed(), r.message()));
        }
        return new Explanation(snapshot.nodeCount(), first == null ? List.of() : first, unplaced, s,
                result.placement(), candidates, group.warnings());
    }

    private static List<Explanation.ReasonCount> reasons(MemberResult m) {
        List<Explanation.ReasonCount> out = new ArrayList<>();
        Diagnosis d = m.diagnosis();
        if (d == null) {
            out.add(new Explanation.ReasonCount(m.rejection(), 0));
            return out;
        }
        for (Map.Entry<String, Integer> e : d.reasons().entrySet()) {
            out.add(new Explanation.ReasonCount(e.getKey(), e.getValue()));
        }
        return out;
    }
}
