package dev.muster.core.model;

import java.util.List;

/** A node selector term: all expressions and fields must match (AND). Terms of a selector are ORed. */
public record NodeSelectorTerm(List<NodeSelectorRequirement> matchExpressions, List<NodeSelectorRequirement> matchFields) {
    public NodeSelectorTerm {
        matchExpressions = matchExpressions == null ? List.of() : List.copyOf(matchExpressions);
        matchFields = matchFields == null ? List.of() : List.copyOf(matchFields);
    }
}
