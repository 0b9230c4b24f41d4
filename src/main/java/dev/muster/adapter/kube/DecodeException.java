package dev.muster.adapter.kube;

/**
 * The body is not one well-formed JSON/YAML document of the right shape: a 400 BadRequest. {@code field} is the
 * path from the request root when known ({@code snapshot.podGroups[0].spec.schedulingPolicy.gang.minCount}),
 * else null.
 */
public final class DecodeException extends Exception {
    private final String field;

    public DecodeException(String message, String field, Throwable cause) {
        super(message, cause, false, false);
        this.field = field;
    }

    public String field() {
        return field;
    }
}
