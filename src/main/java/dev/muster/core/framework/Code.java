package dev.muster.core.framework;

/** What a plugin's verdict lets the caller do next (kube-scheduler's framework.Code). */
public enum Code {
    /** The pod may go on. */
    Success,
    /** The pod does not fit here now; preemption may help. */
    Unschedulable,
    /** The pod does not fit here and preemption will not help (a label, a taint, a selector). */
    UnschedulableAndUnresolvable,
    /** Permit only: the pod is fine but must wait for others (a gang below minCount). */
    Wait,
    /** PreFilter/PreScore only: the plugin has nothing to do for this pod; its Filter/Score are skipped. */
    Skip,
    /** Something is wrong with the input or the engine; the cycle stops. */
    Error
}
