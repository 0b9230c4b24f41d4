package dev.muster.core.dra;

/** The names the ResourceClaim controller gives the claims it generates from a pod's templates. */
public final class GeneratedClaimNames {
    /** A generated name's base keeps room for the controller's hyphen and 5 random characters within 63. */
    static final int MAX_BASE = 57;

    private GeneratedClaimNames() {
    }

    /**
     * The name the controller gives a claim generated for {@code owner}'s entry, without the random suffix:
     * {@code <owner>-<entry>}, both parts shortened in proportion to their length when the base would not leave room
     * for the suffix.
     */
    public static String base(String owner, String entry) {
        int len = owner.length() + entry.length() + 2; // with both hyphens
        if (len <= MAX_BASE) {
            return owner + "-" + entry;
        }
        return owner.substring(0, owner.length() * MAX_BASE / len) + "-"
                + entry.substring(0, entry.length() * MAX_BASE / len);
    }
}
