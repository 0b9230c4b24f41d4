package dev.muster.core.snapshot;

import dev.muster.core.model.ClusterState;
import dev.muster.core.model.CompositePodGroup;
import dev.muster.core.model.GroupRef;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodGroup;
import dev.muster.core.model.PriorityClass;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Upstream priority admission, applied after the fact: an explicit priority wins; else the named
 * PriorityClass's value; else, with no class named, the global-default class (the one with the highest value
 * if several claim it, then the first name); else 0. A named class that is not in the snapshot resolves to 0.
 * <p>
 * The engine compiles priorities with it; the extender resolves victims' and preemptors' priorities with it, so both
 * answer the same.
 */
public final class Priorities {
    private final Map<String, Integer> byName = new HashMap<>();
    private final int globalDefault;
    private final Map<GroupRef, Integer> groups = new HashMap<>();

    public Priorities(List<PriorityClass> classes) {
        PriorityClass dflt = null;
        for (PriorityClass pc : classes) {
            byName.put(pc.name(), pc.value());
            if (pc.globalDefault() && (dflt == null || pc.value() > dflt.value()
                    || (pc.value() == dflt.value() && pc.name().compareTo(dflt.name()) < 0))) {
                dflt = pc;
            }
        }
        globalDefault = dflt == null ? 0 : dflt.value();
    }

    /** The classes of a cluster, with its PodGroups' priorities resolved for {@link #effective(Pod)}. */
    public static Priorities of(ClusterState cluster) {
        Priorities p = new Priorities(cluster.priorityClasses());
        Map<GroupRef, CompositePodGroup> composites = new HashMap<>();
        for (CompositePodGroup c : cluster.compositePodGroups()) {
            composites.put(c.ref(), c);
        }
        p.groups.putAll(p.groupPriorities(cluster.podGroups(), composites));
        return p;
    }

    /**
     * Each PodGroup's priority ({@link #group}), by reference.
     *
     * @param composites the cluster's CompositePodGroups by reference
     */
    public Map<GroupRef, Integer> groupPriorities(List<PodGroup> podGroups, Map<GroupRef, CompositePodGroup> composites) {
        Map<GroupRef, Integer> out = new HashMap<>();
        for (PodGroup g : podGroups) {
            out.put(g.ref(), group(g, composites));
        }
        return out;
    }

    /**
     * A PodGroup's priority: the nearest CompositePodGroup above it that sets one stands for its whole tree; else the
     * group's own.
     *
     * @param composites the cluster's CompositePodGroups by reference
     */
    public int group(PodGroup g, Map<GroupRef, CompositePodGroup> composites) {
        CompositePodGroup c = g.parentComposite() == null ? null
                : composites.get(new GroupRef(g.ref().namespace(), g.parentComposite()));
        for (int depth = 0; c != null && depth <= CompositePodGroup.MAX_TREE_DEPTH; depth++) {
            if (c.setsPriority()) {
                return resolve(c.priority(), c.priorityClassName());
            }
            c = c.parent() == null ? null : composites.get(new GroupRef(c.ref().namespace(), c.parent()));
        }
        return resolve(g.priority(), g.priorityClassName());
    }

    /** A priority as admission would set it from {@code spec.priority} and {@code spec.priorityClassName}. */
    public int resolve(Integer explicit, String className) {
        if (explicit != null) {
            return explicit;
        }
        if (className == null || className.isEmpty()) {
            return globalDefault;
        }
        Integer v = byName.get(className);
        return v == null ? 0 : v;
    }

    /**
     * The priority a pod preempts and is preempted at: its PodGroup's when the group is known (built with
     * {@link #of}), else its own.
     */
    public int effective(Pod pod) {
        Integer g = pod.groupRef() == null ? null : groups.get(pod.groupRef());
        return g != null ? g : resolve(pod.priority(), pod.priorityClassName());
    }
}
