package dev.muster.core.model;

/**
 * A plain pod (pending, in no group by any shape the service reads) is decided as kube-scheduler decides it, alone.
 * The engine runs it through the PodGroup cycle as a one-member {@code basic} group of its own: no topology
 * constraint, no group-level claims, the pod's own priority. This class makes that group and tells it from a real
 * PodGroup, so that the few places where a single pod differs (preemption, its priority) can ask.
 * <p>
 * The group's name starts with {@value #GROUP_PREFIX}, a character no Kubernetes object name may hold, so it never
 * equals a real PodGroup's reference.
 */
public final class PlainPod {
    /** The prefix of a plain pod's group name: the pod's name follows it. */
    public static final String GROUP_PREFIX = "pod:";

    private PlainPod() {
    }

    /** The one-member basic group that stands for {@code pod} at its resolved {@code priority}. */
    public static PodGroup group(Pod pod, int priority) {
        return new PodGroup(new GroupRef(pod.ref().namespace(), GROUP_PREFIX + pod.ref().name()), pod.uid(), 0,
                pod.creationEpochSec(), SchedulingPolicy.BASIC, null, null, DisruptionMode.Pod, null, priority, null,
                null);
    }

    /** Whether the group stands for a plain pod ({@link #group}). */
    public static boolean is(PodGroup group) {
        return group != null && group.ref().name().startsWith(GROUP_PREFIX);
    }
}
