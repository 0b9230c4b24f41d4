package dev.muster.core.model;

import java.util.List;

/** A node selector requirement ({@code matchExpressions[]} or {@code matchFields[]} entry). */
public record NodeSelectorRequirement(String key, Operator operator, List<String> values) {
    public enum Operator { In, NotIn, Exists, DoesNotExist, Gt, Lt }

    public NodeSelectorRequirement {
        values = values == null ? List.of() : List.copyOf(values);
    }
}
