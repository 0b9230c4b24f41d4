package dev.muster.core.model;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToIntFunction;

/**
 * Victim units: which running pods are evicted together, whether a preemptor may evict them at all, and whether their
 * eviction breaks a PodDisruptionBudget (workload-aware preemption, v1.36, with Muster's CompositePodGroup trees). The
 * engine's preemption (a group's and a plain pod's), the shortage explanation and the extender's preempt verb all take
 * their units from here.
 * <ul>
 *   <li>A plain pod, or a member of a PodGroup with {@code disruptionMode: Pod}, is a unit of its own.</li>
 *   <li>The running members of a PodGroup with {@code disruptionMode: PodGroup} are one unit.</li>
 *   <li>Below a CompositePodGroup with {@code disruptionMode: PodGroup}, every running pod of every group of its tree is
 *       one unit; the highest such composite names it, whatever the modes of the groups and composites under it.</li>
 * </ul>
 * A unit's priority is its pods' effective priority (a PodGroup's priority stands for its members, and a composite
 * that sets one for its whole tree); a tree takes the highest of its pods'. A preemptor may evict a unit only when
 * that priority is strictly lower than its own, and never a unit of its own group or of its own tree.
 * <p>
 * A pod counts as running when it is bound, not terminal and not terminating ({@link #running(Pod)}): a unit is what
 * would have to go, so a pod already on its way out is in none.
 *
 * An instance answers for the pods it was given and is used by one thread.
 *
 * @param <P> how the caller holds a pod: the engine's compiled pod, or the model's {@link Pod}
 */
public final class VictimUnits<P> {
    /** What a unit is made of. */
    public enum Kind {
        /** One pod: a plain pod, or a member of a {@code disruptionMode: Pod} group. */
        POD,
        /** Every running member of a {@code disruptionMode: PodGroup} PodGroup. */
        POD_GROUP,
        /** Every running pod below a CompositePodGroup with {@code disruptionMode: PodGroup}. */
        COMPOSITE
    }

    /**
     * One unit of eviction.
     *
     * @param owner          the PodGroup ({@link Kind#POD_GROUP}) or CompositePodGroup ({@link Kind#COMPOSITE})
     *                       evicted whole; null for one pod
     * @param pods           the unit's running pods, in the order they were given
     * @param first          the first pod's reference: the last tie-break of importance
     * @param priority       the priority the unit is evicted at
     * @param creation       creation time (epoch seconds) of the PodGroup, of the oldest pod of a tree, or of the pod
     * @param violatesBudget evicting the unit on its own takes more disruptions from some matching PodDisruptionBudget
     *                       than it allows
     */
    public record Unit<P>(Kind kind, GroupRef owner, List<P> pods, PodRef first, int priority, long creation,
                          boolean violatesBudget) {
        public Unit {
            pods = List.copyOf(pods);
        }

        /** Whether the unit is a group or a tree evicted whole rather than one pod. */
        public boolean whole() {
            return kind != Kind.POD;
        }
    }

    /**
     * Upstream's moreImportantVictim, most important first: higher priority, a group before a pod, a bigger group,
     * older, then the first pod's reference.
     */
    public static final Comparator<Unit<?>> MOST_IMPORTANT_FIRST = (a, b) -> {
        if (a.priority() != b.priority()) {
            return Integer.compare(b.priority(), a.priority());
        }
        if (a.whole() != b.whole()) {
            return a.whole() ? -1 : 1;
        }
        if (a.whole() && a.pods().size() != b.pods().size()) {
            return Integer.compare(b.pods().size(), a.pods().size());
        }
        if (a.creation() != b.creation()) {
            return Long.compare(a.creation(), b.creation());
        }
        return a.first().compareTo(b.first());
    };

    private record Owner(Kind kind, GroupRef ref) {
    }

    /** A group whose pods go one by one. */
    private static final Owner ALONE = new Owner(Kind.POD, null);

    private final Function<P, Pod> podOf;
    private final ToIntFunction<P> priorityOf;
    private final Map<GroupRef, PodGroup> groups;
    private final Map<GroupRef, CompositePodGroup> composites;
    private final List<PodDisruptionBudget> budgets;
    private final List<Unit<P>> all;
    /** Each running pod's unit, built on the first {@link #unitOf} (the engine never asks). */
    private Map<PodRef, Unit<P>> byPod;
    private final Map<GroupRef, Unit<P>> byOwner = new HashMap<>();

