package dev.muster.core.cycle;

import dev.muster.core.framework.Status;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Why a pod fits on no node of a placement: for each reason, the number of nodes it excluded (kube-scheduler's
 * FitError histogram), or a PreFilter verdict that excluded every node at once.
 */
public final class Diagnosis {
    private final int nodes;
    private final TreeMap<String, Integer> reasons = new TreeMap<>();
    private String preFilterMessage;
    private boolean allUnresolvable = true;

    Diagnosis(int nodes) {
        this.nodes = nodes;
    }

    static Diagnosis preFilter(int nodes, Status status) {
        Diagnosis d = new Diagnosis(nodes);
        d.preFilterMessage = status.message();
        d.allUnresolvable = status.code() == dev.muster.core.framework.Code.UnschedulableAndUnresolvable;
        for (String r : status.reasons()) {
            d.reasons.put(r, nodes);
        }
        return d;
    }

    void add(Status status) {
        for (String r : status.reasons()) {
            reasons.merge(r, 1, Integer::sum);
        }
        if (status.code() != dev.muster.core.framework.Code.UnschedulableAndUnresolvable) {
            allUnresolvable = false;
        }
    }

    public int nodes() {
        return nodes;
    }

    /** Reason → nodes it excluded, by reason. */
    public Map<String, Integer> reasons() {
        return java.util.Collections.unmodifiableMap(reasons);
    }

    /** No node failed for a reason that preemption could fix. */
    public boolean allUnresolvable() {
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
        List<String> parts = new ArrayList<>(reasons.size());
        for (Map.Entry<String, Integer> e : reasons.entrySet()) {
            parts.add(e.getValue() + " " + e.getKey());
        }
        parts.sort(null);
        if (!parts.isEmpty()) {
            sb.append(' ').append(String.join(", ", parts)).append('.');
        }
        return sb.toString();
    }
}
