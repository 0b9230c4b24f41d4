package dev.muster.adapter.kube;

import com.fasterxml.jackson.core.StreamReadConstraints;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The lexical grammar of JSON over a request body's bytes, checked strictly for {@link ByteTokens}: whitespace,
 * strings (escapes, strict UTF-8, no controls, the length limit), numbers, literals, and whole values skipped by a
 * validating recursive descent that keeps no token state. Whatever it does not accept throws {@link Bail}.
 *
 * <p>Results go to fields rather than objects, for the hot path: {@link #scan} sets {@link #start}, {@link #stop},
 * {@link #escaped} and {@link #ascii} to a string's content; {@link #scanNumber} sets them and {@link #number} for a
 * number.
 */
abstract class ByteLexer extends Tokens {

    /** Leave the fast path: the caller decodes with Jackson instead. No stack trace; one instance. */
    static final class Bail extends RuntimeException {
        static final Bail INSTANCE = new Bail();

        private Bail() {
            super("outside the fast path", null, false, false);
        }
    }

    /** What may follow the last byte of a number or literal: whitespace, a comma, a closing bracket. */
    private static final boolean[] DELIMITER = new boolean[256];
    /** Bytes a string's fast loop must stop at: the quote, the backslash, controls and every non-ASCII byte. */
    static final boolean[] STRING_STOP = new boolean[256];

    static {
        for (char c : new char[]{' ', '\t', '\n', '\r', ',', ']', '}'}) {
            DELIMITER[c] = true;
        }
        for (int i = 0; i < 256; i++) {
            STRING_STOP[i] = i < 0x20 || i >= 0x80 || i == '"' || i == '\\';
        }
    }

    static final byte[] TRUE = "true".getBytes(StandardCharsets.US_ASCII);
    static final byte[] FALSE = "false".getBytes(StandardCharsets.US_ASCII);
    static final byte[] NULL = "null".getBytes(StandardCharsets.US_ASCII);

    final byte[] b;
    /** Bytes that may be read: the body's length, or less while the rest is in flight. */
    int end;
    final int maxDepth;
    final int maxStringLength;
    private final int maxNumberLength;
    final int maxNameLength = StreamReadConstraints.defaults().getMaxNameLength();

    /** The next byte to read. */
    int pos;
    /** Content of the current string (inside the quotes), or the text of the current number. */
    int start;
    int stop;
    boolean escaped;
    boolean ascii;
    /** The current integer's value (integers of up to 18 digits). */
    long number;

    ByteLexer(byte[] body, KubeCodec.Limits limits, int end) {
        super(Tokens.slots(body.length));
        this.b = body;
        this.end = end;
        this.maxDepth = limits.maxNestingDepth();
        this.maxStringLength = limits.maxStringLength();
        this.maxNumberLength = limits.maxNumberLength();
    }

    static Bail bail() {
        throw Bail.INSTANCE;
    }

    // ------------------------------------------------------------ skipping whole values

    /** The members of an object whose '{' is before {@code i}, at depth {@code d}: returns the index after its '}'. */
    final int skipObject(int i, int d) {
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
    final int skipArray(int i, int d) {
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
    final int skipValue(int i, int d) {
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
                    scanNumber(); // sets the number fields: harmless, the caller restores what it reads
                    return pos;
                }
                throw bail();
            }
        }
    }

    final int skipLiteral(int i, byte[] word) {
        int e = i + word.length;
        if (e > end || !Arrays.equals(b, i, e, word, 0, word.length) || e < end && !DELIMITER[b[e] & 0xFF]) {
            throw bail();
        }
        return e;
    }

    final int skipSpace(int i) {
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
    final int whitespace() {
        int i = skipSpace(pos);
        pos = i;
        return i < end ? b[i] & 0xFF : -1;
    }

    /**
     * RFC 8259 number grammar from {@code pos}: sets start/stop to its text, {@link #number} to its value for
     * integers of up to 18 digits (longer ones bail: Jackson reads them), moves past it; whether it has a fraction or
     * an exponent.
     */
    final boolean scanNumber() {
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
        number = negative ? -v : v;
        return fraction;
    }

    final int digits(int i) {
        int from = i;
        while (i < end && b[i] >= '0' && b[i] <= '9') {
            i++;
        }
        if (i == from) {
            throw bail();
        }
        return i;
    }

    // ------------------------------------------------------------ strings

    /**
     * Checks the string whose opening quote is at {@code quote} (escapes, strict UTF-8, no controls, the length
     * limit), sets start/stop/escaped/ascii to its content and returns the index after its closing quote.
     */
    final int scan(int quote) {
        final byte[] b = this.b;
        final int end = this.end;
        int i = quote + 1;
        start = i;
        boolean esc = false;
        boolean asc = true;
        while (true) {
            i = Words.plain(b, i, end);
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

    /** Checks the escape at {@code i} (a backslash); returns the index after it. */
    final int escape(int i) {
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

    static int hex(int c) {
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
    final int utf8(int i, int c0) {
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

    /** Whether the string content in [from, to) has a {@code \\uD800}..{@code \\uDFFF} escape. */
    final boolean surrogateEscape(int from, int to) {
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
    final String decoded() {
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
}
