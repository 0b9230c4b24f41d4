package dev.muster.core.model;

/** A string that is not a resource.Quantity. Validation turns it into a FieldValueInvalid cause. */
public final class QuantityFormatException extends IllegalArgumentException {
    public QuantityFormatException(String text) {
        super(Quantity.FORMAT_MESSAGE + ", got \"" + text + "\"");
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
        return this; // thrown on a client's bad input, never a bug: no stack trace cost
    }
}
