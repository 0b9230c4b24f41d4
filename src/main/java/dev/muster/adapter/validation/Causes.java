package dev.muster.adapter.validation;

import java.util.ArrayList;
import java.util.List;

/**
 * Collects every cause of a request (all are reported at once), up to a configured maximum so that a
 * 50,000-pod request full of mistakes cannot produce an unbounded answer; {@link #total()} still counts them all.
 * Renders values and messages the way the API server's {@code field.Error} does.
 */
public final class Causes {
    private final int max;
    private final List<Cause> causes = new ArrayList<>();
    private int total;

    public Causes(int max) {
        this.max = max;
    }

    public List<Cause> list() {
        return causes;
    }

    public int total() {
        return total;
    }

    public boolean isEmpty() {
        return total == 0;
    }

    private void add(String reason, String field, String kind, String value, String detail) {
        total++;
        if (causes.size() >= max) {
            return;
        }
        String body = value == null ? kind : kind + ": " + value;
        if (detail != null && !detail.isEmpty()) {
            body = body + ": " + detail;
        }
        String message = detail == null || detail.isEmpty() ? body : detail;
        causes.add(new Cause(reason, field, message, field + ": " + body));
    }

    public void required(String field, String detail) {
        add(Cause.REQUIRED, field, "Required value", null, detail);
    }

    public void invalid(String field, Object value, String detail) {
        add(Cause.INVALID, field, "Invalid value", render(value), detail);
    }

    public void duplicate(String field, Object value) {
        add(Cause.DUPLICATE, field, "Duplicate value", render(value), null);
    }

    /** A duplicate whose other occurrence is not in the same list: {@code detail} says where it is. */
    public void duplicate(String field, Object value, String detail) {
        add(Cause.DUPLICATE, field, "Duplicate value", render(value), detail);
    }

    public void notSupported(String field, Object value, List<String> supported) {
        StringBuilder sb = new StringBuilder("supported values: ");
        for (int i = 0; i < supported.size(); i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(render(supported.get(i)));
        }
        add(Cause.NOT_SUPPORTED, field, "Unsupported value", render(value), sb.toString());
    }

    public void notFound(String field, Object value, String detail) {
        add(Cause.NOT_FOUND, field, "Not found", render(value), detail);
    }

    public void forbidden(String field, String detail) {
        add(Cause.FORBIDDEN, field, "Forbidden", null, detail);
    }

    public void tooMany(String field, int actual, int max) {
        add(Cause.TOO_MANY, field, "Too many", Integer.toString(actual),
                "must have at most " + max + (max == 1 ? " item" : " items"));
    }

    /** Strings quoted and escaped (like Go's %q), numbers and booleans as they are, null as {@code null}. */
    static String render(Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof String s) {
            StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
            int n = Math.min(s.length(), 256);
            for (int i = 0; i < n; i++) {
                char c = s.charAt(i);
                switch (c) {
                    case '"' -> sb.append("\\\"");
                    case '\\' -> sb.append("\\\\");
                    case '\n' -> sb.append("\\n");
                    case '\t' -> sb.append("\\t");
                    default -> {
                        if (c < 0x20) {
                            sb.append(String.format("\\x%02x", (int) c));
                        } else {
                            sb.append(c);
                        }
                    }
                }
            }
            if (s.length() > n) {
                sb.append("...");
            }
            return sb.append('"').toString();
        }
        return String.valueOf(value);
    }
}
