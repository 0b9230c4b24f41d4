package dev.muster.adapter.rest.error;

/** Ends a request with a Kubernetes Status answer; mapped by {@link StatusExceptionMappers}. */
public final class StatusException extends RuntimeException {
    private final transient KubeStatus status;

    public StatusException(KubeStatus status) {
        super(status.message(), null, false, false);
        this.status = status;
    }

    public KubeStatus status() {
        return status;
    }
}
