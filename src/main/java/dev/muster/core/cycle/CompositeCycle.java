package dev.muster.core.cycle;

import dev.muster.core.framework.GroupDomains;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.model.CompositePodGroup;
import dev.muster.core.model.GroupRef;
import dev.muster.core.model.PodGroup;
import dev.muster.core.snapshot.ClusterSnapshot;
import dev.muster.core.snapshot.SnapshotOverlay;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One CompositePodGroup tree decided as a unit: every child PodGroup runs its own {@link PodGroupCycle} (its own
 * policy, constraints and placements), children in reference order, nested composites recursively.
 * <ul>
 *   <li>A gang composite holds when at least {@code minGroupCount} of its children hold (a PodGroup child is
 *   Scheduled; a composite child holds); otherwise nothing of it stays placed. A basic composite always holds: its
 *   children are decided on their own.</li>
 *   <li>A composite with a topology constraint puts every member of every child in one domain of its key: the
 *   domains are tried in label-value order, each with the whole subtree confined to it, and the first that holds is
 *   kept. Bound members of the tree pin it to their domain ({@link GroupDomains}); one on a node without the key
 *   pins nothing.</li>
 * </ul>
 * With preemption allowed, a tree in which a child is left unschedulable is decided once more with each child
 * allowed to preempt (at the tree's priority; a child still places without victims when it can): a child that finds
 * victims holds its place as Preempting. When the tree then does not hold, every victim is given back with the rest
 * (the overlay rolls back to the tree's mark) and the tree is decided as the cluster stands. So a tree evicts
 * nothing unless the whole tree then holds, and never evicts when every child fits without. A PodGroup whose
 * parent composite is not in the snapshot is not part of any tree.
 */
public final class CompositeCycle {
    /**
     * What one child PodGroup of the tree ended with: {@code outcome} null when it was not tried (nothing pending, or
     * its composite could no longer hold); {@code failure} set when a gang composite above it fell short, so nothing
     * of it stays placed, saying which child held that composite back.
     */
    public record Child(PodGroup group, CompositePodGroup parent, GroupOutcome outcome, String failure) {
        Child(PodGroup group, CompositePodGroup parent, GroupOutcome outcome) {
            this(group, parent, outcome, null);
        }

        Child failed(String why) {
            return failure != null ? this : new Child(group, parent, outcome, why);
        }
    }

    /**
     * How the tree ended: {@code held} (the root's promise holds; children's outcomes stand) or not (nothing placed;
     * {@code message} says which child held it back).
     */
    public record Result(boolean held, List<Child> children, String message) {
    }

    private final SchedulingScope scope;
    private final SnapshotOverlay snapshot;
    private final long searchBudget;
    private final Map<GroupRef, List<Object>> children;
    private boolean preempting;

    public CompositeCycle(SchedulingScope scope, long searchBudget) {
        this.scope = scope;
        this.snapshot = scope.snapshot();
        this.searchBudget = searchBudget;
        this.children = childrenOf(snapshot.snapshot());
    }

    /**
     * Each composite's children in reference order: its PodGroups ({@link PodGroup}) and composites
     * ({@link CompositePodGroup}).
     */
    public static Map<GroupRef, List<Object>> childrenOf(ClusterSnapshot s) {
        Map<GroupRef, TreeMap<GroupRef, Object>> byRef = new TreeMap<>();
        for (PodGroup g : s.podGroups().values()) {
            CompositePodGroup parent = s.parentOf(g);
            if (parent != null) {
                byRef.computeIfAbsent(parent.ref(), k -> new TreeMap<>()).put(g.ref(), g);
            }
        }
        for (CompositePodGroup c : s.compositePodGroups().values()) {
            if (c.parent() != null) {
                GroupRef parent = new GroupRef(c.ref().namespace(), c.parent());
                if (s.compositePodGroups().containsKey(parent)) {
                    byRef.computeIfAbsent(parent, k -> new TreeMap<>()).put(c.ref(), c);
                }
            }
        }
        Map<GroupRef, List<Object>> out = new TreeMap<>();
        byRef.forEach((k, v) -> out.put(k, List.copyOf(v.values())));
        return out;
    }

    /** Decides the tree under {@code root} without preemption. When it does not hold, the overlay is as it was. */
    public Result run(CompositePodGroup root) {
        return run(root, false);
    }

    /**
     * Decides the tree under {@code root}; with {@code preemption}, a tree that does not hold as the cluster stands is
     * decided again with its children allowed to preempt. When it does not hold, the overlay is as it was before.
     */
    public Result run(CompositePodGroup root, boolean preemption) {
        int mark = snapshot.mark();
        preempting = false;
        Result plain = decide(root, null, null, 0);
        if (!preemption || !scope.runtime().hasPostFilter() || (plain.held() && noneUnschedulable(plain))) {
            return plain;
        }
        snapshot.rollbackTo(mark);
        preempting = true;
        Result withVictims = decide(root, null, null, 0);
        if (withVictims.held()) {
            return withVictims;
        }
        snapshot.rollbackTo(mark);
        preempting = false;
        return decide(root, null, null, 0);
    }

    /** Whether no child failed in a way preemption could change. */
    private static boolean noneUnschedulable(Result r) {
        for (Child c : r.children()) {
            if (c.failure() != null || (c.outcome() != null && c.outcome().kind() == GroupOutcome.Kind.UNSCHEDULABLE)) {
                return false;
            }
        }
        return true;
    }

    private Result decide(CompositePodGroup c, String withinName, int[] within, int depth) {
        if (depth > CompositePodGroup.MAX_TREE_DEPTH) {
            return new Result(false, List.of(), "composite pod group \"" + c.ref() + "\" is deeper than "
                    + CompositePodGroup.MAX_TREE_DEPTH + " levels");
        }
        if (c.topologyKeys().isEmpty()) {
            return decideChildren(c, withinName, within, depth);
        }
        String key = c.topologyKeys().get(0);
        GroupDomains.Pin pin = GroupDomains.pinSkippingOutside(boundMembers(c), key, scope.allNodes());
        Result first = null;
        String firstDomain = null;
        for (GroupDomains.Domain d : GroupDomains.domains(scope.allNodes(), key, pin, within)) {
            scope.checkStop();
            Result r = decideChildren(c, d.name(), d.nodes(), depth);
            if (r.held()) {
                return r;
            }
            if (first == null) {
                first = r;
                firstDomain = d.name();
            }
        }
        if (first == null) {
            String why = "composite pod group \"" + c.ref() + "\": no domain of " + key + " can hold it";
            return new Result(false, failedAll(leaves(c), why), why);
        }
        String why = "no domain of " + key + " holds composite pod group \"" + c.ref() + "\"; in " + firstDomain
                + ": " + first.message();
        List<Child> kids = new ArrayList<>();
        for (Child ch : first.children()) {
            // The composite's own reason gains the domain; a deeper composite's reason stays its own.
            kids.add(first.message().equals(ch.failure()) ? new Child(ch.group(), ch.parent(), ch.outcome(), why)
                    : ch.failed(why));
        }
        return new Result(false, kids, why);
    }

    /** The children in order; a gang composite that falls short is rolled back whole. */
    private Result decideChildren(CompositePodGroup c, String withinName, int[] within, int depth) {
        int mark = snapshot.mark();
        List<Object> kids = children.getOrDefault(c.ref(), List.of());
        List<Child> out = new ArrayList<>();
        int held = 0;
        String heldBack = null;
        for (int i = 0; i < kids.size(); i++) {
            Object kid = kids.get(i);
            boolean ok;
            if (kid instanceof PodGroup g) {
                GroupOutcome o = decideGroup(g, withinName, within);
                out.add(new Child(g, c, o));
                ok = o == null ? boundHolds(g) : o.kind() == GroupOutcome.Kind.SCHEDULED
                        || o.kind() == GroupOutcome.Kind.PREEMPTING;
                if (!ok && heldBack == null) {
                    heldBack = "pod group \"" + g.ref() + "\" held it back: " + message(g, o);
                }
            } else {
                CompositePodGroup cc = (CompositePodGroup) kid;
                Result r = decide(cc, withinName, within, depth + 1);
                out.addAll(r.children());
                ok = r.held();
                if (!ok && heldBack == null) {
                    heldBack = "composite pod group \"" + cc.ref() + "\" held it back: " + r.message();
                }
            }
            if (ok) {
                held++;
            }
            if (c.gang() && held + (kids.size() - i - 1) < c.minGroupCount()) {
                // Cannot reach minGroupCount any more: the rest is not tried.
                for (int j = i + 1; j < kids.size(); j++) {
                    if (kids.get(j) instanceof PodGroup g) {
                        out.add(new Child(g, c, null));
                    } else {
                        out.addAll(leaves((CompositePodGroup) kids.get(j)));
                    }
                }
                break;
            }
        }
        if (!c.gang() || held >= c.minGroupCount()) {
            return new Result(true, out, null);
        }
        snapshot.rollbackTo(mark);
        String why = String.format("composite pod group \"%s\": %d of %d required child groups schedulable; %s",
                c.ref(), held, c.minGroupCount(), heldBack == null ? "no child holds" : heldBack);
        return new Result(false, failedAll(out, why), why);
    }

    /** The child's cycle, confined to the composite's domain; null when it has no member to place. */
    private GroupOutcome decideGroup(PodGroup g, String withinName, int[] within) {
        List<PodInfo> members = snapshot.members(g.ref());
        boolean pending = false;
        for (PodInfo p : members) {
            if (PodGroupCycle.isPending(p.pod()) && !p.pod().isGated()) {
                pending = true;
                break;
            }
        }
        if (!pending) {
            return null;
        }
        scope.checkStop();
        return new PodGroupCycle(scope, searchBudget, withinName, within).run(g, members, preempting);
    }

    /** A child with nothing to place holds when its running members already meet its policy. */
    private boolean boundHolds(PodGroup g) {
        int running = 0;
        for (PodInfo p : snapshot.members(g.ref())) {
            if (p.pod().isBound() && !p.pod().isTerminal() && snapshot.isOnNode(p)) {
                running++;
            }
        }
        return g.policy().holds(running);
    }

    private static String message(PodGroup g, GroupOutcome o) {
        if (o == null) {
            return "no member to place and too few running";
        }
        if (o.message() != null) {
            return o.message();
        }
        if (o.result() != null && o.result().message() != null) {
            return o.result().message();
        }
        if (o.result() != null) {
            for (MemberResult m : o.result().cycle().members()) {
                if (!m.placed()) {
                    return m.message();
                }
            }
        }
        return "pod group is unschedulable";
    }

    private static List<Child> failedAll(List<Child> children, String why) {
        List<Child> out = new ArrayList<>(children.size());
        for (Child ch : children) {
            out.add(ch.failed(why));
        }
        return out;
    }

    /** Every PodGroup below {@code c}, untried. */
    private List<Child> leaves(CompositePodGroup c) {
        List<Child> out = new ArrayList<>();
        for (Object kid : children.getOrDefault(c.ref(), List.of())) {
            if (kid instanceof PodGroup g) {
                out.add(new Child(g, c, null));
            } else {
                out.addAll(leaves((CompositePodGroup) kid));
            }
        }
        return out;
    }

    /**
     * The tree's bound members that are not terminal, leaf by leaf in reference order: what pins the tree to a
     * domain. One on a node without the key pins nothing; members in two domains leave the tree none.
     */
    private List<PodInfo> boundMembers(CompositePodGroup c) {
        List<PodInfo> out = new ArrayList<>();
        for (Child leaf : leaves(c)) {
            for (PodInfo p : snapshot.members(leaf.group().ref())) {
                if (p.pod().isBound() && !p.pod().isTerminal()) {
                    out.add(p);
                }
            }
        }
        return out;
    }
}
