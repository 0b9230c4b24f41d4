package dev.muster.core.dra;

/**
 * A compiled device selector (a {@code cel.expression} of a DeviceClass or a device request). Selectors are pure:
 * the same device always gives the same answer, so callers may cache results per device. Implementations must be
 * thread-safe and bound the work of one evaluation.
 */
public interface DeviceSelector {
    /** The expression as written, for messages and as a cache key. */
    String expression();

    /**
     * Whether the device is selected.
     *
     * @throws SelectorException when the expression fails at run time (a missing attribute, a non-boolean result,
     *                           the evaluation limit reached)
     */
    boolean matches(SelectorDevice device);

    /**
     * What the selector reads of a device beyond its driver and {@code allowMultipleAllocations}, or null when that
     * cannot be told (then every part of the device may matter).
     */
    default SelectorReads reads() {
        return null;
    }
}
