package dev.muster.core.model;

import java.util.List;
import java.util.Map;

/**
 * A metav1.LabelSelector. An empty selector matches everything; a null selector (where the API allows one)
 * is represented by a null reference and matches nothing.
 */
public record LabelSelector(Map<String, String> matchLabels, List<Requirement> matchExpressions) {
    public enum Operator { In, NotIn, Exists, DoesNotExist }

    public record Requirement(String key, Operator operator, List<String> values) {
        public Requirement {
            values = values == null ? List.of() : List.copyOf(values);
        }

        boolean matches(Map<String, String> labels) {
            String v = labels.get(key);
            return switch (operator) {
                case In -> v != null && values.contains(v);
                case NotIn -> v == null || !values.contains(v);
                case Exists -> v != null;
                case DoesNotExist -> v == null;
            };
        }
    }

    public static final LabelSelector EVERYTHING = new LabelSelector(Map.of(), List.of());

    public LabelSelector {
        matchLabels = SortedStringMap.copyOf(matchLabels);
        matchExpressions = matchExpressions == null ? List.of() : List.copyOf(matchExpressions);
    }

    public boolean isEmpty() {
        return matchLabels.isEmpty() && matchExpressions.isEmpty();
    }

    public boolean matches(Map<String, String> labels) {
        if (!SortedStringMap.containedIn(matchLabels, labels)) {
            return false;
        }
        for (Requirement r : matchExpressions) {
            if (!r.matches(labels)) {
                return false;
            }
        }
        return true;
    }
}
