package dev.muster.adapter.cel;

/**
 * A selector expression that does not compile: a syntax error, an undeclared name or function, a type error, a
 * result that can never be a bool, or an expression over the length limit. The message reads like the API
 * server's: {@code compilation failed: ERROR: <input>:1:5: ...}.
 */
public final class CelCompileException extends IllegalArgumentException {
    private final String expression;

    public CelCompileException(String expression, String message) {
        super(message);
        this.expression = expression;
    }

    /** The expression as given. */
    public String expression() {
        return expression;
    }
}
