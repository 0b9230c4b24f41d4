package dev.muster.core.dra;

import java.util.Objects;

/**
 * A {@code status.reservedFor} entry: a pod ({@code apiGroup ""}, {@code resource "pods"}) or a PodGroup
 * ({@code apiGroup "scheduling.k8s.io"}, {@code resource "podgroups"}).
 */
public record ClaimConsumer(String apiGroup, String resource, String name, String uid) {
    public static final String POD_GROUP_API_GROUP = "scheduling.k8s.io";
    public static final String POD_GROUPS = "podgroups";
    public static final String PODS = "pods";

    public ClaimConsumer {
        apiGroup = apiGroup == null ? "" : apiGroup;
        Objects.requireNonNull(resource, "resource");
        Objects.requireNonNull(name, "name");
        uid = uid == null ? "" : uid;
    }

    public static ClaimConsumer pod(String name, String uid) {
        return new ClaimConsumer("", PODS, name, uid);
    }

    public static ClaimConsumer podGroup(String name, String uid) {
        return new ClaimConsumer(POD_GROUP_API_GROUP, POD_GROUPS, name, uid);
    }

    public boolean isPodGroup() {
        return POD_GROUPS.equals(resource) && POD_GROUP_API_GROUP.equals(apiGroup);
    }

    /** The same consumer: by uid when both carry one, else by kind and name (pods do not know their group's uid). */
    public boolean sameAs(ClaimConsumer o) {
        if (!resource.equals(o.resource) || !apiGroup.equals(o.apiGroup)) {
            return false;
        }
        return !uid.isEmpty() && !o.uid.isEmpty() ? uid.equals(o.uid) : name.equals(o.name);
    }
}
