package dev.muster.core.model;

import java.util.Comparator;
import java.util.Objects;

/** Identity of a namespaced object (a Pod or a PodGroup): namespace + name. Ordered by namespace, then name. */
public record PodRef(String namespace, String name) implements Comparable<PodRef> {
    private static final Comparator<PodRef> ORDER =
            Comparator.comparing(PodRef::namespace).thenComparing(PodRef::name);

    public PodRef {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
    }

    @Override
    public int compareTo(PodRef o) {
        return ORDER.compare(this, o);
    }

    @Override
    public String toString() {
        return namespace + "/" + name;
    }
}
