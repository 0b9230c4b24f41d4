package dev.muster.adapter.clusterview;

import dev.muster.core.dra.DraObjects;
import dev.muster.core.model.ClusterState;
import dev.muster.core.model.Node;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodDisruptionBudget;
import dev.muster.core.model.PodGroup;
import dev.muster.core.model.PriorityClass;

import java.util.List;
import java.util.function.Supplier;

/**
 * The objects a watching source has seen, kept sorted by key as they arrive, and the {@link WatchedClusterVersion}
 * of them.
 * <p>
 * Each change is applied in O(log n) to a per-kind sorted map and bumps the change count; {@link #current()}
 * assembles a new view only when the count moved, each list in key order: the last view's list with the keys changed
 * since merged in ({@link SortedKind}; no sorting, no per-view index: the view's lookups use its compiled snapshot). The same set of objects therefore gives the same view whatever
 * order the events came in, which keeps decisions deterministic for a view generation. Each view follows the one
 * before: objects that did not change are the same instances, so compiling the view reuses what the previous view
 * compiled for them ({@link dev.muster.core.snapshot.ClusterSnapshot#next}). Interning is left to the
 * callers' decoders; the store keeps the objects it is given.
 * <p>
 * Thread-safe: writers and {@link #current()} synchronise on the store; a view, once built, is immutable.
 */
public final class ViewStore {
    private final String source;
    private final Supplier<DraObjects> dra;
    private final SortedKind<Node> nodes = new SortedKind<>();
    private final SortedKind<Pod> pods = new SortedKind<>();
    private final SortedKind<PodGroup> podGroups = new SortedKind<>();
    private final SortedKind<PriorityClass> priorityClasses = new SortedKind<>();
    private final SortedKind<PodDisruptionBudget> pdbs = new SortedKind<>();
    private long changes;
    private volatile WatchedClusterVersion view;

    /** A store without DRA objects. */
    public ViewStore(String source) {
        this(source, () -> DraObjects.NONE);
    }

    /** @param dra the DRA objects of a new view, read when a view is assembled (report their changes with {@link #touch()}) */
    public ViewStore(String source, Supplier<DraObjects> dra) {
        this.source = source;
        this.dra = dra;
        this.view = WatchedClusterVersion.empty(source);
    }

    public synchronized void putNode(String key, Node node) {
        put(nodes, key, node);
    }

    public synchronized void removeNode(String key) {
        remove(nodes, key);
    }

    public synchronized void putPod(String key, Pod pod) {
        put(pods, key, pod);
    }

    public synchronized void removePod(String key) {
        remove(pods, key);
    }

    public synchronized void putPodGroup(String key, PodGroup group) {
        put(podGroups, key, group);
    }

    public synchronized void removePodGroup(String key) {
        remove(podGroups, key);
    }

    public synchronized void putPriorityClass(String key, PriorityClass pc) {
        put(priorityClasses, key, pc);
    }

    public synchronized void removePriorityClass(String key) {
        remove(priorityClasses, key);
    }

    public synchronized void putPdb(String key, PodDisruptionBudget pdb) {
        put(pdbs, key, pdb);
    }

    public synchronized void removePdb(String key) {
        remove(pdbs, key);
    }

    /** Records a change kept outside the store (DRA objects): the next view is assembled anew. */
    public synchronized void touch() {
        changes++;
    }

    private <V> void put(SortedKind<V> kind, String key, V value) {
        kind.put(key, value);
        changes++;
    }

    private <V> void remove(SortedKind<V> kind, String key) {
        if (kind.remove(key)) {
            changes++;
        }
    }

    /** Changes applied so far: the generation {@link #current()} will have. Cheap. */
    public synchronized long changes() {
        return changes;
    }

    /** The view of every object seen, at generation {@link #changes()}; assembled only when something changed. */
    public WatchedClusterVersion current() {
        WatchedClusterVersion v = view;
        synchronized (this) {
            if (v.generation() == changes) {
                return v;
            }
            ClusterState state = new ClusterState(nodes.list(), pods.list(), podGroups.list(),
                    priorityClasses.list(), pdbs.list());
            v = new WatchedClusterVersion(changes, state, dra.get(), source, v);
            view = v;
            return v;
        }
    }

    /** Objects held, per kind (nodes, pods, pod groups, priority classes, PDBs). */
    public synchronized List<Integer> sizes() {
        return List.of(nodes.size(), pods.size(), podGroups.size(), priorityClasses.size(), pdbs.size());
    }
}
