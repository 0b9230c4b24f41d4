package dev.muster.adapter.kube;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;

/**
 * Where the streaming decoders ({@link StreamingDecoders.Reader}) take their tokens from: Jackson's parser
 * ({@link JacksonTokens}, databind behind every unusual token) or {@link ByteTokens} (the fast path, which bails out
 * on every unusual token). The names follow {@link JsonParser}'s, so the decoders read the same either way.
 */
abstract class Tokens {
    /** Slots of the per-request table of shared strings (and the decoders' quantities, by the same slot). */
    final int slots;

    Tokens(int slots) {
        this.slots = slots;
    }

    /** Table slots for a body of {@code length} bytes: a power of two from 64 to 16,384, one per 32 bytes. */
    static int slots(long length) {
        return Integer.highestOneBit((int) Math.max(64, Math.min(1 << 14, length >> 5)));
    }

    /** The slot of the last {@link #sharedText()} (-1: too long to share). */
    int lastSlot;

    abstract JsonToken nextToken() throws IOException;

    abstract JsonToken currentToken();

    /**
     * Moves past the current value to the next field of the object being read and on to that field's value: the
     * field's name ({@link #currentName()}), the current token its value's first; null after the object's last field
     * (the current token its END_OBJECT). What a record reader does once per field, as one call.
     */
    String nextField() throws IOException {
        if (nextToken() != JsonToken.FIELD_NAME) {
            return null;
        }
        String f = currentName();
        nextToken();
        return f;
    }

    /**
     * The current field name, for switching on: the byte path answers a name no decoder field has with a
     * placeholder (see {@link #currentKey()}).
     */
    abstract String currentName() throws IOException;

    /** The current field name as a map key: always the name itself. */
    String currentKey() throws IOException {
        return currentName();
    }

    abstract void skipChildren() throws IOException;

    /** The current string (or number) token's text, a new String. */
    abstract String getText() throws IOException;

    /** The current VALUE_STRING, shared within the request; sets {@link #lastSlot}. */
    abstract String sharedText() throws IOException;

    abstract JsonParser.NumberType getNumberType() throws IOException;

    abstract int getIntValue() throws IOException;

    abstract long getLongValue() throws IOException;

    /** What databind's property {@code f} of record {@code r} makes of the current token (and what it spans). */
    abstract Object field(Class<?> r, String f) throws IOException;

    /** What databind makes of the current token as a {@code type} (and what it spans). */
    abstract Object value(Class<?> type) throws IOException;

    /** What databind's {@code Nulls.FAIL} content provider throws for a null element or map value. */
    abstract IOException contentNull(String field, Class<?> type);

    /**
     * With the current token a START_OBJECT or START_ARRAY: the value read at {@code site} before from the same
     * bytes at the same depth, the tokens then moved past it; or null (Jackson: always null).
     */
    Object recall(int site) {
        return null;
    }

    /** After a recall that found nothing and the value's last token: offers {@code value} for later recalls. */
    void remember(int site, Object value) {
    }

    /** Before a node or pod of the byte path: waits for bytes still arriving (Jackson: nothing). */
    void ahead() {
    }

    /** Where a node or pod begins, for {@link #reread}. */
    Object mark() {
        return null;
    }

    /** Whether to read the node or pod begun at {@code mark} again after a bail-out (bytes were missing). */
    boolean reread(Object mark) {
        return false;
    }
}
