package dev.muster.core.decision;

import dev.muster.core.model.PodRef;

import java.util.List;

/**
 * Structured reasons behind a decision ({@code options.explain}): how many nodes each reason excluded for the
 * member that decided the outcome, each unplaced member's own reasons, the bounded search's report, and for a
 * topology-constrained group the chosen placement and every candidate's report, and the group's warnings (what
 * the request says about the group that did not stop the decision, such as a template reference to a missing
 * Workload). An Unschedulable group also gets its {@link Shortage}.
 */
public record Explanation(int nodes, List<ReasonCount> reasons, List<Member> members, Search search,
                          String placement, List<Candidate> placements, List<String> warnings, Shortage shortage) {
    public Explanation(int nodes, List<ReasonCount> reasons, List<Member> members, Search search, String placement,
                       List<Candidate> placements) {
        this(nodes, reasons, members, search, placement, placements, List.of(), null);
    }

    public Explanation(int nodes, List<ReasonCount> reasons, List<Member> members, Search search, String placement,
                       List<Candidate> placements, List<String> warnings) {
        this(nodes, reasons, members, search, placement, placements, warnings, null);
    }

    public Explanation {
        warnings = warnings == null ? List.of() : List.copyOf(warnings);
    }

    /**
     * A candidate placement (topology domain) of a constrained group: whether it was feasible, pruned before its
     * cycle ran, its total PlacementScore (or negated stranded capacity with the BestFit strategy), members placed.
     */
    public record Candidate(String name, int tier, int nodes, boolean feasible, boolean pruned, long score, int placed,
                            String message) {
    }

    public record ReasonCount(String reason, int nodes) {
    }

    public record Member(PodRef pod, List<ReasonCount> reasons) {
    }

    /**
     * The bounded search that runs when the greedy pass fails (see PodGroupCycle).
     *
     * @param ran       whether the search ran
     * @param steps     node evaluations it spent
     * @param budget    its budget
     * @param exhausted it stopped on the budget, not because it proved there is no placement
     * @param found     it found a placement the greedy pass missed
     */
    public record Search(boolean ran, long steps, long budget, boolean exhausted, boolean found) {
    }

    /**
     * What an Unschedulable group is short of (docs/placement.md, "What a group is short of"): members needed at
     * once, how many each evaluated placement held ({@code fits N of needed}), the placement that came closest, the
     * nodes it excluded per reason for the first member that fitted nowhere there, and the smallest changes found
     * (more nodes like one that holds members; lower-priority pods whose eviction would make room), by requests.
     */
    public record Shortage(int needed, List<Fit> fits, String closest, List<ReasonCount> excluded,
                           List<String> remedies) {
        public Shortage {
            fits = List.copyOf(fits);
            excluded = List.copyOf(excluded);
            remedies = List.copyOf(remedies);
        }
    }

    /** A placement ({@code *}: all nodes) and how many of the members needed its trial placed. */
    public record Fit(String placement, int fits) {
    }
}