    /**
     * The units of a cluster's running pods.
     *
     * @param running    the running pods ({@link #running(Pod)}, and on a node as the caller sees the cluster)
     * @param podOf      the model pod of a running pod
     * @param priorityOf a pod's effective priority: its PodGroup's (a composite's above it that sets one) or its own
     * @param groups     the cluster's PodGroups by reference
     * @param composites the cluster's CompositePodGroups by reference
     * @param budgets    the cluster's PodDisruptionBudgets
     */
    public VictimUnits(Collection<P> running, Function<P, Pod> podOf, ToIntFunction<P> priorityOf,
                       Map<GroupRef, PodGroup> groups, Map<GroupRef, CompositePodGroup> composites,
                       List<PodDisruptionBudget> budgets) {
        this.podOf = podOf;
        this.priorityOf = priorityOf;
        this.groups = groups;
        this.composites = composites;
        this.budgets = List.copyOf(budgets);
        List<Unit<P>> singles = new ArrayList<>();
        Map<Owner, List<P>> whole = new LinkedHashMap<>();
        Map<GroupRef, Owner> owners = new HashMap<>();
        for (P p : running) {
            Pod pod = podOf.apply(p);
            GroupRef g = pod.groupRef();
            Owner o = g == null ? ALONE : owners.computeIfAbsent(g, this::ownerOf);
            if (o == ALONE) {
                singles.add(unit(Kind.POD, null, List.of(p), pod.creationEpochSec()));
            } else {
                whole.computeIfAbsent(o, k -> new ArrayList<>()).add(p);
            }
        }
        // Pods first, then groups, then trees, each in the order its first pod was given (see all()).
        List<Unit<P>> out = new ArrayList<>(singles);
        for (Kind kind : List.of(Kind.POD_GROUP, Kind.COMPOSITE)) {
            for (Map.Entry<Owner, List<P>> e : whole.entrySet()) {
                if (e.getKey().kind() == kind) {
                    Unit<P> u = unit(kind, e.getKey().ref(), e.getValue(), creation(e.getKey(), e.getValue()));
                    out.add(u);
                    byOwner.put(u.owner(), u);
                }
            }
        }
        this.all = List.copyOf(out);
    }

    /** The units of a cluster state's running pods, with effective priorities from {@code priorityOf}. */
    public static VictimUnits<Pod> of(ClusterState state, ToIntFunction<Pod> priorityOf) {
        List<Pod> running = new ArrayList<>();
        for (Pod p : state.pods()) {
            if (running(p)) {
                running.add(p);
            }
        }
        Map<GroupRef, PodGroup> groups = new HashMap<>();
        for (PodGroup g : state.podGroups()) {
            groups.put(g.ref(), g);
        }
        Map<GroupRef, CompositePodGroup> composites = new HashMap<>();
        for (CompositePodGroup c : state.compositePodGroups()) {
            composites.put(c.ref(), c);
        }
        return new VictimUnits<>(running, p -> p, priorityOf, groups, composites, state.podDisruptionBudgets());
    }

    /** Whether a pod is running: bound, not terminal and not terminating. Only running pods are in units. */
    public static boolean running(Pod pod) {
        return pod.isBound() && !pod.isTerminal() && !pod.terminating();
    }

    /** Whether a victim at {@code victimPriority} may make room for a preemptor at {@code preemptorPriority}. */
    public static boolean eligible(int victimPriority, int preemptorPriority) {
        return victimPriority < preemptorPriority;
    }

    /** Every unit: pods first, then PodGroups, then trees, each in the order their first pod was given. */
    public List<Unit<P>> all() {
        return all;
    }

    /**
     * The units a preemptor may evict, in {@link #all()}'s order: below its priority, and neither its own group's
     * pods nor its own tree.
     *
     * @param self the preemptor's PodGroup (a plain pod's stand-in group is in no tree)
     */
    public List<Unit<P>> eligible(GroupRef self, int preemptorPriority) {
        GroupRef ownTree = self == null ? null : treeOf(groups.get(self));
        List<Unit<P>> out = new ArrayList<>();
        for (Unit<P> u : all) {
            if (eligible(u, self, ownTree, preemptorPriority)) {
                out.add(u);
            }
        }
        return out;
    }

    /** Whether the preemptor of group {@code self} at {@code preemptorPriority} may evict unit {@code u}. */
    public boolean eligible(Unit<P> u, GroupRef self, int preemptorPriority) {
        return eligible(u, self, self == null ? null : treeOf(groups.get(self)), preemptorPriority);
    }

    private boolean eligible(Unit<P> u, GroupRef self, GroupRef ownTree, int preemptorPriority) {
        if (!eligible(u.priority(), preemptorPriority)) {
            return false;
        }
        return switch (u.kind()) {
            case POD -> self == null || !self.equals(podOf.apply(u.pods().get(0)).groupRef());
            case POD_GROUP -> !u.owner().equals(self);
            case COMPOSITE -> !u.owner().equals(ownTree);
        };
    }

