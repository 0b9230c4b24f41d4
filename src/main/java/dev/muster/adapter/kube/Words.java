package dev.muster.adapter.kube;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Byte-range helpers of the byte path, eight bytes at a time (SWAR): the scan of a string's plain run, and the hashes
 * and keys by which {@link FieldNames}, {@link StringTable} and {@link RepeatMemo} find byte ranges again.
 */
final class Words {
    private static final VarHandle WORDS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;
    private static final long QUOTES = '"' * ONES;
    private static final long BACKSLASHES = '\\' * ONES;
    private static final long SPACES = ' ' * ONES;

    private Words() {
    }

    /**
     * The first index from {@code i} whose byte is a quote, a backslash, a control or non-ASCII, by words: per word,
     * each test sets bit 7 of the bytes it matches (exactly for the lowest match; a borrow only marks bytes above
     * one), so the lowest set bit is the first such byte. Returns at most {@code end - 7}: the caller goes on by bytes.
     */
    static int plain(byte[] b, int i, int end) {
        while (i + 8 <= end) {
            long x = (long) WORDS.get(b, i);
            long q = x ^ QUOTES;
            long s = x ^ BACKSLASHES;
            long m = ((q - ONES) & ~q | (s - ONES) & ~s | (x - SPACES) & ~x | x) & HIGHS;
            if (m != 0) {
                return i + (Long.numberOfTrailingZeros(m) >>> 3);
            }
            i += 8;
        }
        return i;
    }

    /** Little-endian word of the {@code n} (1..8) bytes at {@code i}, zero above them. */
    static long word(byte[] b, int i, int n) {
        if (i + 8 <= b.length) {
            long x = (long) WORDS.get(b, i);
            return n == 8 ? x : x & (-1L >>> (64 - 8 * n));
        }
        long x = 0;
        for (int k = n - 1; k >= 0; k--) {
            x = x << 8 | (b[i + k] & 0xFF);
        }
        return x;
    }

    /**
     * A hash of {@code len} bytes at {@code from} from their first and last words and their length, without a loop
     * (names and shared strings use the same): values that repeat differ at one end or in length.
     */
    static int hash(byte[] b, int from, int len) {
        long first;
        long last;
        if (len >= 8 && from + 8 <= b.length) {
            first = (long) WORDS.get(b, from);
            last = (long) WORDS.get(b, from + len - 8);
        } else {
            first = len == 0 ? 0 : word(b, from, Math.min(len, 8));
            last = len > 8 ? word(b, from + len - 8, 8) : 0;
        }
        long h = first * 0x9E3779B97F4A7C15L ^ last * 0xC2B2AE3D27D4EB4FL ^ len;
        return (int) (h ^ (h >>> 29) ^ (h >>> 47));
    }

    /** A hash of a whole byte range, by words. */
    static int hashRange(byte[] b, int from, int len) {
        long h = len;
        int i = from;
        int end = from + len;
        for (; end - i >= 8; i += 8) {
            h = (h ^ (long) WORDS.get(b, i)) * 0x9E3779B97F4A7C15L;
        }
        if (i < end) {
            h = (h ^ word(b, i, end - i)) * 0x9E3779B97F4A7C15L;
        }
        return (int) (h ^ (h >>> 31));
    }

    /** A key of a table: the length, then the bytes as little-endian words (the last one zero-padded). */
    static long[] key(byte[] b, int from, int len) {
        return key(null, b, from, len);
    }

    /** {@link #key(byte[], int, int)}, written into {@code reuse} when it is a key of the same size (else a new one). */
    static long[] key(long[] reuse, byte[] b, int from, int len) {
        int words = 1 + (len + 7) / 8;
        long[] k = reuse != null && reuse.length == words ? reuse : new long[words];
        k[0] = len;
        for (int n = 0, w = 1; n < len; n += 8, w++) {
            k[w] = word(b, from + n, Math.min(8, len - n));
        }
        return k;
    }

    /** Whether the {@code len} bytes at {@code from} are those of key {@code k}. */
    static boolean same(long[] k, byte[] b, int from, int len) {
        if (k[0] != len) {
            return false;
        }
        int w = 1;
        int n = 0;
        for (; len - n >= 8; n += 8, w++) {
            if (k[w] != (long) WORDS.get(b, from + n)) {
                return false;
            }
        }
        return n == len || k[w] == word(b, from + n, len - n);
    }
}
