package dev.muster.core.dra;

/**
 * A pool's key: hashed from the two names' own (cached) hashes, no string built per lookup; compared by reference
 * first, as the allocator's results name pools with the index's own strings.
 */
record PoolRef(String driver, String pool) {
    @Override
    public boolean equals(Object o) {
        return o instanceof PoolRef r && (r.pool == pool || r.pool != null && r.pool.equals(pool))
                && (r.driver == driver || r.driver != null && r.driver.equals(driver));
    }

    @Override
    public int hashCode() {
        return 31 * java.util.Objects.hashCode(driver) + java.util.Objects.hashCode(pool);
    }
}
