package dev.muster.adapter.kube;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.PropertyName;
import com.fasterxml.jackson.databind.deser.BeanDeserializerBase;
import com.fasterxml.jackson.databind.deser.SettableBeanProperty;
import com.fasterxml.jackson.databind.exc.InvalidNullException;

import java.io.IOException;
import java.util.Arrays;

/** Tokens from Jackson's parser, with databind's own deserializers for everything unusual. */
final class JacksonTokens extends Tokens {
    private static final int MAX_SHARED_LENGTH = 64;

    final DeserializationContext ctxt;
    JsonParser parser;
    private final String[] strings = new String[slots];
    private final char[][] keys = new char[slots][];

    /** {@code slots}: {@link Tokens#slots} of the body's length (a power of two). */
    JacksonTokens(JsonParser parser, DeserializationContext ctxt, int slots) {
        super(slots);
        this.parser = parser;
        this.ctxt = ctxt;
    }

    @Override
    JsonToken nextToken() throws IOException {
        return parser.nextToken();
    }

    @Override
    JsonToken currentToken() {
        return parser.currentToken();
    }

    @Override
    String currentName() throws IOException {
        return parser.currentName();
    }

    @Override
    void skipChildren() throws IOException {
        parser.skipChildren();
    }

    @Override
    String getText() throws IOException {
        return parser.getText();
    }

    @Override
    JsonParser.NumberType getNumberType() throws IOException {
        return parser.getNumberType();
    }

    @Override
    int getIntValue() throws IOException {
        return parser.getIntValue();
    }

    @Override
    long getLongValue() throws IOException {
        return parser.getLongValue();
    }

    /**
     * Looked up by its characters in a direct-mapped table (a slot keeps the last string that hashed to it), so a
     * repeat allocates nothing.
     */
    @Override
    String sharedText() throws IOException {
        JsonParser p = parser;
        char[] buf = p.getTextCharacters();
        int off = p.getTextOffset();
        int len = p.getTextLength();
        if (len > MAX_SHARED_LENGTH) {
            lastSlot = -1;
            return new String(buf, off, len);
        }
        // hash of the length, the first and the last four characters: cheap, and enough to spread the values
        // that repeat (names, zones, quantities differ mostly at one end)
        int h = len;
        int end = off + len;
        for (int i = off, stop = Math.min(end, off + 4); i < stop; i++) {
            h = 31 * h + buf[i];
        }
        for (int i = Math.max(off + 4, end - 4); i < end; i++) {
            h = 31 * h + buf[i];
        }
        h *= 0x9E3779B9;
        int slot = (h ^ (h >>> 16)) & (slots - 1);
        lastSlot = slot;
        char[] k = keys[slot];
        if (k != null && Arrays.equals(k, 0, k.length, buf, off, end)) {
            return strings[slot];
        }
        String s = new String(buf, off, len);
        keys[slot] = Arrays.copyOfRange(buf, off, end);
        strings[slot] = s;
        return s;
    }

    @Override
    Object field(Class<?> r, String f) throws IOException {
        JsonDeserializer<?> d = ctxt.findRootValueDeserializer(ctxt.constructType(r));
        if (d instanceof StreamingDecoders.Top top) {
            d = top.getDelegatee();
        }
        SettableBeanProperty prop = d instanceof BeanDeserializerBase b ? b.findProperty(f) : null;
        if (prop == null) {
            throw new IllegalStateException("no databind property " + r.getSimpleName() + "." + f);
        }
        return prop.deserialize(parser, ctxt);
    }

    @Override
    Object value(Class<?> type) throws IOException {
        return ctxt.findRootValueDeserializer(ctxt.constructType(type)).deserialize(parser, ctxt);
    }

    @Override
    IOException contentNull(String field, Class<?> type) {
        return InvalidNullException.from(ctxt, PropertyName.construct(field), ctxt.constructType(type));
    }
}
