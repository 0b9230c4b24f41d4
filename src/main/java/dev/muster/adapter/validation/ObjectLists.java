package dev.muster.adapter.validation;

import dev.muster.adapter.kube.Kube;
import dev.muster.adapter.kube.SnapshotList;
import dev.muster.adapter.kube.Timestamps;

import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * The rules every list of top-level snapshot objects shares: the list's length limit, a non-null item of the kind
 * the list holds, its metadata (name, namespace, timestamps) and no two items with the same name (per namespace when
 * namespaced). An {@link ObjectFamily} describes each of its lists with a {@link Kind} and adds its own checks as a
 * {@link Rule}.
 */
final class ObjectLists {
    /** Lists whose family checks an object's apiVersion itself, as it reads each version its own way. */
    private static final Set<SnapshotList> VERSIONED_BY_FAMILY = EnumSet.of(SnapshotList.POD_GROUPS,
            SnapshotList.WORKLOADS, SnapshotList.JOBS, SnapshotList.COMPOSITE_POD_GROUPS, SnapshotList.HYPER_NODES);

    private ObjectLists() {
    }

    /**
     * One list of top-level objects: its field under the snapshot ({@code ".pods"}), the message when an item is
     * null, whether its objects are namespaced, and how to reach an object's metadata.
     */
    record Kind<T>(String field, String nullMessage, boolean namespaced, Function<T, Kube.ObjectMeta> metadata) {
    }

    /** The checks of one object beyond its metadata; {@code p} is the object's path ({@code snapshot.pods[3]}). */
    @FunctionalInterface
    interface Rule<T> {
        void check(T object, FieldPath p, Causes c);
    }

    /** No checks beyond the metadata. */
    static <T> Rule<T> metadataOnly() {
        return (o, p, c) -> {
        };
    }

    /**
     * Checks every item of {@code list} (null: nothing to check): the limit first (over it, one TooMany cause and
     * no item is checked), then per item its metadata, its name's uniqueness and {@code rule}, in list order.
     * {@code p} is the snapshot's path; it is left as it was found.
     */
    static <T> void check(Kind<T> kind, List<T> list, int max, FieldPath p, Rule<T> rule, Causes c) {
        if (!withinLimit(list, p, kind.field(), max, c)) {
            return;
        }
        Set<Object> seen = seenSet(list.size());
        SnapshotList holds = SnapshotList.ofField(kind.field().startsWith(".") ? kind.field().substring(1)
                : kind.field());
        p.field(kind.field());
        for (int i = 0; i < list.size(); i++) {
            T o = list.get(i);
            int d = p.depth();
            p.index(i);
            if (o == null) {
                c.required(p.at(""), kind.nullMessage());
            } else if (belongs(o, holds, p, c)) {
                Kube.ObjectMeta m = kind.metadata().apply(o);
                String name = validateMeta(m, p, kind.namespaced(), c);
                duplicate(seen, m, name, kind.namespaced(), p, c);
                rule.check(o, p, c);
            }
            p.reset(d);
        }
        p.pop();
    }

    /**
     * False, with a {@code FieldValueNotSupported} on its {@code kind}, when {@code o} says it is of another kind
     * than {@code list} holds (a Pod among the nodes, as when {@code kubectl get nodes,pods -o json} is pasted as the
     * nodes): its other rules are then not checked, as they are another kind's. An object that leaves its kind out is
     * taken for the list's. An apiVersion Muster does not read for the list is a {@code FieldValueNotSupported} on it.
     */
    private static boolean belongs(Object o, SnapshotList list, FieldPath p, Causes c) {
        if (list == null || !(o instanceof Kube.TypeMeta t)) {
            return true;
        }
        String kind = t.kind();
        if (kind != null && !kind.isEmpty() && !kind.equals(list.kind())) {
            c.notSupported(p.at(".kind"), kind, List.of(list.kind()));
            return false;
        }
        String version = t.apiVersion();
        if (version != null && !version.isEmpty() && !VERSIONED_BY_FAMILY.contains(list)
                && !list.apiVersions().contains(version)) {
            c.notSupported(p.at(".apiVersion"), version, list.apiVersions());
        }
        return true;
    }

    /** False (and a TooMany cause) when the list is over its limit: its items are then not checked one by one. */
    static boolean withinLimit(List<?> list, FieldPath p, String field, int max, Causes c) {
        if (list == null) {
            return false;
        }
        if (list.size() > max) {
            c.tooMany(p.at(field), list.size(), max);
            return false;
        }
        return true;
    }

    /**
     * Name required and well-formed, namespace a DNS label, timestamps RFC 3339. Returns the name or null.
     * {@code p} is the object's path.
     */
    private static String validateMeta(Kube.ObjectMeta m, FieldPath p, boolean namespaced, Causes c) {
        if (m == null) {
            c.required(p.at(".metadata.name"), "name is required");
            return null;
        }
        String name = m.name();
        if (name == null || name.isEmpty()) {
            c.required(p.at(".metadata.name"), "name is required");
            name = null;
        } else if (!Names.isDnsSubdomain(name)) {
            c.invalid(p.at(".metadata.name"), name, Names.DNS_SUBDOMAIN_MESSAGE);
        }
        if (namespaced && m.namespace() != null && !m.namespace().isEmpty() && !Names.isDnsLabel(m.namespace())) {
            c.invalid(p.at(".metadata.namespace"), m.namespace(), Names.DNS_LABEL_MESSAGE);
        }
        if (m.creationTimestamp() != null && !m.creationTimestamp().isEmpty() && !Timestamps.isValid(m.creationTimestamp())) {
            c.invalid(p.at(".metadata.creationTimestamp"), m.creationTimestamp(),
                    "must be an RFC 3339 time (e.g. \"2026-04-22T10:15:30Z\")");
        }
        if (m.deletionTimestamp() != null && !m.deletionTimestamp().isEmpty() && !Timestamps.isValid(m.deletionTimestamp())) {
            c.invalid(p.at(".metadata.deletionTimestamp"), m.deletionTimestamp(),
                    "must be an RFC 3339 time (e.g. \"2026-04-22T10:15:30Z\")");
        }
        return name;
    }

    /** The identity of a namespaced object, without concatenating namespace and name. */
    private record NamespacedName(String namespace, String name) {
    }

    private static Object key(Kube.ObjectMeta m, String name, boolean namespaced) {
        return namespaced ? new NamespacedName(m.namespaceOrDefault(), name) : name;
    }

    private static void duplicate(Set<Object> seen, Kube.ObjectMeta m, String name, boolean namespaced, FieldPath p,
                                  Causes c) {
        if (name != null && !seen.add(key(m, name, namespaced))) {
            c.duplicate(p.at(".metadata.name"), name);
        }
    }

    private static Set<Object> seenSet(int size) {
        return new HashSet<>(Math.max(16, (int) (size / 0.75f) + 1));
    }
}
