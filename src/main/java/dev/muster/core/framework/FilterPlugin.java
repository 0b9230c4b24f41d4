package dev.muster.core.framework;

/**
 * Decides whether a pod may run on one node, given the pods bound and assumed there. Runs for many nodes
 * concurrently: it must only read {@code state}, {@code pod} and {@code node}. Success, Unschedulable (preemption
 * may help) or UnschedulableAndUnresolvable (it will not), with reasons in kube-scheduler's wording.
 */
public interface FilterPlugin extends Plugin {
    Status filter(CycleState state, PodInfo pod, NodeInfo node);
}
