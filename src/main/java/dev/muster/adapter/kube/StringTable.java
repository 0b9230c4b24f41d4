package dev.muster.adapter.kube;

/**
 * The byte path's per-request table of shared strings: repeated short values (label values, namespaces, quantities,
 * node names) found by their bytes, so a repeat allocates nothing. Direct-mapped: a slot keeps the last string that
 * hashed to it, in the key array of the one it displaced when their lengths match (unique names and uids of one
 * length then allocate no key each). Its slot count is {@link Tokens#slots}, so a slot also indexes the decoders' quantities.
 */
final class StringTable {
    private final long[][] keys;
    private final String[] strings;

    StringTable(int slots) {
        this.keys = new long[slots][];
        this.strings = new String[slots];
    }

    /** The string in {@code slot} if its bytes are the {@code len} bytes at {@code from}, else null. */
    String find(int slot, byte[] b, int from, int len) {
        long[] k = keys[slot];
        return k != null && Words.same(k, b, from, len) ? strings[slot] : null;
    }

    /** Puts {@code s}, whose bytes are the {@code len} bytes at {@code from}, in {@code slot}. */
    void put(int slot, byte[] b, int from, int len, String s) {
        keys[slot] = Words.key(keys[slot], b, from, len);
        strings[slot] = s;
    }
}
