package dev.muster.adapter.validation;

import java.util.Arrays;

/**
 * The field path of the value being validated ({@code snapshot.pods[3].spec.containers[0]}), kept as a stack of
 * segments and rendered only when a cause is reported. A valid 50,000-pod request then costs no string building
 * at all: descending into a field or a list item is a push of a constant or an int, leaving it a pop.
 *
 * <p>Segments are field suffixes as written ({@code ".spec"}, {@code ".status.allocatable"}; the root has no dot),
 * list indexes (rendered {@code [3]}) and map keys (rendered {@code [cpu]}). One instance per validation: not
 * thread-safe.
 */
final class FieldPath {
    private static final int FIELD = -1;
    private static final int KEY = -2;

    private String[] texts = new String[16];
    private int[] indexes = new int[16];
    private int depth;

    FieldPath(String root) {
        push(root, FIELD);
    }

    /** Descends into a field: {@code suffix} is appended as is ({@code ".spec.taints"}). */
    FieldPath field(String suffix) {
        return push(suffix, FIELD);
    }

    /** Descends into a list item: {@code [i]} (no reference is stored: this runs for every list item). */
    FieldPath index(int i) {
        if (depth == indexes.length) {
            grow();
        }
        indexes[depth++] = i;
        return this;
    }

    /** Descends into a map entry: {@code [key]}. */
    FieldPath key(String key) {
        return push(key, KEY);
    }

    /** Leaves the last segment. */
    void pop() {
        depth--;
    }

    int depth() {
        return depth;
    }

    /** Leaves every segment pushed since {@link #depth()} returned {@code d}. */
    void reset(int d) {
        depth = d;
    }

    private void grow() {
        texts = Arrays.copyOf(texts, depth * 2);
        indexes = Arrays.copyOf(indexes, depth * 2);
    }

    private FieldPath push(String text, int index) {
        if (depth == texts.length) {
            grow();
        }
        texts[depth] = text;
        indexes[depth++] = index;
        return this;
    }

    /** The rendered path followed by {@code suffix} (a field suffix such as {@code ".metadata.name"}, or ""). */
    String at(String suffix) {
        StringBuilder sb = new StringBuilder(64);
        for (int i = 0; i < depth; i++) {
            int index = indexes[i];
            if (index == FIELD) {
                sb.append(texts[i]);
            } else if (index == KEY) {
                sb.append('[').append(texts[i]).append(']');
            } else {
                sb.append('[').append(index).append(']');
            }
        }
        return sb.append(suffix).toString();
    }

    /** The rendered path followed by {@code suffix} and an index: {@code <path><suffix>[i]}. */
    String at(String suffix, int index) {
        return at(suffix) + "[" + index + "]";
    }

    @Override
    public String toString() {
        return at("");
    }
}
