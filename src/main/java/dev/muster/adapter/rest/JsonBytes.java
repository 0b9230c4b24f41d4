package dev.muster.adapter.rest;

import com.fasterxml.jackson.core.SerializableString;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.vertx.core.buffer.Buffer;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The few calls of Jackson's {@code JsonGenerator} the answer writers make, writing the same UTF-8 bytes into chunks
 * of its own: structure with commas and colons, pre-encoded field names, longs and booleans, {@code null}, raw JSON
 * values, and strings escaped as Jackson escapes them: {@code "} and {@code \} and the control characters
 * ({@code \b \t \n \f \r} short, the others <code>&#92;u00XX</code> in upper-case hex), each surrogate, paired or
 * not, as <code>&#92;uXXXX</code>, everything else as UTF-8.
 * <p>
 * Why not Jackson itself: a decision answer for 10,000 plain pods is about 8 MB of mostly short ASCII strings, and
 * the generator's per-call bookkeeping (its write context, character buffer and escape checks per character) took
 * about 3 of the 19 ms writing it took; here a string of plain ASCII is one pass copying bytes. The writers are
 * tested byte for byte against Jackson serializing the response records.
 * <p>
 * No structure is checked: the writers call these in a valid order (the tests compare what they write with
 * Jackson's bytes for the same records).
 */
final class JsonBytes {
    /** The first chunk's size; each next one doubles, up to {@link #MAX_CHUNK}. */
    private static final int FIRST_CHUNK = 8 * 1024;
    private static final int MAX_CHUNK = 1024 * 1024;
    private static final byte[] HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NULL = "null".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] TRUE = "true".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] FALSE = "false".getBytes(StandardCharsets.US_ASCII);
    /** Per ASCII character: 0 written as it is, -1 as <code>&#92;u00XX</code>, else the letter after a backslash. */
    private static final byte[] ESCAPES = new byte[128];

    static {
        for (int c = 0; c < 0x20; c++) {
            ESCAPES[c] = -1;
        }
        ESCAPES['\b'] = 'b';
        ESCAPES['\t'] = 't';
        ESCAPES['\n'] = 'n';
        ESCAPES['\f'] = 'f';
        ESCAPES['\r'] = 'r';
        ESCAPES['"'] = '"';
        ESCAPES['\\'] = '\\';
    }

    /** Chunks filled before the current one, and how much of each is written. */
    private final List<byte[]> full = new ArrayList<>();
    private final List<Integer> fullLengths = new ArrayList<>();
    private int fullBytes;
    private byte[] chunk = new byte[FIRST_CHUNK];
    private int pos;
    /** Whether the next field or value of the current object or array follows another (a comma first). */
    private boolean comma;

    void writeStartObject() {
        open((byte) '{');
    }

    void writeEndObject() {
        close((byte) '}');
    }

    void writeStartArray() {
        open((byte) '[');
    }

    void writeEndArray() {
        close((byte) ']');
    }

    /** A field name Jackson has encoded once ({@code asQuotedUTF8}: escaped, without quotes). */
    void writeFieldName(SerializableString name) {
        byte[] quoted = name.asQuotedUTF8();
        room(quoted.length + 4);
        if (comma) {
            chunk[pos++] = ',';
        }
        chunk[pos++] = '"';
        System.arraycopy(quoted, 0, chunk, pos, quoted.length);
        pos += quoted.length;
        chunk[pos++] = '"';
        chunk[pos++] = ':';
        comma = false;
    }

    void writeFieldName(String name) {
        if (comma) {
            one((byte) ',');
        }
        quoted(name);
        one((byte) ':');
        comma = false;
    }

    void writeString(String s) {
        if (comma) {
            one((byte) ',');
        }
        quoted(s);
        comma = true;
    }

    void writeNumber(long v) {
        value(Long.toString(v).getBytes(StandardCharsets.US_ASCII));
    }

    void writeBoolean(boolean v) {
        value(v ? TRUE : FALSE);
    }

    void writeNull() {
        value(NULL);
    }

    /** A value that is JSON text already, written as it is. */
    void writeRawValue(String json) {
        value(json.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Everything written, as the chunks it was written into (no copy into one array: a decision's answer for 10,000
     * pods is about 8 MB, copied once more by the socket's write anyway).
     */
    Buffer toBuffer() {
        ByteBuf[] parts = new ByteBuf[full.size() + 1];
        for (int i = 0; i < full.size(); i++) {
            parts[i] = Unpooled.wrappedBuffer(full.get(i), 0, fullLengths.get(i));
        }
        parts[full.size()] = Unpooled.wrappedBuffer(chunk, 0, pos);
        return Buffer.buffer(parts.length == 1 ? parts[0] : Unpooled.wrappedBuffer(parts.length, parts));
    }

    /** Everything written, in one array. */
    byte[] toByteArray() {
        byte[] out = new byte[fullBytes + pos];
        int at = 0;
        for (int i = 0; i < full.size(); i++) {
            int n = fullLengths.get(i);
            System.arraycopy(full.get(i), 0, out, at, n);
            at += n;
        }
        System.arraycopy(chunk, 0, out, at, pos);
        return out;
    }

    private void open(byte b) {
        room(2);
        if (comma) {
            chunk[pos++] = ',';
        }
        chunk[pos++] = b;
        comma = false;
    }

    private void close(byte b) {
        one(b);
        comma = true;
    }

    private void value(byte[] bytes) {
        room(bytes.length + 1);
        if (comma) {
            chunk[pos++] = ',';
        }
        System.arraycopy(bytes, 0, chunk, pos, bytes.length);
        pos += bytes.length;
        comma = true;
    }

    private void one(byte b) {
        room(1);
        chunk[pos++] = b;
    }

    /** {@code "s"}, escaped: plain ASCII copied as it is, the rest from the first character that is not. */
    private void quoted(String s) {
        int n = s.length();
        room(n + 2);
        byte[] c = chunk;
        int p = pos;
        c[p++] = '"';
        for (int i = 0; i < n; i++) {
            char ch = s.charAt(i);
            if (ch >= 0x80 || ESCAPES[ch] != 0) {
                pos = p;
                escaped(s, i);
                one((byte) '"');
                return;
            }
            c[p++] = (byte) ch;
        }
        c[p++] = '"';
        pos = p;
    }

    /** {@code s} from {@code from} on, each character as Jackson writes it in a string. */
    private void escaped(String s, int from) {
        for (int i = from, n = s.length(); i < n; i++) {
            char ch = s.charAt(i);
            room(6);
            if (ch < 0x80) {
                byte e = ESCAPES[ch];
                if (e == 0) {
                    chunk[pos++] = (byte) ch;
                } else if (e > 0) {
                    chunk[pos++] = '\\';
                    chunk[pos++] = e;
                } else {
                    unicodeEscape(ch);
                }
            } else if (ch < 0x800) {
                chunk[pos++] = (byte) (0xC0 | (ch >> 6));
                chunk[pos++] = (byte) (0x80 | (ch & 0x3F));
            } else if (Character.isSurrogate(ch)) {
                unicodeEscape(ch); // as Jackson writes both halves of a pair, and a lone one
            } else {
                chunk[pos++] = (byte) (0xE0 | (ch >> 12));
                chunk[pos++] = (byte) (0x80 | ((ch >> 6) & 0x3F));
                chunk[pos++] = (byte) (0x80 | (ch & 0x3F));
            }
        }
    }

    private void unicodeEscape(char ch) {
        chunk[pos++] = '\\';
        chunk[pos++] = 'u';
        chunk[pos++] = HEX[(ch >> 12) & 0xF];
        chunk[pos++] = HEX[(ch >> 8) & 0xF];
        chunk[pos++] = HEX[(ch >> 4) & 0xF];
        chunk[pos++] = HEX[ch & 0xF];
    }

    /** Room for {@code bytes} more in the current chunk: a new one when they do not fit (the current one kept with what it holds). */
    private void room(int bytes) {
        if (pos + bytes <= chunk.length) {
            return;
        }
        full.add(chunk);
        fullLengths.add(pos);
        fullBytes += pos;
        chunk = new byte[Math.max(bytes, Math.min(MAX_CHUNK, chunk.length * 2))];
        pos = 0;
    }
}
