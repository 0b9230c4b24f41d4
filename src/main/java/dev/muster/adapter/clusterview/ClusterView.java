package dev.muster.adapter.clusterview;

import dev.muster.core.dra.DraObjects;
import dev.muster.core.model.ClusterState;
import dev.muster.core.model.Node;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodRef;

import java.util.HashMap;
import java.util.Map;

/**
 * What the extender knows about the cluster beyond its request, at one {@code generation}: the compiled
 * {@link ClusterState} plus lookups by node name, pod reference and pod UID. Immutable; a source hands out a new
 * one (with a higher generation) after every change it saw.
 *
 * @param generation bumps on every change a source applies; decisions are cached per generation
 * @param dra        the cluster's device classes, resource slices, resource claims and claim templates, compiled
 * @param source     where it came from, for messages ({@code file /path}, {@code kubernetes}, {@code none})
 */
public record ClusterView(long generation, ClusterState state, DraObjects dra, String source,
                          Map<String, Node> nodesByName, Map<PodRef, Pod> podsByRef, Map<String, Pod> podsByUid) {

    public ClusterView {
        dra = dra == null ? DraObjects.NONE : dra;
    }

    public static ClusterView of(long generation, ClusterState state, String source) {
        return of(generation, state, DraObjects.NONE, source);
    }

    public static ClusterView of(long generation, ClusterState state, DraObjects dra, String source) {
        Map<String, Node> nodes = new HashMap<>(state.nodes().size() * 2);
        for (Node n : state.nodes()) {
            nodes.put(n.name(), n);
        }
        Map<PodRef, Pod> pods = new HashMap<>(state.pods().size() * 2);
        Map<String, Pod> byUid = new HashMap<>(state.pods().size() * 2);
        for (Pod p : state.pods()) {
            pods.put(p.ref(), p);
            if (p.uid() != null && !p.uid().isEmpty()) {
                byUid.put(p.uid(), p);
            }
        }
        return new ClusterView(generation, state, dra, source, Map.copyOf(nodes), Map.copyOf(pods), Map.copyOf(byUid));
    }

    public static ClusterView empty(String source) {
        return of(0, new ClusterState(null, null, null, null, null), source);
    }
}
