package dev.muster.core.decision;

import java.util.List;

/** Every decision of a request in decision order, and the pods that took part in none. */
public record DecisionResult(List<Decision> decisions, List<PodStatus> pods) {
    public DecisionResult {
        decisions = List.copyOf(decisions);
        pods = List.copyOf(pods);
    }
}