    /**
     * The unit a pod would be evicted in: its own when it is running; for a pod the caller sees but that is not
     * running, the unit of its group or tree when that has running pods (the pod itself is not among them), else a
     * unit of the pod alone.
     */
    public Unit<P> unitOf(P pod) {
        if (byPod == null) {
            Map<PodRef, Unit<P>> index = new HashMap<>();
            for (Unit<P> u : all) {
                for (P member : u.pods()) {
                    index.put(podOf.apply(member).ref(), u);
                }
            }
            byPod = index;
        }
        Pod p = podOf.apply(pod);
        Unit<P> u = byPod.get(p.ref());
        if (u != null) {
            return u;
        }
        Owner o = p.groupRef() == null ? ALONE : ownerOf(p.groupRef());
        u = o == ALONE ? null : byOwner.get(o.ref());
        return u != null ? u : unit(Kind.POD, null, List.of(pod), p.creationEpochSec());
    }

    /**
     * Upstream's filterPodsWithPDBViolation over units in the given order: each matching budget's allowed disruptions
     * are used up pod by pod, and a unit violates when one of its pods takes a disruption beyond what a budget allows.
     * One flag per unit, in order.
     */
    public boolean[] violationsInOrder(List<Unit<P>> inOrder) {
        int[] allowed = allowances();
        boolean[] out = new boolean[inOrder.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = take(inOrder.get(i).pods(), allowed);
        }
        return out;
    }

    // ---------------------------------------------------------------- the rule

    /** The group or tree the group's pods are evicted with, or {@link #ALONE} when each goes on its own. */
    private Owner ownerOf(GroupRef g) {
        PodGroup group = groups.get(g);
        GroupRef tree = treeOf(group);
        if (tree != null) {
            return new Owner(Kind.COMPOSITE, tree);
        }
        return group != null && group.disruptionMode() == DisruptionMode.PodGroup ? new Owner(Kind.POD_GROUP, g)
                : ALONE;
    }

    /**
     * The CompositePodGroup whose {@code disruptionMode: PodGroup} makes the group's pods go only with every running
     * pod of its tree: the highest such composite above the group, or null.
     */
    private GroupRef treeOf(PodGroup group) {
        if (group == null || group.parentComposite() == null) {
            return null;
        }
        CompositePodGroup c = composites.get(new GroupRef(group.ref().namespace(), group.parentComposite()));
        GroupRef highest = null;
        for (int depth = 0; c != null && depth <= CompositePodGroup.MAX_TREE_DEPTH; depth++) {
            if (c.disruptionMode() == DisruptionMode.PodGroup) {
                highest = c.ref();
            }
            c = c.parent() == null ? null : composites.get(new GroupRef(c.ref().namespace(), c.parent()));
        }
        return highest;
    }

    private Unit<P> unit(Kind kind, GroupRef owner, List<P> pods, long creation) {
        int priority = Integer.MIN_VALUE;
        for (P p : pods) {
            priority = Math.max(priority, priorityOf.applyAsInt(p));
        }
        return new Unit<>(kind, owner, pods, podOf.apply(pods.get(0)).ref(), priority, creation,
                !budgets.isEmpty() && take(pods, allowances()));
    }

    private long creation(Owner o, List<P> pods) {
        PodGroup g = o.kind() == Kind.POD_GROUP ? groups.get(o.ref()) : null;
        if (g != null) {
            return g.creationEpochSec();
        }
        long oldest = Long.MAX_VALUE;
        for (P p : pods) {
            oldest = Math.min(oldest, podOf.apply(p).creationEpochSec());
        }
        return oldest;
    }

    private int[] allowances() {
        int[] allowed = new int[budgets.size()];
        for (int i = 0; i < allowed.length; i++) {
            allowed[i] = budgets.get(i).disruptionsAllowed();
        }
        return allowed;
    }

    /** Uses up {@code allowed} for the pods; whether one of them took a disruption a budget does not allow. */
    private boolean take(List<P> pods, int[] allowed) {
        boolean violates = false;
        for (P p : pods) {
            Pod pod = podOf.apply(p);
            for (int i = 0; i < allowed.length; i++) {
                PodDisruptionBudget b = budgets.get(i);
                if (b.ref().namespace().equals(pod.ref().namespace()) && b.selector() != null
                        && !b.selector().isEmpty() && b.selector().matches(pod.labels()) && --allowed[i] < 0) {
                    violates = true;
                }
            }
        }
        return violates;
    }
}
