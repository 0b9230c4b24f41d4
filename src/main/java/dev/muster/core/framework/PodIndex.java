package dev.muster.core.framework;

/**
 * State a plugin derives from the pods on nodes (bound or assumed), built once per decision run when a plugin first
 * asks for it ({@link ClusterView#podIndex}) and kept current by the run's overlay: every assume, forget and rollback
 * calls {@link #added} or {@link #removed}. Lets PreFilter/PreScore read aggregates instead of walking every pod of
 * the cluster for every pod they evaluate (upstream keeps such per-pod lists in its NodeInfo snapshot). Mutated and
 * read only in the sequential parts of a cycle.
 */
public interface PodIndex {
    /** A pod is now on the node. */
    void added(PodInfo pod, NodeInfo node);

    /** A pod added before has left the node. */
    void removed(PodInfo pod, NodeInfo node);
}
