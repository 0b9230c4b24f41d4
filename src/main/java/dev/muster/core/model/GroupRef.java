package dev.muster.core.model;

import java.util.Comparator;
import java.util.Objects;

/** Identity of a PodGroup: namespace + name. Ordered by namespace, then name. */
public record GroupRef(String namespace, String name) implements Comparable<GroupRef> {
    private static final Comparator<GroupRef> ORDER =
            Comparator.comparing(GroupRef::namespace).thenComparing(GroupRef::name);

    public GroupRef {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
    }

    /** Parses {@code namespace/name}; a bare name is taken in {@code defaultNamespace}. */
    public static GroupRef parse(String text, String defaultNamespace) {
        int slash = text.indexOf('/');
        return slash < 0 ? new GroupRef(defaultNamespace, text)
                : new GroupRef(text.substring(0, slash), text.substring(slash + 1));
    }

    @Override
    public int compareTo(GroupRef o) {
        return ORDER.compare(this, o);
    }

    @Override
    public String toString() {
        return namespace + "/" + name;
    }
}
