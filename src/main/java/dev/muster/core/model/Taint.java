package dev.muster.core.model;

/** A node taint ({@code spec.taints[]}). {@code value} is "" when absent. */
public record Taint(String key, String value, TaintEffect effect) {
    public Taint {
        value = value == null ? "" : value;
    }

    /** kube-scheduler's rendering in FitError reasons: {@code {key: value}}. */
    public String render() {
        return "{" + key + ": " + value + "}";
    }
}
