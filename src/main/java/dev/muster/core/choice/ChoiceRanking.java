package dev.muster.core.choice;

import dev.muster.core.decision.Assignment;
import dev.muster.core.decision.Decision;
import dev.muster.core.decision.DecisionResult;
import dev.muster.core.decision.Outcome;
import dev.muster.core.decision.PodMessage;
import dev.muster.core.model.PodRef;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.ToIntFunction;

/**
 * Reads one cluster's decisions for a workload as a {@link Fit} with a one-line reason, and ranks the clusters:
 * {@code Fits} first, then {@code FitsWithPreemption} (fewer victims, then the lower highest victim priority), then
 * {@code DoesNotFit}; ties by the higher placement score, then by cluster name. Pure: the same decisions give the
 * same ranking.
 */
public final class ChoiceRanking {
    /** The order of the ranking, rank 1 first. */
    static final Comparator<ClusterChoice> ORDER = Comparator.comparingInt((ClusterChoice c) -> c.fit().ordinal())
            .thenComparingInt(c -> c.fit() == Fit.FitsWithPreemption ? c.victims() : 0)
            .thenComparingInt(c -> c.fit() == Fit.FitsWithPreemption ? c.highestVictimPriority() : 0)
            .thenComparing(Comparator.comparingLong(ClusterChoice::score).reversed())
            .thenComparing(ClusterChoice::cluster);

    private ChoiceRanking() {
    }

    /**
     * One cluster's choice, not yet ranked.
     *
     * @param expected the workload's pending pods that are not gated: each must be placed (or nominated) to fit
     * @param priority a victim's priority as the cluster knows it (PodGroup priority overriding the pod's)
     */
    public static ClusterChoice assess(String cluster, DecisionResult result, Set<PodRef> expected,
                                       ToIntFunction<PodRef> priority) {
        Set<PodRef> placed = new HashSet<>();
        Set<PodRef> nominated = new HashSet<>();
        Set<PodRef> victims = new HashSet<>();
        boolean allScheduled = true;
        boolean allScheduledOrPreempting = true;
        Decision firstFailed = null;
        long score = 0;
        for (Decision d : result.decisions()) {
            Outcome o = d.outcome();
            allScheduled &= o == Outcome.Scheduled;
            allScheduledOrPreempting &= o == Outcome.Scheduled || o == Outcome.Preempting;
            if (firstFailed == null && o != Outcome.Scheduled && o != Outcome.Preempting) {
                firstFailed = d;
            }
            for (Assignment a : d.placements()) {
                placed.add(a.pod());
            }
            for (Assignment a : d.nominations()) {
                nominated.add(a.pod());
            }
            for (Assignment a : d.victims()) {
                victims.add(a.pod());
            }
            score += d.score();
        }
        int highest = 0;
        boolean first = true;
        for (PodRef v : victims) {
            int p = priority.applyAsInt(v);
            highest = first ? p : Math.max(highest, p);
            first = false;
        }
        List<PodRef> missing = new ArrayList<>();
        List<PodRef> notNominated = new ArrayList<>();
        for (PodRef p : expected) {
            if (!placed.contains(p)) {
                missing.add(p);
                if (!nominated.contains(p)) {
                    notNominated.add(p);
                }
            }
        }
        Fit fit;
        String message;
        if (allScheduled && victims.isEmpty() && missing.isEmpty()) {
            fit = Fit.Fits;
            message = "fits without preemption: " + placedLine(placed.size(), result.decisions());
        } else if (allScheduledOrPreempting && !victims.isEmpty() && notNominated.isEmpty()) {
            fit = Fit.FitsWithPreemption;
            message = "fits after evicting " + victims.size() + (victims.size() == 1 ? " pod" : " pods")
                    + " of priority <= " + highest;
        } else {
            fit = Fit.DoesNotFit;
            message = "does not fit: " + whyNot(firstFailed, result.decisions(), missing, expected.size());
            score = 0;
        }
        return new ClusterChoice(cluster, 0, fit, result, victims.size(), highest, score, message);
    }

    /** The choices ranked 1..N as the class says. */
    public static List<ClusterChoice> rank(List<ClusterChoice> unranked) {
        List<ClusterChoice> sorted = new ArrayList<>(unranked);
        sorted.sort(ORDER);
        List<ClusterChoice> out = new ArrayList<>(sorted.size());
        for (int i = 0; i < sorted.size(); i++) {
            out.add(sorted.get(i).withRank(i + 1));
        }
        return out;
    }

    private static String placedLine(int pods, List<Decision> decisions) {
        Set<String> nodes = new HashSet<>();
        for (Decision d : decisions) {
            for (Assignment a : d.placements()) {
                nodes.add(a.node());
            }
        }
        return pods + (pods == 1 ? " pod" : " pods") + " on " + nodes.size() + (nodes.size() == 1 ? " node" : " nodes");
    }

    /** The first decision that did not place its pods, in its own words; else the first pod left out. */
    private static String whyNot(Decision failed, List<Decision> decisions, List<PodRef> missing, int expected) {
        if (failed != null) {
            String subject = failed.isPlainPod() ? "pod " + failed.pod() : "podGroup " + failed.podGroup();
            String message = failed.message() == null || failed.message().isEmpty()
                    ? failed.outcome().name() : failed.message();
            return subject + " is " + failed.outcome() + ": " + message;
        }
        if (expected == 0) {
            return "the workload has no pod to place (every pod is gated or none is pending)";
        }
        missing.sort(Comparator.naturalOrder());
        String line = (expected - missing.size()) + " of " + expected + " pods placed";
        for (Decision d : decisions) {
            for (PodMessage m : d.unschedulablePods()) {
                if (m.pod().equals(missing.get(0))) {
                    return line + "; pod " + m.pod() + ": " + m.message();
                }
            }
        }
        return line + "; pod " + missing.get(0) + " has no place";
    }
}
