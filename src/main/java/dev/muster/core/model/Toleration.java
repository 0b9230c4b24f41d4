package dev.muster.core.model;

/**
 * A pod toleration. {@code key} "" with operator Exists tolerates every taint; {@code effect} null matches
 * every effect; operator defaults to Equal upstream (the mapper fills it in).
 */
public record Toleration(String key, Operator operator, String value, TaintEffect effect) {
    public enum Operator { Equal, Exists }

    public Toleration {
        key = key == null ? "" : key;
        value = value == null ? "" : value;
        operator = operator == null ? Operator.Equal : operator;
    }

    /** v1.Toleration.ToleratesTaint. */
    public boolean tolerates(Taint taint) {
        if (effect != null && effect != taint.effect()) {
            return false;
        }
        if (!key.isEmpty() && !key.equals(taint.key())) {
            return false;
        }
        return switch (operator) {
            case Exists -> true;
            case Equal -> value.equals(taint.value());
        };
    }
}
