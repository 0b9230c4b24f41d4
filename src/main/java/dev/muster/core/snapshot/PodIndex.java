package dev.muster.core.snapshot;

import dev.muster.core.framework.PodInfo;
import dev.muster.core.model.PodRef;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A full compile's pods by reference, built on first use and shared by the snapshots derived from it. Most decisions on
 * a fresh snapshot never ask for a pod by reference (a request that names its plain pods does, and so do the watched
 * views of the extender and of cluster choices), so a request with 40,000 pods does not pay for hashing them all up
 * front. Never changed once built; two threads asking at once build it once.
 */
final class PodIndex {
    private final List<PodInfo> pods;
    private volatile Map<PodRef, PodInfo> byRef;
    private int limit;

    /** @param pods the full compile's pods in ordinal order (the list is not changed afterwards) */
    PodIndex(List<PodInfo> pods) {
        this.pods = pods;
    }

    /** The pods by reference (the last pod of a reference that repeats). */
    Map<PodRef, PodInfo> byRef() {
        Map<PodRef, PodInfo> m = byRef;
        return m != null ? m : build();
    }

    /**
     * Ordinals below this are the index's own entries: the pod count, or 0 when a reference repeats (no shortcut
     * then).
     */
    int limit() {
        byRef();
        return limit;
    }

    private synchronized Map<PodRef, PodInfo> build() {
        Map<PodRef, PodInfo> m = byRef;
        if (m == null) {
            m = new HashMap<>(pods.size() * 2);
            for (PodInfo p : pods) {
                m.put(p.pod().ref(), p);
            }
            limit = m.size() == pods.size() ? pods.size() : 0;
            byRef = m; // after limit: a reader that sees the map sees the limit
        }
        return m;
    }
}
