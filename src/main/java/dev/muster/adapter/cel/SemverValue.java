package dev.muster.adapter.cel;

import java.util.ArrayList;
import java.util.List;

/**
 * The CEL value of a semantic version ({@code kubernetes.Semver}), parsed strictly as semver 2.0.0
 * ({@code MAJOR.MINOR.PATCH[-PRERELEASE][+BUILD]}, no leading zeros, no {@code v} prefix) with the error texts of
 * the parser Kubernetes uses. Ordering and equality follow semver precedence; build metadata is ignored.
 */
final class SemverValue implements Comparable<SemverValue> {
    /** Versions parsed before, at most {@link #MAX_PARSED}: a pure function of the text, shared by every request. */
    private static final java.util.concurrent.ConcurrentHashMap<String, SemverValue> PARSED =
            new java.util.concurrent.ConcurrentHashMap<>();
    /** A bound on {@link #PARSED}, not on correctness: past it, texts are parsed each time. */
    private static final int MAX_PARSED = 4096;

    private final long major;
    private final long minor;
    private final long patch;
    /** Pre-release identifiers: {@link Long} for numeric ones, {@link String} otherwise. */
    private final List<Object> pre;

    private SemverValue(long major, long minor, long patch, List<Object> pre) {
        this.major = major;
        this.minor = minor;
        this.patch = patch;
        this.pre = pre;
    }

    /**
     * {@link #parse}, remembering valid texts: a cluster's devices carry a few driver and firmware versions, each
     * on thousands of devices.
     *
     * @throws IllegalArgumentException with the parser's message when the text is not a semantic version
     */
    static SemverValue parseShared(String s) {
        SemverValue v = PARSED.get(s);
        if (v == null) {
            v = parse(s);
            if (PARSED.size() < MAX_PARSED) {
                PARSED.putIfAbsent(s, v);
            }
        }
        return v;
    }

    /**
     * Strict parse.
     *
     * @throws IllegalArgumentException with the parser's message when the text is not a semantic version
     */
    static SemverValue parse(String s) {
        if (s.isEmpty()) {
            throw new IllegalArgumentException("Version string empty");
        }
        String[] parts = s.split("\\.", 3);
        if (parts.length != 3) {
            throw new IllegalArgumentException("No Major.Minor.Patch elements found");
        }
        long major = number(parts[0], "major");
        long minor = number(parts[1], "minor");
        String rest = parts[2];
        int cut = indexOfAny(rest, "+-");
        long patch = number(cut < 0 ? rest : rest.substring(0, cut), "patch");
        List<Object> pre = new ArrayList<>();
        if (cut >= 0) {
            String tail = rest.substring(cut);
            String build = null;
            if (tail.charAt(0) == '-') {
                int plus = tail.indexOf('+');
                String preText = plus < 0 ? tail.substring(1) : tail.substring(1, plus);
                build = plus < 0 ? null : tail.substring(plus + 1);
                for (String id : preText.split("\\.", -1)) {
                    pre.add(preIdentifier(id));
                }
            } else {
                build = tail.substring(1);
            }
            if (build != null) {
                for (String id : build.split("\\.", -1)) {
                    if (id.isEmpty()) {
                        throw new IllegalArgumentException("Build meta data is empty");
                    }
                    if (!alphanumeric(id)) {
                        throw new IllegalArgumentException("Invalid character(s) found in build meta data \"" + id + "\"");
                    }
                }
            }
        }
        return new SemverValue(major, minor, patch, List.copyOf(pre));
    }

    /** Parse after normalising: no {@code v} prefix, leading zeros dropped, a missing minor or patch taken as 0. */
    static SemverValue parseNormalized(String s) {
        if (s.startsWith("v")) {
            s = s.substring(1);
        }
        String[] parts = s.split("\\.", 3);
        for (int i = 0; i < parts.length; i++) {
            String p = parts[i];
            if (p.length() > 1) {
                int z = 0;
                while (z < p.length() && p.charAt(z) == '0') {
                    z++;
                }
                p = p.substring(z);
                if (p.isEmpty() || !Character.isDigit(p.charAt(0))) {
                    p = "0" + p;
                }
                parts[i] = p;
            }
        }
        List<String> all = new ArrayList<>(List.of(parts));
        if (all.size() < 3) {
            if (indexOfAny(all.get(all.size() - 1), "+-") >= 0) {
                throw new IllegalArgumentException("short version cannot contain PreRelease/Build meta data");
            }
            while (all.size() < 3) {
                all.add("0");
            }
        }
        return parse(String.join(".", all));
    }

    private static int indexOfAny(String s, String chars) {
        for (int i = 0; i < s.length(); i++) {
            if (chars.indexOf(s.charAt(i)) >= 0) {
                return i;
            }
        }
        return -1;
    }

    private static long number(String s, String what) {
        if (s.isEmpty() || !digits(s)) {
            throw new IllegalArgumentException("Invalid character(s) found in " + what + " number \"" + s + "\"");
        }
        if (s.length() > 1 && s.charAt(0) == '0') {
            throw new IllegalArgumentException(Character.toUpperCase(what.charAt(0)) + what.substring(1)
                    + " number must not contain leading zeroes \"" + s + "\"");
        }
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("strconv.ParseUint: parsing \"" + s + "\": value out of range");
        }
    }

    private static Object preIdentifier(String id) {
        if (id.isEmpty()) {
            throw new IllegalArgumentException("Prerelease is empty");
        }
        if (digits(id)) {
            if (id.length() > 1 && id.charAt(0) == '0') {
                throw new IllegalArgumentException("Leading zeroes are not allowed for numeric prerelease versions \"" + id + "\"");
            }
            try {
                return Long.parseLong(id);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("strconv.ParseUint: parsing \"" + id + "\": value out of range");
            }
        }
        if (!alphanumeric(id)) {
            throw new IllegalArgumentException("Invalid character(s) found in prerelease \"" + id + "\"");
        }
        return id;
    }

    private static boolean digits(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    private static boolean alphanumeric(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-')) {
                return false;
            }
        }
        return true;
    }

    long major() {
        return major;
    }

    long minor() {
        return minor;
    }

    long patch() {
        return patch;
    }

    @Override
    public int compareTo(SemverValue o) {
        int c = Long.compare(major, o.major);
        if (c == 0) {
            c = Long.compare(minor, o.minor);
        }
        if (c == 0) {
            c = Long.compare(patch, o.patch);
        }
        if (c != 0) {
            return c;
        }
        if (pre.isEmpty() || o.pre.isEmpty()) {
            return pre.isEmpty() == o.pre.isEmpty() ? 0 : pre.isEmpty() ? 1 : -1;
        }
        int n = Math.min(pre.size(), o.pre.size());
        for (int i = 0; i < n; i++) {
            Object a = pre.get(i);
            Object b = o.pre.get(i);
            if (a instanceof Long x && b instanceof Long y) {
                c = Long.compare(x, y);
            } else if (a instanceof Long) {
                c = -1;
            } else if (b instanceof Long) {
                c = 1;
            } else {
                c = Integer.signum(((String) a).compareTo((String) b));
            }
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(pre.size(), o.pre.size());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SemverValue v && compareTo(v) == 0;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(major) * 961 + Long.hashCode(minor) * 31 + Long.hashCode(patch) + pre.hashCode();
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder().append(major).append('.').append(minor).append('.').append(patch);
        for (int i = 0; i < pre.size(); i++) {
            b.append(i == 0 ? '-' : '.').append(pre.get(i));
        }
        return b.toString();
    }
}
