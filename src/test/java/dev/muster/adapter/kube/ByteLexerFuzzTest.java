package dev.muster.adapter.kube;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.core.JsonToken;

import java.util.Objects;

/**
 * Fuzz tests of the byte path ({@link ByteLexer}, {@link ByteTokens}). In the normal test run they replay their seed
 * inputs (src/test/resources/dev/muster/adapter/kube/ByteLexerFuzzTestInputs/&lt;method&gt;/); with
 * {@code JAZZER_FUZZ=1} they fuzz (docs/fuzzing.md).
 */
class ByteLexerFuzzTest {
    private static final KubeCodec CODEC = new KubeCodec(new KubeCodec.Limits(16, 4096, 32, 1 << 20));

    /**
     * Tokens over any bytes: the lexer either reads a whole well-formed document or bails; it never throws anything
     * else, and every token advances (no loop: each call consumes input or closes a level).
     */
    @FuzzTest
    void tokensEndOrBail(byte[] body) {
        if (body.length == 0) {
            return;
        }
        ByteTokens t = CODEC.tokens(body);
        try {
            int tokens = 0;
            for (JsonToken tok = t.nextToken(); ; tok = t.nextToken()) {
                Objects.requireNonNull(tok, "a token");
                if (tok == JsonToken.VALUE_STRING) {
                    t.getText();
                }
                if (tok == JsonToken.FIELD_NAME) {
                    t.currentKey();
                }
                if (++tokens > 2 * body.length + 2) {
                    throw new AssertionError("more tokens than bytes: the lexer does not advance");
                }
                if ((tok == JsonToken.END_OBJECT || tok == JsonToken.END_ARRAY || tok.isScalarValue())
                        && tokens > 0 && atEnd(t)) {
                    return;
                }
            }
        } catch (ByteLexer.Bail expected) {
            // outside the byte path's subset: Jackson's to read
        }
    }

    /** Whether the document's value is complete and only whitespace follows (else bails). */
    private static boolean atEnd(ByteTokens t) {
        try {
            t.expectEnd();
            return true;
        } catch (ByteLexer.Bail notYet) {
            return false;
        }
    }

    /**
     * The whole request on the byte path: when it accepts a body, the Jackson path accepts it too and decodes an equal
     * document; when it does not, the codec's answer is a document or a {@link DecodeException} (a 400), nothing
     * else.
     */
    @FuzzTest
    void bytePathAgreesWithJackson(byte[] body) throws Exception {
        RequestDocument fast = CODEC.readBytes(body);
        if (fast != null) {
            RequestDocument slow = CODEC.readJackson(body);
            if (!fast.equals(slow)) {
                throw new AssertionError("byte path and Jackson decode differently:\n" + fast + "\n" + slow);
            }
        }
        try {
            CODEC.readJson(body);
        } catch (DecodeException expected) {
            // a 400
        }
    }
}
