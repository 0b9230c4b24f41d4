package dev.muster.core.cycle;

import dev.muster.core.framework.Status;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Why a pod fits on no node of a placement: for each reason, the number of nodes it excluded (kube-scheduler's
 * FitError histogram), or a PreFilter verdict that excluded every node at once.
 * <p>
 * Of a placement's verdicts ({@link #of}), the histogram is counted when first read: most attempts that fit nowhere
 * belong to trial placements that are then dropped (a gang tried on a rack whose devices it cannot use), and nobody
 * reads why. Those attempts keep a copy of the verdicts (the evaluation they came from goes on to other pods) instead
 * of a map entry per reason and node.
 */
public final class Diagnosis {
    private final int nodes;
    /** Reason → nodes, once counted ({@link #counted}); sorted by reason. */
    private final TreeMap<String, Integer> reasons = new TreeMap<>();
    /** The verdicts not counted yet, or null. */
    private Status[] verdicts;
    private String preFilterMessage;
    private boolean allUnresolvable = true;

    private Diagnosis(int nodes, Status[] verdicts) {
        this.nodes = nodes;
        this.verdicts = verdicts;
    }

    static Diagnosis preFilter(int nodes, Status status) {
        Diagnosis d = new Diagnosis(nodes, null);
        d.preFilterMessage = status.message();
        d.allUnresolvable = status.code() == dev.muster.core.framework.Code.UnschedulableAndUnresolvable;
        for (String r : status.reasons()) {
            d.reasons.put(r, nodes);
        }
        return d;
    }

    /** Of every node's verdict on a placement where the pod fits nowhere (the array is copied). */
    static Diagnosis of(Status[] verdicts) {
        return new Diagnosis(verdicts.length, verdicts.clone());
    }

    /** Counts the verdicts on first use; synchronized, as a result may be read by a parallel evaluation's threads. */
    private synchronized TreeMap<String, Integer> counted() {
        if (verdicts != null) {
            for (Status status : verdicts) {
                for (String r : status.reasons()) {
                    reasons.merge(r, 1, Integer::sum);
                }
                if (status.code() != dev.muster.core.framework.Code.UnschedulableAndUnresolvable) {
                    allUnresolvable = false;
                }
            }
            verdicts = null;
        }
        return reasons;
    }

    public int nodes() {
        return nodes;
    }

    /** Reason → nodes it excluded, by reason. */
    public Map<String, Integer> reasons() {
        return java.util.Collections.unmodifiableMap(counted());
    }

    /** No node failed for a reason that preemption could fix. */
    public synchronized boolean allUnresolvable() {
        counted();
        return allUnresolvable;
    }

    /**
     * The FitError text: {@code 0/N nodes are available: 3 Insufficient cpu, 2 node(s) were unschedulable.}
     * (reasons as "count reason", sorted as strings, as kube-scheduler does).
     */
    public String fitError() {
        StringBuilder sb = new StringBuilder("0/").append(nodes).append(" nodes are available:");
        if (preFilterMessage != null) {
            sb.append(' ').append(preFilterMessage).append('.');
            return sb.toString();
        }
        Map<String, Integer> counts = counted();
        List<String> parts = new ArrayList<>(counts.size());
        for (Map.Entry<String, Integer> e : counts.entrySet()) {
            parts.add(e.getValue() + " " + e.getKey());
        }
        parts.sort(null);
        if (!parts.isEmpty()) {
            sb.append(' ').append(String.join(", ", parts)).append('.');
        }
        return sb.toString();
    }
}
