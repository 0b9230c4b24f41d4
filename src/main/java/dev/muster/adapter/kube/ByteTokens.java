package dev.muster.adapter.kube;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A strict JSON lexer over a whole request body, the token source of {@link StreamingDecoders.Reader} on the fast
 * path of {@link KubeCodec#readJson(byte[])}.
 *
 * <p>Why not Jackson's parser here: on the {@code large} request, Jackson's own tokenizing (field names hashed as
 * quads into its canonicalizer, a context object per container, strings decoded to chars before we hash them again)
 * is the floor itself (≈ 0.41 s for 106 MB on these machines) and was half of decoding; the target is decoding within
 * 1.5× of that floor (issue 6, bench/README.md). This lexer reads bytes once: a field name is hashed while it is scanned
 * and found among the names the decoders know, a repeated string value is found by its bytes in a per-request
 * table, a string is materialized only when a decoder asks for it.
 *
 * <p>It accepts a conservative subset of what Jackson accepts, never more: RFC 8259 JSON in strict UTF-8 (no BOM,
 * no overlong forms, no encoded surrogates), nesting below the depth limit, strings and numbers within their length
 * limits, integers of at most 18 digits, nothing but whitespace after the document. On anything else it throws
 * {@link Bail}, and {@link KubeCodec} decodes the same bytes again with Jackson, which either accepts them with the
 * same result or produces the error message with its field path. So every failure a client sees is still Jackson's,
 * and {@code ByteTokensTest} checks on corrupted and generated documents that whatever this path accepts, the
 * Jackson path accepts with an equal document.
 */
final class ByteTokens extends StreamingDecoders.Tokens {

    /** Leave the fast path: the caller decodes with Jackson instead. No stack trace; one instance. */
    static final class Bail extends RuntimeException {
        static final Bail INSTANCE = new Bail();

        private Bail() {
            super("outside the fast path", null, false, false);
        }
    }

    /** Eight bytes at a time: strings and names are scanned, hashed and compared by words (SWAR). */
    private static final VarHandle WORDS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;
    private static final long QUOTES = '"' * ONES;
    private static final long BACKSLASHES = '\\' * ONES;
    private static final long SPACES = ' ' * ONES;

    /** What may follow the last byte of a number or literal: whitespace, a comma, a closing bracket. */
    private static final boolean[] DELIMITER = new boolean[256];
    /** Bytes a string's fast loop must stop at: the quote, the backslash, controls and every non-ASCII byte. */
    private static final boolean[] STRING_STOP = new boolean[256];

    static {
        for (char c : new char[]{' ', '\t', '\n', '\r', ',', ']', '}'}) {
            DELIMITER[c] = true;
        }
        for (int i = 0; i < 256; i++) {
            STRING_STOP[i] = i < 0x20 || i >= 0x80 || i == '"' || i == '\\';
        }
    }

    private static final int ROOT = 0;
    private static final int FIRST_IN_OBJECT = 1;
    private static final int FIRST_IN_ARRAY = 2;
    private static final int AFTER_NAME = 3;
    private static final int AFTER_VALUE = 4;

    private static final int MAX_SHARED_LENGTH = 64;

    private final byte[] b;
    /** Bytes that may be read: the body's length, or less while the rest is in flight ({@link #arrival}). */
    private int end;
    private final Arrival arrival;
    /** How far ahead of each node or pod to wait for bytes while the body arrives. */
    private final int window;
    private final int maxDepth;
    private final int maxStringLength;
    private final int maxNumberLength;
    private final int maxNameLength = StreamReadConstraints.defaults().getMaxNameLength();
    private final StreamingDecoders.Fallback fallback;

    private int pos;
    private int state = ROOT;
    private int depth;
    private final boolean[] objectAt;
    private JsonToken token;
    /** First byte of the current value token (the quote, bracket, digit or letter): slices handed to databind. */
    private int valueStart;
    /** Content of the current string token (inside the quotes), or the text of the current number. */
    private int start;
    private int stop;
    private boolean escaped;
    private boolean ascii;
    private long number;
    private boolean integral;
    private String name;
    /**
     * The current name when it is none of {@link Names}: no decoder field has it, so the Reader skips its value
     * without the String; {@link #currentKey()} makes it when a map needs the key.
     */
    private static final String UNKNOWN = new String("\0unknown field name");
    private int nameFrom;
    private int nameLength;
    private int nameHash;

    /** The shared strings' table: sized from the body (a small request must not pay for a large one's tables). */
    private final long[][] sharedKeys;
    private final String[] sharedStrings;

    ByteTokens(byte[] body, KubeCodec.Limits limits, StreamingDecoders.Fallback fallback) {
        this(body, limits, fallback, Arrival.WHOLE, 1 << 20);
    }

    /** Over a body that may still be arriving: reads only what {@code arrival} says is there. */
    ByteTokens(byte[] body, KubeCodec.Limits limits, StreamingDecoders.Fallback fallback, Arrival arrival, int window) {
        super(StreamingDecoders.Tokens.slots(body.length));
        this.b = body;
        this.arrival = arrival;
        this.window = window;
        this.end = Math.min(body.length, arrival.await(Math.min(body.length, window)));
        this.maxDepth = limits.maxNestingDepth();
        this.maxStringLength = limits.maxStringLength();
        this.maxNumberLength = limits.maxNumberLength();
        this.objectAt = new boolean[Math.max(2, maxDepth + 1)];
        this.fallback = fallback;
        this.sharedKeys = new long[slots][];
        this.sharedStrings = new String[slots];
        this.memoSlots = Integer.highestOneBit(Math.max(16, Math.min(512, body.length >> 10)));
        int memo = StreamingDecoders.Reader.SITES * memoSlots;
        this.memoFrom = new int[memo];
        this.memoLength = new int[memo];
        this.memoDepth = new int[memo];
        this.memoValue = new Object[memo];
    }

    static Bail bail() {
        throw Bail.INSTANCE;
    }

    // ------------------------------------------------------------ tokens

    @Override
    JsonToken nextToken() {
        int c = whitespace();
        switch (state) {
            case AFTER_VALUE -> {
                if (depth == 0) {
                    throw bail(); // nothing after the document's value
                }
                if (c == ',') {
                    pos++;
                    c = whitespace();
                    return objectAt[depth] ? name(c) : value(c);
                }
                if (c == (objectAt[depth] ? '}' : ']')) {
                    pos++;
                    return close();
                }
                throw bail();
            }
            case AFTER_NAME -> {
                if (c != ':') {
                    throw bail();
                }
                pos++;
                return value(whitespace());
            }
            case FIRST_IN_OBJECT -> {
                if (c == '}') {
                    pos++;
                    return close();
                }
                return name(c);
            }
            case FIRST_IN_ARRAY -> {
                if (c == ']') {
                    pos++;
                    return close();
                }
                return value(c);
            }
            default -> {
                return value(c);
            }
        }
    }

    @Override
    JsonToken currentToken() {
        return token;
    }

    @Override
    String currentName() {
        return name;
    }

    /** Before an envelope token, a node or a pod: waits until a window past it has arrived (body still arriving). */
    @Override
    void ahead() {
        if (end < b.length) {
            end = Math.min(b.length, arrival.await((int) Math.min(b.length, (long) pos + window)));
        }
    }

    /** Waits for the whole body. */
    private void whole() {
        if (end < b.length) {
            end = Math.min(b.length, arrival.await(b.length));
        }
    }

    /** Where a node or pod begins, only while bytes are still arriving (a whole body is never read again). */
    @Override
    Object mark() {
        return end < b.length ? new int[]{pos, state, depth, valueStart, token.ordinal()} : null;
    }

    /**
     * After a bail-out inside a node or pod that began at {@code mark}: when bytes were still missing, waits for the
     * whole body, puts the tokens back where the node or pod began and says to read it again; else false (a real
     * bail-out). Everything a partial read left behind (shared strings, recalled values) came from complete values.
     */
    @Override
    boolean reread(Object mark) {
        if (end >= b.length) {
            return false;
        }
        whole();
        int[] m = (int[]) mark;
        pos = m[0];
        state = m[1];
        depth = m[2];
        valueStart = m[3];
        token = JsonToken.values()[m[4]];
        return true;
    }

    /** After the document's value: only whitespace may follow. */
    void expectEnd() {
        whole();
        if (state != AFTER_VALUE || depth != 0 || whitespace() >= 0) {
            throw bail();
        }
    }

    @Override
    void skipChildren() {
        JsonToken t = token;
        if (t != JsonToken.START_OBJECT && t != JsonToken.START_ARRAY) {
            return;
        }
        // the value's bytes are checked as strictly as tokens, by a recursive descent that keeps no token state
        pos = t == JsonToken.START_OBJECT ? skipObject(pos, depth) : skipArray(pos, depth);
        close();
    }

    /** The members of an object whose '{' is before {@code i}, at depth {@code d}: returns the index after its '}'. */
    private int skipObject(int i, int d) {
        i = skipSpace(i);
        if (i < end && b[i] == '}') {
            return i + 1;
        }
        while (true) {
            if (i >= end || b[i] != '"') {
                throw bail();
            }
            i = scan(i);
            if (stop - start > maxNameLength || escaped && surrogateEscape(start, stop)) {
                throw bail(); // as for names read: Jackson refuses unpaired surrogates in names, skipped or not
            }
            i = skipSpace(i);
            if (i >= end || b[i] != ':') {
                throw bail();
            }
            i = skipValue(skipSpace(i + 1), d);
            i = skipSpace(i);
            if (i >= end) {
                throw bail();
            }
            byte c = b[i];
            if (c == '}') {
                return i + 1;
            }
            if (c != ',') {
                throw bail();
            }
            i = skipSpace(i + 1);
        }
    }

    /** The elements of an array whose '[' is before {@code i}, at depth {@code d}: returns the index after its ']'. */
    private int skipArray(int i, int d) {
        i = skipSpace(i);
        if (i < end && b[i] == ']') {
            return i + 1;
        }
        while (true) {
            i = skipSpace(skipValue(i, d));
            if (i >= end) {
                throw bail();
            }
            byte c = b[i];
            if (c == ']') {
                return i + 1;
            }
            if (c != ',') {
                throw bail();
            }
            i = skipSpace(i + 1);
        }
    }

    /** One value starting at {@code i} inside a container at depth {@code d}: returns the index after it. */
    private int skipValue(int i, int d) {
        if (i >= end) {
            throw bail();
        }
        switch (b[i]) {
            case '"' -> {
                return scan(i);
            }
            case '{' -> {
                if (d + 1 >= maxDepth) {
                    throw bail();
                }
                return skipObject(i + 1, d + 1);
            }
            case '[' -> {
                if (d + 1 >= maxDepth) {
                    throw bail();
                }
                return skipArray(i + 1, d + 1);
            }
            case 't' -> {
                return skipLiteral(i, TRUE);
            }
            case 'f' -> {
                return skipLiteral(i, FALSE);
            }
            case 'n' -> {
                return skipLiteral(i, NULL);
            }
            default -> {
                int c = b[i];
                if (c == '-' || c >= '0' && c <= '9') {
                    pos = i;
                    number(); // sets the number fields and state: harmless, the caller restores both
                    return pos;
                }
                throw bail();
            }
        }
    }

    private int skipLiteral(int i, byte[] word) {
        int e = i + word.length;
        if (e > end || !Arrays.equals(b, i, e, word, 0, word.length) || e < end && !DELIMITER[b[e] & 0xFF]) {
            throw bail();
        }
        return e;
    }

    private int skipSpace(int i) {
        final byte[] b = this.b;
        while (i < end) {
            byte c = b[i];
            if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
                return i;
            }
            i++;
        }
        return i;
    }

    /** Moves past whitespace; the next byte, or -1 at the end of what may be read. */
    private int whitespace() {
        int i = skipSpace(pos);
        pos = i;
        return i < end ? b[i] & 0xFF : -1;
    }

    private JsonToken close() {
        JsonToken t = objectAt[depth] ? JsonToken.END_OBJECT : JsonToken.END_ARRAY;
        depth--;
        state = AFTER_VALUE;
        return token = t;
    }

    private JsonToken open(boolean object) {
        int d = depth + 1;
        if (d >= maxDepth) {
            throw bail(); // Jackson reports the limit
        }
        depth = d;
        objectAt[d] = object;
        pos++;
        state = object ? FIRST_IN_OBJECT : FIRST_IN_ARRAY;
        return token = object ? JsonToken.START_OBJECT : JsonToken.START_ARRAY;
    }

    private JsonToken value(int c) {
        valueStart = pos;
        switch (c) {
            case '{' -> {
                return open(true);
            }
            case '[' -> {
                return open(false);
            }
            case '"' -> {
                string();
                state = AFTER_VALUE;
                return token = JsonToken.VALUE_STRING;
            }
            case 't' -> {
                literal(TRUE);
                return token = JsonToken.VALUE_TRUE;
            }
            case 'f' -> {
                literal(FALSE);
                return token = JsonToken.VALUE_FALSE;
            }
            case 'n' -> {
                literal(NULL);
                return token = JsonToken.VALUE_NULL;
            }
            default -> {
                if (c == '-' || c >= '0' && c <= '9') {
                    return number();
                }
                throw bail();
            }
        }
    }

    private static final byte[] TRUE = "true".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] FALSE = "false".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NULL = "null".getBytes(StandardCharsets.US_ASCII);

    private void literal(byte[] word) {
        pos = skipLiteral(pos, word);
        state = AFTER_VALUE;
    }

    /** RFC 8259 number grammar; the value is kept for integers of up to 18 digits, the rest go to Jackson. */
    private JsonToken number() {
        final byte[] b = this.b;
        int i = pos;
        boolean negative = b[i] == '-';
        if (negative) {
            i++;
        }
        if (i >= end) {
            throw bail();
        }
        int first = i;
        long v = 0;
        int c = b[i];
        if (c == '0') {
            i++;
        } else if (c >= '1' && c <= '9') {
            while (i < end && (c = b[i]) >= '0' && c <= '9') {
                v = v * 10 + (c - '0');
                i++;
            }
        } else {
            throw bail();
        }
        int digits = i - first;
        boolean fraction = false;
        if (i < end && b[i] == '.') {
            fraction = true;
            i = digits(i + 1);
        }
        if (i < end && (b[i] == 'e' || b[i] == 'E')) {
            fraction = true;
            i++;
            if (i < end && (b[i] == '+' || b[i] == '-')) {
                i++;
            }
            i = digits(i);
        }
        if (i < end && !DELIMITER[b[i] & 0xFF] || i - pos > maxNumberLength || !fraction && digits > 18) {
            throw bail();
        }
        start = pos;
        stop = i;
        pos = i;
        integral = !fraction;
        number = negative ? -v : v;
        state = AFTER_VALUE;
        return token = fraction ? JsonToken.VALUE_NUMBER_FLOAT : JsonToken.VALUE_NUMBER_INT;
    }

    private int digits(int i) {
        int from = i;
        while (i < end && b[i] >= '0' && b[i] <= '9') {
            i++;
        }
        if (i == from) {
            throw bail();
        }
        return i;
    }

    /** Scans the string whose opening quote is at {@code pos}; sets start/stop/escaped/ascii and moves past it. */
    private void string() {
        pos = scan(pos);
    }

    /**
     * Checks the string whose opening quote is at {@code quote} (escapes, strict UTF-8, no controls, the length
     * limit), sets start/stop/escaped/ascii to its content and returns the index after its closing quote.
     */
    private int scan(int quote) {
        final byte[] b = this.b;
        final int end = this.end;
        int i = quote + 1;
        start = i;
        boolean esc = false;
        boolean asc = true;
        while (true) {
            i = plain(b, i, end);
            if (i >= end) {
                throw bail();
            }
            int c = b[i] & 0xFF;
            if (!STRING_STOP[c]) {
                i++;
                continue;
            }
            if (c == '"') {
                break;
            }
            if (c == '\\') {
                esc = true;
                i = escape(i);
            } else if (c >= 0x80) {
                asc = false;
                i = utf8(i, c);
            } else {
                throw bail(); // an unescaped control character
            }
        }
        if (i - start > maxStringLength) {
            throw bail();
        }
        stop = i;
        escaped = esc;
        ascii = asc;
        return i + 1;
    }

    /**
     * The first index from {@code i} whose byte is a quote, a backslash, a control or non-ASCII, by words: per word,
     * each test sets bit 7 of the bytes it matches (exactly for the lowest match; a borrow only marks bytes above
     * one), so the lowest set bit is the first such byte. Returns at most {@code end - 7}: the caller goes on by bytes.
     */
    private static int plain(byte[] b, int i, int end) {
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
    private static long word(byte[] b, int i, int n) {
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
     * (Names and the shared table use the same): values that repeat differ at one end or in length.
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

    /** A key of a table: the length, then the bytes as little-endian words (the last one zero-padded). */
    static long[] key(byte[] b, int from, int len) {
        long[] k = new long[1 + (len + 7) / 8];
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

    /** Checks the escape at {@code i} (a backslash); returns the index after it. */
    private int escape(int i) {
        if (i + 1 >= end) {
            throw bail();
        }
        switch (b[i + 1]) {
            case '"', '\\', '/', 'b', 'f', 'n', 'r', 't' -> {
                return i + 2;
            }
            case 'u' -> {
                if (i + 6 > end) {
                    throw bail();
                }
                for (int k = i + 2; k < i + 6; k++) {
                    if (hex(b[k]) < 0) {
                        throw bail();
                    }
                }
                return i + 6;
            }
            default -> throw bail();
        }
    }

    private static int hex(int c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }

    /** Strict UTF-8 (RFC 3629): the sequence led by {@code c0} at {@code i}; returns the index after it. */
    private int utf8(int i, int c0) {
        int n;
        int min1 = 0x80;
        int max1 = 0xBF;
        if (c0 >= 0xC2 && c0 <= 0xDF) {
            n = 1;
        } else if (c0 >= 0xE0 && c0 <= 0xEF) {
            n = 2;
            if (c0 == 0xE0) {
                min1 = 0xA0; // overlong
            } else if (c0 == 0xED) {
                max1 = 0x9F; // surrogates
            }
        } else if (c0 >= 0xF0 && c0 <= 0xF4) {
            n = 3;
            if (c0 == 0xF0) {
                min1 = 0x90;
            } else if (c0 == 0xF4) {
                max1 = 0x8F; // above U+10FFFF
            }
        } else {
            throw bail();
        }
        if (i + n >= end) {
            throw bail();
        }
        int c1 = b[i + 1] & 0xFF;
        if (c1 < min1 || c1 > max1) {
            throw bail();
        }
        for (int k = i + 2; k <= i + n; k++) {
            if ((b[k] & 0xC0) != 0x80) {
                throw bail();
            }
        }
        return i + n + 1;
    }

    // ------------------------------------------------------------ field names

    private JsonToken name(int c) {
        if (c != '"') {
            throw bail();
        }
        final byte[] b = this.b;
        int from = pos + 1;
        int i = plain(b, from, end);
        while (i < end && !STRING_STOP[b[i] & 0xFF]) {
            i++;
        }
        if (i >= end) {
            throw bail();
        }
        if (b[i] != '"') {
            string(); // escapes, non-ASCII: the general path (rare in names)
            if (stop - start > maxNameLength || escaped && surrogateEscape(start, stop)) {
                throw bail(); // Jackson refuses unpaired surrogates in names; leave any to it
            }
            name = decoded();
            state = AFTER_NAME;
            return token = JsonToken.FIELD_NAME;
        }
        int len = i - from;
        if (len > maxNameLength) {
            throw bail();
        }
        pos = i + 1;
        int h = hash(b, from, len);
        String known = Names.find(b, from, len, h);
        if (known == null) {
            nameFrom = from;
            nameLength = len;
            nameHash = h;
            known = UNKNOWN;
        }
        name = known;
        state = AFTER_NAME;
        return token = JsonToken.FIELD_NAME;
    }

    /** A map key: the name itself, shared within the request (an unknown name is read only here). */
    @Override
    String currentKey() {
        if (name != UNKNOWN) {
            return name;
        }
        start = nameFrom;
        stop = nameFrom + nameLength;
        escaped = false;
        ascii = true;
        return nameLength > MAX_SHARED_LENGTH ? decoded() : shared(nameHash);
    }

    // ------------------------------------------------------------ values

    @Override
    String getText() {
        if (token == JsonToken.VALUE_STRING) {
            return decoded();
        }
        if (token == JsonToken.VALUE_NUMBER_INT || token == JsonToken.VALUE_NUMBER_FLOAT) {
            return new String(b, start, stop - start, StandardCharsets.ISO_8859_1);
        }
        throw bail();
    }

    /** Whether the string content in [from, to) has a {@code \\uD800}..{@code \\uDFFF} escape. */
    private boolean surrogateEscape(int from, int to) {
        for (int i = from; i + 5 < to; i++) {
            if (b[i] == '\\') {
                if (b[i + 1] == 'u' && (b[i + 2] == 'd' || b[i + 2] == 'D') && hex(b[i + 3]) >= 8) {
                    return true;
                }
                i++;
            }
        }
        return false;
    }

    /** The current string's content as a new String. */
    private String decoded() {
        int len = stop - start;
        if (!escaped) {
            return ascii ? new String(b, start, len, StandardCharsets.ISO_8859_1)
                    : new String(b, start, len, StandardCharsets.UTF_8); // validated: decodes without replacement
        }
        StringBuilder sb = new StringBuilder(len);
        int i = start;
        while (i < stop) {
            int run = i;
            while (i < stop && b[i] != '\\') {
                i++;
            }
            if (i > run) {
                sb.append(new String(b, run, i - run, StandardCharsets.UTF_8));
            }
            if (i >= stop) {
                break;
            }
            byte e = b[i + 1];
            switch (e) {
                case 'b' -> sb.append('\b');
                case 'f' -> sb.append('\f');
                case 'n' -> sb.append('\n');
                case 'r' -> sb.append('\r');
                case 't' -> sb.append('\t');
                case 'u' -> {
                    sb.append((char) (hex(b[i + 2]) << 12 | hex(b[i + 3]) << 8 | hex(b[i + 4]) << 4 | hex(b[i + 5])));
                    i += 4;
                }
                default -> sb.append((char) e); // " \ /
            }
            i += 2;
        }
        return sb.toString();
    }

    @Override
    String sharedText() {
        if (token != JsonToken.VALUE_STRING) {
            throw bail();
        }
        return shared();
    }

    /**
     * The current string, shared within the request: looked up by its bytes in a direct-mapped table (a slot keeps
     * the last string that hashed to it), so a repeat allocates nothing. Sets {@link #lastSlot} (-1: not tabled).
     */
    private String shared() {
        int len = stop - start;
        if (len > MAX_SHARED_LENGTH || escaped) {
            lastSlot = -1;
            return decoded();
        }
        return shared(hash(b, start, len));
    }

    /** {@link #shared()} of an unescaped string of at most MAX_SHARED_LENGTH bytes whose {@link #hash} is {@code h}. */
    private String shared(int h) {
        int slot = h & (slots - 1);
        lastSlot = slot;
        long[] k = sharedKeys[slot];
        int len = stop - start;
        if (k != null && same(k, b, start, len)) {
            return sharedStrings[slot];
        }
        String s = decoded();
        sharedKeys[slot] = key(b, start, len);
        sharedStrings[slot] = s;
        return s;
    }

    @Override
    JsonParser.NumberType getNumberType() {
        if (token != JsonToken.VALUE_NUMBER_INT) {
            throw bail();
        }
        long v = number;
        return v == (int) v ? JsonParser.NumberType.INT : JsonParser.NumberType.LONG;
    }

    @Override
    int getIntValue() {
        if (token != JsonToken.VALUE_NUMBER_INT || number != (int) number) {
            throw bail();
        }
        return (int) number;
    }

    @Override
    long getLongValue() {
        if (token != JsonToken.VALUE_NUMBER_INT) {
            throw bail();
        }
        return number;
    }

    // ------------------------------------------------------------ values that repeat byte for byte

    /*
     * Per site, a direct-mapped table of values read before, each with the offset, length and depth of its bytes.
     * A recall finds the end of the value at hand by a structural scan (strings and brackets only: the bytes are
     * checked by the comparison), hashes them whole, and matches a slot when the bytes are the same and at the same
     * depth, so the same limits held. Identical bytes decode to an equal value: recalling it is invisible, but for
     * skipping the tokens and lookups. A site whose recalls mostly miss (values that never repeat) stops recalling
     * after a while, so it costs little.
     */
    private static final int MEMO_TRIAL = 512;
    /** Slots per site: 16 to 512, from the body's size. */
    private final int memoSlots;
    private final int[] memoFrom;
    private final int[] memoLength;
    private final int[] memoDepth;
    private final Object[] memoValue;
    private final int[] memoHits = new int[StreamingDecoders.Reader.SITES];
    private final int[] memoMisses = new int[StreamingDecoders.Reader.SITES];
    private final int[] pendingSlot = new int[StreamingDecoders.Reader.SITES];

    @Override
    Object recall(int site) {
        int misses = memoMisses[site];
        if (misses >= MEMO_TRIAL && memoHits[site] < misses) {
            return null; // this site's values do not repeat
        }
        int from = valueStart;
        int to = valueEnd(from);
        pendingSlot[site] = -1;
        if (to < 0) {
            return null;
        }
        int len = to - from;
        int slot = site * memoSlots + (hashRange(b, from, len) & (memoSlots - 1));
        Object v = memoValue[slot];
        int d = depth;
        if (v != null && memoLength[slot] == len && memoDepth[slot] == d) {
            int at = memoFrom[slot];
            if (Arrays.equals(b, from, to, b, at, at + len)) {
                memoHits[site]++;
                pos = to;
                token = objectAt[d] ? JsonToken.END_OBJECT : JsonToken.END_ARRAY;
                depth = d - 1;
                state = AFTER_VALUE;
                return v;
            }
        }
        memoMisses[site]++;
        pendingSlot[site] = slot;
        memoFrom[slot] = from;
        memoLength[slot] = len;
        memoDepth[slot] = d;
        memoValue[slot] = null; // filled by remember once the value is read
        return null;
    }

    @Override
    void remember(int site, Object value) {
        int slot = pendingSlot[site];
        if (slot >= 0 && memoFrom[slot] + memoLength[slot] == pos) {
            memoValue[slot] = value;
        }
    }

    /** Recalls that found a value, per site (for tests and benchmarks). */
    int[] recalls() {
        return memoHits.clone();
    }

    /** Recalls that found none, per site. */
    int[] misses() {
        return memoMisses.clone();
    }

    /**
     * The end (exclusive) of the object or array starting at {@code from}, by strings and brackets alone, or -1 when
     * the document ends first. Not a check: a value is only recalled for bytes equal to ones read and checked before.
     */
    private int valueEnd(int from) {
        final byte[] b = this.b;
        final int end = this.end;
        int nesting = 0;
        int i = from;
        while (i < end) {
            int c = b[i];
            if (c == '"') {
                i++;
                while (true) {
                    i = plain(b, i, end);
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

    /** A hash of a whole byte range, by words. */
    private static int hashRange(byte[] b, int from, int len) {
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

    // ------------------------------------------------------------ databind for everything unusual

    /** The bytes of the current value (skipped to its end), bound by databind to field {@code f} of {@code r}. */
    @Override
    Object field(Class<?> r, String f) {
        whole(); // databind reads the slice as a whole
        int from = valueStart;
        skipChildren();
        return fallback.field(b, from, pos - from, r, f);
    }

    @Override
    Object value(Class<?> type) {
        whole();
        int from = valueStart;
        skipChildren();
        return fallback.value(b, from, pos - from, type);
    }

    @Override
    java.io.IOException contentNull(String field, Class<?> type) {
        throw bail();
    }

    /**
     * The field names the decoders switch on, found by their bytes while scanning so that a known name costs no
     * String and no canonicalizing table. A name missing here still works (it is shared like a value), only slower.
     */
    static final class Names {
        private static final String[] ALL = {
                // envelope
                "snapshot", "podGroups", "options", "nodes", "pods", "workloads", "priorityClasses",
                "podDisruptionBudgets", "deviceClasses", "resourceSlices", "resourceClaims", "resourceClaimTemplates",
                // Node, Pod, ObjectMeta
                "metadata", "spec", "status", "name", "namespace", "uid", "labels", "annotations",
                "creationTimestamp", "deletionTimestamp", "generation",
                "unschedulable", "taints", "key", "value", "effect", "allocatable", "capacity",
                "nodeName", "schedulerName", "priority", "priorityClassName", "preemptionPolicy", "nodeSelector",
                "affinity", "tolerations", "containers", "initContainers", "overhead", "resources",
                "topologySpreadConstraints", "schedulingGates", "schedulingGroup",
                "ports", "restartPolicy", "containerPort", "hostPort", "protocol", "hostIP", "requests", "limits",
                "operator", "tolerationSeconds", "nodeAffinity", "podAffinity", "podAntiAffinity",
                "requiredDuringSchedulingIgnoredDuringExecution", "preferredDuringSchedulingIgnoredDuringExecution",
                "nodeSelectorTerms", "matchExpressions", "matchFields", "weight", "preference", "values",
                "podAffinityTerm", "labelSelector", "namespaces", "namespaceSelector", "topologyKey",
                "matchLabelKeys", "mismatchLabelKeys", "matchLabels", "phase", "nominatedNodeName", "podGroupName",
                // common fields skipped by name (kubectl output)
                "apiVersion", "kind", "resourceVersion", "ownerReferences", "conditions", "addresses", "images",
                "nodeInfo", "image", "imagePullPolicy", "type", "lastTransitionTime", "lastHeartbeatTime",
                "podIP", "podIPs", "hostIPs", "startTime", "containerStatuses", "qosClass", "dnsPolicy",
                "serviceAccountName", "terminationGracePeriodSeconds", "securityContext", "volumes", "volumeMounts",
                "env", "args", "command", "podCIDR", "providerID", "managedFields",
                // common map keys: resource names ("pods" is above) and well-known labels
                "cpu", "memory", "ephemeral-storage", "hugepages-1Gi", "hugepages-2Mi", "nvidia.com/gpu",
                "amd.com/gpu", "app", "pod-template-hash", "controller-revision-hash", "job-name", "controller-uid",
                "batch.kubernetes.io/job-name", "batch.kubernetes.io/controller-uid",
                "statefulset.kubernetes.io/pod-name", "app.kubernetes.io/name", "app.kubernetes.io/instance",
                "app.kubernetes.io/component", "app.kubernetes.io/part-of", "app.kubernetes.io/managed-by",
                "kubernetes.io/hostname", "kubernetes.io/os", "kubernetes.io/arch", "topology.kubernetes.io/zone",
                "topology.kubernetes.io/region", "node.kubernetes.io/instance-type", "beta.kubernetes.io/arch",
                "beta.kubernetes.io/os", "beta.kubernetes.io/instance-type",
                "failure-domain.beta.kubernetes.io/region", "failure-domain.beta.kubernetes.io/zone",
                "node-role.kubernetes.io/control-plane", "kubectl.kubernetes.io/last-applied-configuration"};
        private static final int MASK = 1023;
        private static final long[][] KEYS = new long[MASK + 1][];
        private static final String[] STRINGS = new String[MASK + 1];

        static {
            for (String s : ALL) {
                byte[] b = s.getBytes(StandardCharsets.US_ASCII);
                long[] k = key(b, 0, b.length);
                int slot = hash(b, 0, b.length) & MASK;
                while (KEYS[slot] != null) {
                    if (Arrays.equals(KEYS[slot], k)) {
                        throw new IllegalStateException("field name listed twice: " + s);
                    }
                    slot = (slot + 1) & MASK;
                }
                KEYS[slot] = k;
                STRINGS[slot] = s.intern();
            }
        }

        private Names() {
        }

        /** The known name with these bytes ({@code h}: their {@link #hash}), or null. */
        static String find(byte[] b, int from, int len, int h) {
            int slot = h & MASK;
            while (true) {
                long[] k = KEYS[slot];
                if (k == null) {
                    return null;
                }
                if (same(k, b, from, len)) {
                    return STRINGS[slot];
                }
                slot = (slot + 1) & MASK;
            }
        }
    }
}
