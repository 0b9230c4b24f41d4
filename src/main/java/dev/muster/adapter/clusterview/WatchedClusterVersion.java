package dev.muster.adapter.clusterview;

import dev.muster.core.dra.DraObjects;
import dev.muster.core.model.ClusterState;
import dev.muster.core.model.Node;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodRef;
import dev.muster.core.snapshot.ClusterSnapshot;

import java.util.HashMap;
import java.util.Map;

/**
 * One version of a watched cluster (the extender's cluster view, or a cluster named for choices): what the service
 * knows of it at one {@link #generation()}, namely the {@link ClusterState}, its DRA objects, and the state compiled
 * once into the engine's {@link ClusterSnapshot} ({@link #compiled()}, built on first use and shared by every decision
 * and lookup of this generation). Immutable; a {@link ClusterViewSource} hands out a new version (with a higher
 * generation) after every change it saw. Not the plugins' {@link dev.muster.core.framework.ClusterView}.
 * <p>
 * Lookups by node name and pod reference read the compiled snapshot's own indexes rather than maps of their own, so
 * a 1,000,000-pod view carries one index per kind, not three; the UID index (preempt only) is built on first use.
 */
public final class WatchedClusterVersion {
    private final long generation;
    private final ClusterState state;
    private final DraObjects dra;
    private final String source;
    private volatile ClusterSnapshot compiled;
    /**
     * The view this one follows, until compiled: the nearest compiled view along these links lends its snapshot's
     * entries for the objects that stayed.
     */
    private volatile WatchedClusterVersion previous;
    private volatile Map<String, Pod> podsByUid;

    /**
     * @param generation bumps on every change a source applies; decisions are cached per generation
     * @param dra        the cluster's device classes, resource slices, resource claims and claim templates, compiled
     * @param source     where it came from, for messages ({@code file /path}, {@code kubernetes}, {@code none})
     */
    public WatchedClusterVersion(long generation, ClusterState state, DraObjects dra, String source) {
        this(generation, state, dra, source, null);
    }

    /**
     * A view following {@code previous}: when that one was compiled by the time this one compiles, its entries
     * for the same object instances are reused ({@link ClusterSnapshot#next}), so a source that keeps unchanged
     * objects as they were (the watch source) pays for what changed, not for the whole cluster.
     */
    public WatchedClusterVersion(long generation, ClusterState state, DraObjects dra, String source,
                                 WatchedClusterVersion previous) {
        this.previous = previous;
        this.generation = generation;
        this.state = state;
        this.dra = dra == null ? DraObjects.NONE : dra;
        this.source = source;
    }

    public static WatchedClusterVersion of(long generation, ClusterState state, String source) {
        return new WatchedClusterVersion(generation, state, DraObjects.NONE, source);
    }

    public static WatchedClusterVersion of(long generation, ClusterState state, DraObjects dra, String source) {
        return new WatchedClusterVersion(generation, state, dra, source);
    }

    public static WatchedClusterVersion empty(String source) {
        return of(0, new ClusterState(null, null, null, null, null), source);
    }

    public long generation() {
        return generation;
    }

    public ClusterState state() {
        return state;
    }

    public DraObjects dra() {
        return dra;
    }

    public String source() {
        return source;
    }

    /** The state compiled for the engine, once per view (the first caller compiles, concurrent ones wait). */
    public ClusterSnapshot compiled() {
        ClusterSnapshot c = compiled;
        if (c == null) {
            synchronized (this) {
                c = compiled;
                if (c == null) {
                    // The nearest earlier view that was compiled: views assembled in between and never compiled
                    // (a burst of changes read once each) keep the chain to it.
                    ClusterSnapshot base = null;
                    for (WatchedClusterVersion p = previous; p != null && base == null; p = p.previous) {
                        base = p.compiled;
                    }
                    c = ClusterSnapshot.next(base, state, dra);
                    compiled = c;
                    previous = null; // keep no chain of old views
                }
            }
        }
        return c;
    }

    /** Whether {@link #compiled()} has been built. */
    public boolean isCompiled() {
        return compiled != null;
    }

    /** The node of that name, or null. */
    public Node node(String name) {
        ClusterSnapshot c = compiled();
        int i = c.nodeIndex(name);
        return i < 0 ? null : c.nodeObject(i);
    }

    /** The pod with that namespace/name, or null. */
    public Pod pod(PodRef ref) {
        return compiled().podObject(ref);
    }

    /** The pod with that UID, or null. */
    public Pod podByUid(String uid) {
        return uid == null ? null : podsByUid().get(uid);
    }

    /** Pods by UID (pods without one left out), built on first use. */
    public Map<String, Pod> podsByUid() {
        Map<String, Pod> m = podsByUid;
        if (m == null) {
            synchronized (this) {
                m = podsByUid;
                if (m == null) {
                    Map<String, Pod> byUid = new HashMap<>(state.pods().size() * 2);
                    for (Pod p : state.pods()) {
                        if (p.uid() != null && !p.uid().isEmpty()) {
                            byUid.put(p.uid(), p);
                        }
                    }
                    m = Map.copyOf(byUid);
                    podsByUid = m;
                }
            }
        }
        return m;
    }

    @Override
    public String toString() {
        return "WatchedClusterVersion[" + source + ", generation " + generation + ", " + state.nodes().size()
                + " nodes, " + state.pods().size() + " pods]";
    }
}
