package dev.muster.core.dra;

/** A device selector that could not be evaluated; its message is the evaluator's, fit for a user. */
public final class SelectorException extends RuntimeException {
    public SelectorException(String message) {
        super(message);
    }

    public SelectorException(String message, Throwable cause) {
        super(message, cause);
    }
}
