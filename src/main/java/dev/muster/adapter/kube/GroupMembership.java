package dev.muster.adapter.kube;

import java.util.Map;
import java.util.function.Function;

/**
 * Which group a pod of a snapshot joins, by any shape the mapper reads (spec.schedulingGroup, a v1alpha1 workloadRef,
 * a Volcano or coscheduling group, a qualifying Job): what validation checks the request's {@code pods} against.
 */
public final class GroupMembership {
    private GroupMembership() {
    }

    /** For each pod of {@code s}, the name of the group it joins in its namespace, or null for a plain pod. */
    public static Function<Kube.Pod, String> of(RequestDocument.Snapshot s) {
        GangMapper gangs = new GangMapper(s);
        return p -> {
            Kube.ObjectMeta m = p.metadata();
            return gangs.memberName(p, m, m.labels() == null ? Map.of() : m.labels());
        };
    }
}
