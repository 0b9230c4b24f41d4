package dev.muster.adapter.kube;

import java.util.Map;
import java.util.TreeMap;

/**
 * PodGroup annotation {@value #ANNOTATION}: per-role minimums of a gang, read from a pod label.
 * <p>
 * Grammar: {@code <label key>: <role>=<n>[,<role>=<n>...]}, e.g.
 * {@code app.kubernetes.io/component: leader=1,worker=4}. The label key is a qualified name (as any label key);
 * each role is a label value that is not empty, named once; each {@code n} a decimal integer of at least 1. Spaces
 * around the key, the roles and the numbers are ignored. A member's role is its value of that label; the gang is
 * feasible only when, besides {@code minCount}, at least {@code n} members of each named role are bound or placed.
 */
public final class RoleMinimums {
    public static final String ANNOTATION = dev.muster.core.model.TopologyAnnotations.MIN_PER_ROLE;
    /** Largest minimum accepted: the API's largest {@code minCount}. */
    private static final int MAX = Integer.MAX_VALUE;

    /** The parsed annotation: the pod label naming a member's role, and each role's minimum. */
    public record Spec(String labelKey, Map<String, Integer> minimums) {
    }

    /** Why a value does not follow the grammar; the message names the rule. */
    public static final class Invalid extends IllegalArgumentException {
        Invalid(String message) {
            super(message);
        }
    }

    private RoleMinimums() {
    }

    /** The annotation of {@code annotations}, parsed; null when absent. */
    public static Spec of(Map<String, String> annotations) {
        String v = annotations == null ? null : annotations.get(ANNOTATION);
        return v == null ? null : parse(v);
    }

    /** @throws Invalid when {@code value} does not follow the grammar */
    public static Spec parse(String value) {
        int colon = value.indexOf(':');
        if (colon < 0) {
            throw new Invalid("must be `<label key>: <role>=<n>[,<role>=<n>...]`: no `:` after the label key");
        }
        String key = value.substring(0, colon).trim();
        if (!qualifiedName(key)) {
            throw new Invalid("the role label key \"" + key + "\" must be a qualified name (an optional DNS subdomain "
                    + "prefix and `/`, then at most 63 alphanumerics, `-`, `_` or `.`, starting and ending "
                    + "alphanumeric)");
        }
        String list = value.substring(colon + 1).trim();
        if (list.isEmpty()) {
            throw new Invalid("must name at least one role: `<label key>: <role>=<n>[,<role>=<n>...]`");
        }
        Map<String, Integer> out = new TreeMap<>();
        for (String entry : list.split(",", -1)) {
            int eq = entry.indexOf('=');
            if (eq < 0) {
                throw new Invalid("entry \"" + entry.trim() + "\" must be `<role>=<n>`");
            }
            String role = entry.substring(0, eq).trim();
            String n = entry.substring(eq + 1).trim();
            if (!labelValue(role)) {
                throw new Invalid("role \"" + role + "\" must be a non-empty label value (at most 63 alphanumerics, "
                        + "`-`, `_` or `.`, starting and ending alphanumeric)");
            }
            int min = number(role, n);
            if (out.put(role, min) != null) {
                throw new Invalid("role \"" + role + "\" is named twice");
            }
        }
        return new Spec(key, out);
    }

    private static int number(String role, String n) {
        if (n.isEmpty() || n.length() > 10) {
            throw new Invalid("the minimum of role \"" + role + "\" must be an integer of at least 1, got \"" + n + "\"");
        }
        long v = 0;
        for (int i = 0; i < n.length(); i++) {
            char c = n.charAt(i);
            if (c < '0' || c > '9') {
                throw new Invalid("the minimum of role \"" + role + "\" must be an integer of at least 1, got \"" + n
                        + "\"");
            }
            v = v * 10 + (c - '0');
        }
        if (v < 1) {
            throw new Invalid("the minimum of role \"" + role + "\" must be greater than or equal to 1");
        }
        if (v > MAX) {
            throw new Invalid("the minimum of role \"" + role + "\" must be less than or equal to " + MAX);
        }
        return (int) v;
    }

    private static boolean labelValue(String s) {
        if (s.isEmpty() || s.length() > 63 || !alnum(s.charAt(0)) || !alnum(s.charAt(s.length() - 1))) {
            return false;
        }
        for (int i = 1; i < s.length() - 1; i++) {
            char c = s.charAt(i);
            if (!alnum(c) && c != '-' && c != '_' && c != '.') {
                return false;
            }
        }
        return true;
    }

    private static boolean qualifiedName(String s) {
        int slash = s.indexOf('/');
        String name = slash < 0 ? s : s.substring(slash + 1);
        if (slash >= 0) {
            String prefix = s.substring(0, slash);
            if (prefix.isEmpty() || prefix.length() > 253 || !subdomain(prefix)) {
                return false;
            }
        }
        return labelValue(name);
    }

    private static boolean subdomain(String s) {
        for (String part : s.split("\\.", -1)) {
            if (part.isEmpty() || part.length() > 63 || !lowerAlnum(part.charAt(0))
                    || !lowerAlnum(part.charAt(part.length() - 1))) {
                return false;
            }
            for (int i = 0; i < part.length(); i++) {
                char c = part.charAt(i);
                if (!lowerAlnum(c) && c != '-') {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean alnum(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    }

    private static boolean lowerAlnum(char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    }
}
