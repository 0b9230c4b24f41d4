package dev.muster.core.framework;

/**
 * Runs once per pod attempt, before any Filter, sequentially. Computes state its Filter reads from
 * {@link CycleState}. {@link Code#Skip} means this plugin's Filter is not needed for the pod;
 * a rejection fails the pod on every node with that reason.
 */
public interface PreFilterPlugin extends Plugin {
    Status preFilter(CycleState state, PodInfo pod, ClusterView cluster);
}
