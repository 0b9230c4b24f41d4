package dev.muster.core.cycle;

import dev.muster.core.framework.PlacementGeneratePlugin;
import dev.muster.core.framework.PlacementScorePlugin;
import dev.muster.core.framework.PodInfo;

import java.util.ArrayList;
import java.util.List;

/** What one candidate placement's trial came to, as {@link PlacementSelection} reports and ranks it. */
interface TrialOutcome {
    PlacementGeneratePlugin.Candidate candidate();

    /** The members' results on the candidate's nodes; for a feasible outcome, what choosing it assumes. */
    CycleResult result();

    boolean feasible();

    /** How many members the trial placed. */
    int placed();

    /** The first member's failure message, in kube-scheduler's words. */
    String message();

    /**
     * Whether the trial ran on the candidate itself, rather than being carried over from an equivalent candidate:
     * only a trial that ran is reported as the closest one of an infeasible group.
     */
    boolean ran();

    /** The feasible outcome as PlacementScore plugins rank it: where its placed members land. */
    PlacementScorePlugin.Proposal proposal();

    /** @param c the candidate, or null for a proposal read only for where its members land */
    static PlacementScorePlugin.Proposal proposal(PlacementGeneratePlugin.Candidate c, CycleResult result) {
        List<MemberResult> placed = new ArrayList<>();
        for (MemberResult m : result.members()) {
            if (m.placed()) {
                placed.add(m);
            }
        }
        PodInfo[] pods = new PodInfo[placed.size()];
        int[] nodes = new int[placed.size()];
        for (int i = 0; i < pods.length; i++) {
            pods[i] = placed.get(i).pod();
            nodes[i] = placed.get(i).node();
        }
        return new PlacementScorePlugin.Proposal(c == null ? null : c.name(), c == null ? null : c.nodes(), pods,
                nodes);
    }

    /** The first member that was not placed: its message, or the group's when every member was. */
    static String firstMessage(CycleResult r) {
        for (MemberResult m : r.members()) {
            if (!m.placed()) {
                return m.message();
            }
        }
        return "pod group is unschedulable";
    }
}
