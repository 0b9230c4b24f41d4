package dev.muster.core.framework;

import dev.muster.core.model.GroupRef;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodRef;

/**
 * A pod compiled for one snapshot: its effective requests as a dense vector over the snapshot's
 * {@link ResourceIndex}, its resolved priority, and the group priority that overrides it in preemption.
 * Immutable.
 */
public final class PodInfo {
    /** kube-scheduler's defaults for a container without requests, used by scoring only (NonZeroRequested). */
    public static final long DEFAULT_MILLI_CPU_REQUEST = 100;
    public static final long DEFAULT_MEMORY_REQUEST = 200L * 1024 * 1024;

    private final Pod pod;
    private final long[] request;
    private final long nonZeroCpu;
    private final long nonZeroMemory;
    private final int priority;
    private final int effectivePriority;
    private final int ordinal;

    public PodInfo(Pod pod, long[] request, long nonZeroCpu, long nonZeroMemory, int priority, int effectivePriority,
                   int ordinal) {
        this.pod = pod;
        this.request = request;
        this.nonZeroCpu = nonZeroCpu;
        this.nonZeroMemory = nonZeroMemory;
        this.priority = priority;
        this.effectivePriority = effectivePriority;
        this.ordinal = ordinal;
    }

    public Pod pod() {
        return pod;
    }

    public PodRef ref() {
        return pod.ref();
    }

    public GroupRef groupRef() {
        return pod.groupRef();
    }

    /** Request of resource {@code i} of the {@link ResourceIndex}; do not modify. */
    public long request(int i) {
        return request[i];
    }

    /** The dense request vector; callers must not modify it. */
    public long[] requestVector() {
        return request;
    }

    public long nonZeroCpu() {
        return nonZeroCpu;
    }

    public long nonZeroMemory() {
        return nonZeroMemory;
    }

    /** The pod's own priority: spec.priority, else its PriorityClass, else the global default, else 0. */
    public int priority() {
        return priority;
    }

    /** The priority preemption compares: the pod's PodGroup priority when it is in a group, else its own. */
    public int effectivePriority() {
        return effectivePriority;
    }

    /** Position in the request's pod list: a stable identity for deterministic ordering. */
    public int ordinal() {
        return ordinal;
    }

    @Override
    public String toString() {
        return pod.ref().toString();
    }
}
