package dev.muster.adapter.kube;

import java.util.AbstractList;
import java.util.List;
import java.util.RandomAccess;

/**
 * A list of snapshot objects that arrived as the object {@code kubectl get -o json} prints
 * ({@code {"apiVersion": "v1", "kind": "List", "items": [...]}} or a typed list such as {@code "kind": "NodeList"}),
 * rather than as a plain array. It reads as its items; the wrapper's {@code apiVersion} and {@code kind} are kept
 * for validation, which accepts only {@code List} and the typed list of the part. The list's {@code metadata}
 * ({@code resourceVersion}, {@code continue}) is ignored, as are its other fields.
 *
 * <p>Equal to any list with equal items (the wrapper is not part of the value), so a snapshot sent either way
 * compiles to the same request.
 *
 * @param <T> the item type
 */
public final class KubeList<T> extends AbstractList<T> implements RandomAccess {
    private final String apiVersion;
    private final String kind;
    private final List<T> items;

    /** @param items the items as decoded; null (absent or {@code null}) reads as no items */
    public KubeList(String apiVersion, String kind, List<T> items) {
        this.apiVersion = apiVersion;
        this.kind = kind;
        this.items = items == null ? List.of() : items;
    }

    /** The wrapper's {@code apiVersion} as sent (not checked), or null. */
    public String apiVersion() {
        return apiVersion;
    }

    /** The wrapper's {@code kind} as sent, or null. */
    public String kind() {
        return kind;
    }

    @Override
    public T get(int index) {
        return items.get(index);
    }

    @Override
    public int size() {
        return items.size();
    }
}
