package dev.muster.core.framework;

import dev.muster.core.model.Pod;
import dev.muster.core.model.PodGroup;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The members of a gang with per-role minimums ({@link PodGroup#minPerRole}) that are on a node now, counted per
 * role: bound members from the start, a pending member from when the cycle assumes it until that is rolled back.
 * One per cycle, mutable; the cycle keeps it in step with the snapshot ({@link GroupContext#roles()}).
 */
public final class RoleTally {
    /** A role below its minimum: {@code have} of the {@code need} members on a node. */
    public record Shortfall(String role, int have, int need) {
    }

    private final String[] roles;
    private final int[] min;
    private final int[] count;

    private RoleTally(Map<String, Integer> minPerRole) {
        this.roles = minPerRole.keySet().toArray(new String[0]);
        Arrays.sort(roles);
        this.min = new int[roles.length];
        for (int i = 0; i < roles.length; i++) {
            min[i] = minPerRole.get(roles[i]);
        }
        this.count = new int[roles.length];
    }

    /** A tally of {@code group}'s roles with {@code onNode} counted, or null when the group has no role minimums. */
    public static RoleTally of(PodGroup group, List<PodInfo> onNode) {
        if (!group.hasRoleMinimums()) {
            return null;
        }
        RoleTally t = new RoleTally(group.minPerRole());
        for (PodInfo p : onNode) {
            t.add(p.pod());
        }
        return t;
    }

    /** Whether the pod's role is one with a minimum (the others need no counting). */
    public boolean counts(Pod pod) {
        return index(pod.role()) >= 0;
    }

    public void add(Pod pod) {
        int i = index(pod.role());
        if (i >= 0) {
            count[i]++;
        }
    }

    public void remove(Pod pod) {
        int i = index(pod.role());
        if (i >= 0) {
            count[i]--;
        }
    }

    /** The first role (by name) whose members on a node are below its minimum, or null when every role holds. */
    public Shortfall shortfall() {
        for (int i = 0; i < roles.length; i++) {
            if (count[i] < min[i]) {
                return new Shortfall(roles[i], count[i], min[i]);
            }
        }
        return null;
    }

    /** Whether every role has at least its minimum on a node. */
    public boolean held() {
        for (int i = 0; i < roles.length; i++) {
            if (count[i] < min[i]) {
                return false;
            }
        }
        return true;
    }

    private int index(String role) {
        return role == null ? -1 : Math.max(-1, Arrays.binarySearch(roles, role));
    }
}
