package dev.muster.core.cycle;

/**
 * A plugin ended a pod's cycle with an error instead of a verdict (kube-scheduler's Error status: the DRA allocator
 * meeting a selector that fails at run time, a missing device class, more devices than a claim may hold). The pod,
 * and with it its whole group, is placed nowhere; the message is kube-scheduler's.
 */
public final class SchedulerErrorException extends RuntimeException {
    public SchedulerErrorException(String message) {
        super(message, null, false, false);
    }
}
