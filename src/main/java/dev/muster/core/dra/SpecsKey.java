package dev.muster.core.dra;

/**
 * What a pod's resolved claims ask for ({@link ClaimBook#specsKey}): per claim its allocation, its spec, or a marker
 * for the claim made for extended resources, compared by reference (the request's equal specs are one object) and
 * hashed once.
 */
final class SpecsKey {
    /** Stands for the claim made for a pod's extended resources. */
    static final Object EXTENDED = new Object();

    private final Object[] parts;
    private final int hash;

    SpecsKey(Object[] parts) {
        this.parts = parts;
        int h = 1;
        for (Object o : parts) {
            h = 31 * h + System.identityHashCode(o);
        }
        this.hash = h;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof SpecsKey k) || k.hash != hash || k.parts.length != parts.length) {
            return false;
        }
        for (int i = 0; i < parts.length; i++) {
            if (parts[i] != k.parts[i]) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        return hash;
    }
}
