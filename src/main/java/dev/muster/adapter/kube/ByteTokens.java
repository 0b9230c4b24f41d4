package dev.muster.adapter.kube;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import java.nio.charset.StandardCharsets;

/**
 * A strict JSON lexer over a whole request body, the token source of {@link StreamingDecoders.Reader} on the fast
 * path of {@link KubeCodec#readJson(byte[])}: the token state machine over {@link ByteLexer}'s grammar.
 *
 * <p>Why not Jackson's parser here: Jackson's own tokenizing (field names hashed as quads into its canonicalizer, a
 * context object per container, strings decoded to chars before they are hashed again) is most of what decoding
 * costs. This lexer reads bytes once: a field name is hashed while it is scanned and found among the names the
 * decoders know ({@link FieldNames}), a repeated string value is found by its bytes in a per-request
 * {@link StringTable}, a string is materialized only when a decoder asks for it, and objects that repeat byte for
 * byte are recalled whole ({@link RepeatMemo}).
 *
 * <p>It accepts a conservative subset of what Jackson accepts, never more: RFC 8259 JSON in strict UTF-8 (no BOM,
 * no overlong forms, no encoded surrogates), nesting below the depth limit, strings and numbers within their length
 * limits, integers of at most 18 digits, nothing but whitespace after the document. On anything else it throws
 * {@link Bail}, and {@link KubeCodec} decodes the same bytes again with Jackson, which either accepts them with the
 * same result or produces the error message with its field path. So every failure a client sees is still Jackson's,
 * and {@code ByteTokensTest} checks on corrupted and generated documents that whatever this path accepts, the
 * Jackson path accepts with an equal document.
 */
final class ByteTokens extends ByteLexer {

    /** Databind for the byte path: binds a slice of the body (one value) as a field of a record, or as a type. */
    interface Fallback {
        /** Databind's value of field {@code f} of {@code record} from the bytes; {@link Bail} if it fails. */
        Object field(byte[] body, int offset, int length, Class<?> record, String f);

        /** Databind's value of {@code type} from the bytes; {@link Bail} if it fails. */
        Object value(byte[] body, int offset, int length, Class<?> type);
    }

    private static final int ROOT = 0;
    private static final int FIRST_IN_OBJECT = 1;
    private static final int FIRST_IN_ARRAY = 2;
    private static final int AFTER_NAME = 3;
    private static final int AFTER_VALUE = 4;

    private static final int MAX_SHARED_LENGTH = 64;
    /**
     * The current name when it is none of {@link FieldNames}: no decoder field has it, so the Reader skips its value
     * without the String; {@link #currentKey()} makes it when a map needs the key.
     */
    private static final String UNKNOWN = new String("\0unknown field name");

    private final ArrivalWindow arrival;
    private final Fallback fallback;
    /** Sized from the body, like the memo: a small request must not pay for a large one's tables. */
    private final StringTable strings;
    /**
     * Map keys apart from the values: a request's keys are a few hundred names (labels, attributes, capacities) met
     * again and again, between which unique values (uids, pod names) would displace them from {@link #strings}; kept
     * here, a key is one String object throughout the request, which the mappers' look-ups by identity rely on.
     */
    private final StringTable keys;
    /** Key table slots: at most this many, fewer for a small body (as many as the value table has). */
    private static final int KEY_SLOTS = 1024;
    private final int keySlots;
    private final RepeatMemo memo;

    private int state = ROOT;
    private int depth;
    private final boolean[] objectAt;
    private JsonToken token;
    /** First byte of the current value token (the quote, bracket, digit or letter): slices handed to databind. */
    private int valueStart;
    private String name;
    private int nameFrom;
    private int nameLength;
    private int nameHash;

    ByteTokens(byte[] body, KubeCodec.Limits limits, Fallback fallback) {
        this(body, limits, fallback, Arrival.WHOLE, 1 << 20);
    }

    /** Over a body that may still be arriving: reads only what {@code arrival} says is there. */
    ByteTokens(byte[] body, KubeCodec.Limits limits, Fallback fallback, Arrival arrival, int window) {
        this(body, limits, fallback, new ArrivalWindow(arrival, body.length, window));
    }

