package dev.muster.adapter.validation;

/**
 * Kubernetes name formats, hand-written (no regex: these run on every object of a 50,000-pod request). Each check
 * has a message that says what the format is and gives an example, for {@code FieldValueInvalid} causes.
 */
public final class Names {
    public static final String DNS_LABEL_MESSAGE = "must be a lowercase RFC 1123 label: at most 63 characters, "
            + "lowercase letters, digits or '-', starting and ending with a letter or digit (e.g. 'my-name' or '123-abc')";
    public static final String DNS_SUBDOMAIN_MESSAGE = "must be a lowercase RFC 1123 subdomain: at most 253 "
            + "characters, lowercase letters, digits, '-' or '.', each dot-separated part starting and ending with a "
            + "letter or digit (e.g. 'example.com')";
    public static final String QUALIFIED_NAME_MESSAGE = "must be a qualified name: an optional DNS subdomain prefix "
            + "and '/', then at most 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit "
            + "(e.g. 'my-name' or 'example.com/my-name')";
    public static final String PATH_SEGMENT_MESSAGE = "may not be '.' or '..' and may not contain '/' or '%'";

    private Names() {
    }

    private static boolean lowerAlnum(char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    }

    private static boolean alnum(char c) {
        return lowerAlnum(c) || (c >= 'A' && c <= 'Z');
    }

    /** RFC 1123 label: {@code [a-z0-9]([-a-z0-9]*[a-z0-9])?}, at most 63 characters. */
    public static boolean isDnsLabel(String s) {
        return s != null && !s.isEmpty() && s.length() <= 63 && isLabelPart(s, 0, s.length());
    }

    private static boolean isLabelPart(String s, int from, int to) {
        if (to <= from || !lowerAlnum(s.charAt(from)) || !lowerAlnum(s.charAt(to - 1))) {
            return false;
        }
        for (int i = from + 1; i < to - 1; i++) {
            char c = s.charAt(i);
            if (!lowerAlnum(c) && c != '-') {
                return false;
            }
        }
        return true;
    }

    /** RFC 1123 subdomain: labels joined by '.', at most 253 characters. */
    public static boolean isDnsSubdomain(String s) {
        return s != null && isDnsSubdomain(s, 0, s.length());
    }

    /**
     * Whether {@code s[from, to)} is an RFC 1123 subdomain (no substring is made), in one pass: each dot-separated
     * label is non-empty and starts and ends with a letter or digit; {@code prev} is the previous character, '.'
     * at the start of a label.
     */
    private static boolean isDnsSubdomain(String s, int from, int to) {
        if (to <= from || to - from > 253) {
            return false;
        }
        char prev = '.';
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (!lowerAlnum(c)) {
                if (c == '-') {
                    if (prev == '.') {
                        return false;
                    }
                } else if (c != '.' || prev == '.' || prev == '-') {
                    return false;
                }
            }
            prev = c;
        }
        return prev != '.' && prev != '-';
    }

    /** Qualified name (label keys, scheduling gates, topology keys): {@code [prefix/]name}. */
    public static boolean isQualifiedName(String s) {
        if (s == null || s.isEmpty()) {
            return false;
        }
        int n = s.length();
        int from = 0;
        int slash = s.indexOf('/');
        if (slash >= 0) {
            if (s.indexOf('/', slash + 1) >= 0 || !isDnsSubdomain(s, 0, slash)) {
                return false;
            }
            from = slash + 1;
        }
        int len = n - from;
        if (len == 0 || len > 63 || !alnum(s.charAt(from)) || !alnum(s.charAt(n - 1))) {
            return false;
        }
        for (int i = from + 1; i < n - 1; i++) {
            char c = s.charAt(i);
            if (!alnum(c) && c != '-' && c != '_' && c != '.') {
                return false;
            }
        }
        return true;
    }

    /** A path segment name ({@code TypedLocalObjectReference.kind/name}). */
    public static boolean isPathSegmentName(String s) {
        return s != null && !s.equals(".") && !s.equals("..") && s.indexOf('/') < 0 && s.indexOf('%') < 0;
    }
}
