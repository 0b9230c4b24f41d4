package dev.muster.adapter.kube;

import java.util.Arrays;

/**
 * The byte path's values that repeat byte for byte, per decoder site ({@link FieldReader#SITES}): per site, a
 * direct-mapped table of values read before, each with the offset, length and depth of its bytes. A lookup hashes the
 * value's bytes whole and matches a slot when the bytes are the same and at the same depth, so the same limits held.
 * Identical bytes decode to an equal value: recalling it is invisible, but for skipping the tokens and lookups. A site
 * whose lookups mostly miss (values that never repeat) stops looking after {@value #TRIAL} misses, so it costs little.
 * <p>
 * Before that, a lookup tries the site's last value ({@link #repeat}): values mostly repeat the one before (the nodes
 * of a pool), and bytes equal to a whole value read before end where it ended, so neither the scan for the value's end
 * nor the hash is needed.
 */
final class RepeatMemo {
    private static final int TRIAL = 512;

    /** Slots per site: 16 to 512, from the body's size. */
    private final int slots;
    private final int[] from;
    private final int[] length;
    private final int[] depth;
    private final Object[] value;
    private final int[] hits;
    private final int[] misses;
    private final int[] pendingSlot;
    /** Per site: the slot of the value found or remembered last, -1 before any. */
    private final int[] last;

    RepeatMemo(int bodyLength, int sites) {
        this.slots = Integer.highestOneBit(Math.max(16, Math.min(512, bodyLength >> 10)));
        int n = sites * slots;
        this.from = new int[n];
        this.length = new int[n];
        this.depth = new int[n];
        this.value = new Object[n];
        this.hits = new int[sites];
        this.misses = new int[sites];
        this.pendingSlot = new int[sites];
        this.last = new int[sites];
        Arrays.fill(last, -1);
    }

    /** Whether {@code site} still looks values up (it stops once its misses outnumber its hits after a trial). */
    boolean trying(int site) {
        int m = misses[site];
        return m < TRIAL || hits[site] >= m;
    }

    /**
     * The site's last value when the bytes from {@code at} (readable up to {@code end}) are exactly its bytes, at the
     * same depth {@code d}, else null. Its bytes were one whole value, so equal bytes are one whole value of the same
     * length ({@link #lastLength}): no need to find where the value ends.
     */
    Object repeat(int site, byte[] b, int at, int end, int d) {
        int slot = last[site];
        if (slot < 0) {
            return null;
        }
        Object v = value[slot];
        int len = length[slot];
        if (v == null || depth[slot] != d || len > end - at) {
            return null;
        }
        int seen = from[slot];
        if (!Arrays.equals(b, at, at + len, b, seen, seen + len)) {
            return null;
        }
        hits[site]++;
        return v;
    }

    /** The length of the bytes of the site's last value (after a {@link #repeat} that found it). */
    int lastLength(int site) {
        return length[last[site]];
    }

    /**
     * The value read before from the bytes {@code [at, to)} at nesting {@code d}, or null: then, unless {@code to} is
     * negative (the value's end not yet known), the bytes are noted for {@link #remember}.
     */
    Object find(int site, byte[] b, int at, int to, int d) {
        pendingSlot[site] = -1;
        if (to < 0) {
            return null;
        }
        int len = to - at;
        int slot = site * slots + (Words.hashRange(b, at, len) & (slots - 1));
        Object v = value[slot];
        if (v != null && length[slot] == len && depth[slot] == d) {
            int seen = from[slot];
            if (Arrays.equals(b, at, to, b, seen, seen + len)) {
                hits[site]++;
                last[site] = slot;
                return v;
            }
        }
        misses[site]++;
        pendingSlot[site] = slot;
        from[slot] = at;
        length[slot] = len;
        depth[slot] = d;
        value[slot] = null; // filled by remember once the value is read
        return null;
    }

    /**
     * After a {@link #find} that found nothing: {@code v} is the value of the bytes noted there, if they end at
     * {@code end}.
     */
    void remember(int site, Object v, int end) {
        int slot = pendingSlot[site];
        if (slot >= 0 && from[slot] + length[slot] == end) {
            value[slot] = v;
            last[site] = slot;
        }
    }

    /** Lookups that found a value, per site. */
    int[] hits() {
        return hits.clone();
    }

    /** Lookups that found none, per site. */
    int[] misses() {
        return misses.clone();
    }

    /**
     * The end (exclusive) of the object or array starting at {@code at}, by strings and brackets alone, or -1 when the
     * bytes that may be read ({@code end}) run out first. Not a check: a value is only recalled for bytes equal to
     * ones read and checked before.
     */
    static int valueEnd(byte[] b, int at, int end) {
        int nesting = 0;
        int i = at;
        while (i < end) {
            int c = b[i];
            if (c == '"') {
                i++;
                while (true) {
                    i = Words.plain(b, i, end);
                    if (i >= end) {
                        return -1;
                    }
                    int x = b[i];
                    if (x == '"') {
                        break;
                    }
                    i += x == '\\' ? 2 : 1;
                }
            } else if (c == '{' || c == '[') {
                nesting++;
            } else if (c == '}' || c == ']') {
                if (--nesting == 0) {
                    return i + 1;
                }
            }
            i++;
        }
        return -1;
    }
}