    private ByteTokens(byte[] body, KubeCodec.Limits limits, Fallback fallback, ArrivalWindow arrival) {
        super(body, limits, arrival.first());
        this.arrival = arrival;
        this.objectAt = new boolean[Math.max(2, maxDepth + 1)];
        this.fallback = fallback;
        this.strings = new StringTable(slots);
        this.keySlots = Math.min(KEY_SLOTS, slots);
        this.keys = new StringTable(keySlots);
        this.memo = new RepeatMemo(body.length, FieldReader.SITES);
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

    /** As {@link Tokens#nextField()}, with the colon read here rather than by a second pass through the state switch. */
    @Override
    String nextField() {
        if (nextToken() != JsonToken.FIELD_NAME) {
            return null;
        }
        int c = whitespace();
        if (c != ':') {
            throw bail();
        }
        pos++;
        value(whitespace());
        return name;
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
            end = arrival.ahead(pos);
        }
    }

    /** Waits for the whole body. */
    private void whole() {
        if (end < b.length) {
            end = arrival.whole();
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

    private void literal(byte[] word) {
        pos = skipLiteral(pos, word);
        state = AFTER_VALUE;
    }

    private JsonToken number() {
        boolean fraction = scanNumber();
        state = AFTER_VALUE;
        return token = fraction ? JsonToken.VALUE_NUMBER_FLOAT : JsonToken.VALUE_NUMBER_INT;
    }

    /** Scans the string whose opening quote is at {@code pos}; sets start/stop/escaped/ascii and moves past it. */
    private void string() {
        pos = scan(pos);
    }

    // ------------------------------------------------------------ field names

    private JsonToken name(int c) {
        if (c != '"') {
            throw bail();
        }
        final byte[] b = this.b;
        int from = pos + 1;
        int i = Words.plain(b, from, end);
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
        int h = Words.hash(b, from, len);
        String known = FieldNames.find(b, from, len, h);
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
        if (nameLength > MAX_SHARED_LENGTH) {
            return decoded();
        }
        int slot = nameHash & (keySlots - 1);
        String s = keys.find(slot, b, nameFrom, nameLength);
        if (s == null) {
            s = decoded();
            keys.put(slot, b, nameFrom, nameLength, s);
        }
        return s;
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

    @Override
    String sharedText() {
        if (token != JsonToken.VALUE_STRING) {
            throw bail();
        }
        return shared();
    }

    /**
     * The current string, shared within the request through {@link #strings}, so a repeat allocates nothing. Sets
     * {@link #lastSlot} (-1: not tabled).
     */
    private String shared() {
        int len = stop - start;
        if (len > MAX_SHARED_LENGTH || escaped) {
            lastSlot = -1;
            return decoded();
        }
        return shared(Words.hash(b, start, len));
    }

    /** {@link #shared()} of an unescaped string of up to MAX_SHARED_LENGTH bytes, {@code h} its {@link Words#hash}. */
    private String shared(int h) {
        int slot = h & (slots - 1);
        lastSlot = slot;
        int len = stop - start;
        String s = strings.find(slot, b, start, len);
        return s != null ? s : tabled(slot, len);
    }

    /**
     * A string not in the table (new, or displaced): decoded and put in {@code slot}. Apart from {@link #shared(int)},
     * which stays small enough to inline into the token reads that call it.
     */
    private String tabled(int slot, int len) {
        String s = decoded();
        strings.put(slot, b, start, len, s);
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

    /**
     * The value at this site read before from the same bytes at the same depth: the site's last value when the bytes
     * repeat it, else found by the bytes from the value's first token to its end (a structural scan, strings and
     * brackets only: the bytes are checked by the comparison).
     */
    @Override
    Object recall(int site) {
        if (!memo.trying(site)) {
            return null;
        }
        int from = valueStart;
        int d = depth;
        int to;
        Object v = memo.repeat(site, b, from, end, d);
        if (v != null) {
            to = from + memo.lastLength(site);
        } else {
            to = RepeatMemo.valueEnd(b, from, end);
            v = memo.find(site, b, from, to, d);
        }
        if (v != null) {
            pos = to;
            token = objectAt[d] ? JsonToken.END_OBJECT : JsonToken.END_ARRAY;
            depth = d - 1;
            state = AFTER_VALUE;
        }
        return v;
    }

    @Override
    void remember(int site, Object value) {
        memo.remember(site, value, pos);
    }

    /** Recalls that found a value, per site (for tests and benchmarks). */
    int[] recalls() {
        return memo.hits();
    }

    /** Recalls that found none, per site. */
    int[] misses() {
        return memo.misses();
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
}
