package dev.muster.adapter.rest;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link JsonBytes} writes what Jackson's generator, as {@link DecisionResource#WRITER} makes it, writes for the same
 * calls: random documents of nested objects and arrays whose strings and field names mix plain ASCII, every control
 * character, quotes and backslashes, Latin-1, other BMP characters, surrogate pairs and lone surrogates; long enough
 * to cross chunks.
 */
class JsonBytesTest {
    /** One call, made on both writers. */
    private interface Call {
        void on(JsonGenerator g) throws IOException;

        void on(JsonBytes b);
    }

    @Test
    @DisplayName("random documents: the bytes Jackson writes")
    void sameBytesAsJackson() throws IOException {
        for (long seed = 1; seed <= 300; seed++) {
            Random r = new Random(seed);
            List<Call> calls = new ArrayList<>();
            document(r, calls, seed % 10 == 0 ? 20_000 : 40);
            byte[] jackson = jackson(calls);
            JsonBytes b = new JsonBytes();
            calls.forEach(c -> c.on(b));
            byte[] ours = b.toByteArray();
            assertThat(new String(ours, StandardCharsets.UTF_8)).as("seed %d", seed)
                    .isEqualTo(new String(jackson, StandardCharsets.UTF_8));
            assertThat(ours).as("seed %d", seed).isEqualTo(jackson);
            // the answer as sent: its chunks, unjoined (a 20,000-value document spans several)
            assertThat(b.toBuffer().getBytes()).as("seed %d as chunks", seed).isEqualTo(jackson);
        }
    }

    @Test
    @DisplayName("escapes: the short ones, \\u00XX for other controls, \\uXXXX for each surrogate, UTF-8 for the rest")
    void escapes() {
        JsonBytes b = new JsonBytes();
        b.writeStartArray();
        b.writeString("a\"b\\c\b\t\n\f\r\u0001\u001f\u007f é€\ud83d\ude80\udc00");
        b.writeNumber(-42);
        b.writeBoolean(true);
        b.writeNull();
        b.writeRawValue("{\"k\":[1,2]}");
        b.writeStartObject();
        b.writeFieldName(new SerializedString("name"));
        b.writeString("");
        b.writeFieldName("x\ny");
        b.writeStartArray();
        b.writeEndArray();
        b.writeEndObject();
        b.writeEndArray();
        assertThat(new String(b.toByteArray(), StandardCharsets.UTF_8)).isEqualTo(
                "[\"a\\\"b\\\\c\\b\\t\\n\\f\\r\\u0001\\u001F\u007f é€\\uD83D\\uDE80\\uDC00\",-42,true,null,"
                        + "{\"k\":[1,2]},{\"name\":\"\",\"x\\ny\":[]}]");
    }

    private static byte[] jackson(List<Call> calls) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonGenerator g = DecisionResource.WRITER.createGenerator(out, JsonEncoding.UTF8)) {
            for (Call c : calls) {
                c.on(g);
            }
        }
        return out.toByteArray();
    }

    /** An object of up to {@code size} fields, each a value, an array or an object, nested a few deep. */
    private static void document(Random r, List<Call> calls, int size) {
        calls.add(call(JsonGenerator::writeStartObject, JsonBytes::writeStartObject));
        int fields = 1 + r.nextInt(size);
        for (int i = 0; i < fields; i++) {
            field(r, calls);
            value(r, calls, 3);
        }
        calls.add(call(JsonGenerator::writeEndObject, JsonBytes::writeEndObject));
    }

    private static void field(Random r, List<Call> calls) {
        if (r.nextBoolean()) {
            SerializedString name = new SerializedString(ascii(r)); // the writers' names are constants, ASCII
            calls.add(call(g -> g.writeFieldName(name), b -> b.writeFieldName(name)));
        } else {
            String name = text(r);
            calls.add(call(g -> g.writeFieldName(name), b -> b.writeFieldName(name)));
        }
    }

    private static void value(Random r, List<Call> calls, int depth) {
        switch (r.nextInt(depth > 0 ? 8 : 6)) {
            case 0, 1 -> {
                String s = text(r);
                calls.add(call(g -> g.writeString(s), b -> b.writeString(s)));
            }
            case 2 -> {
                long v = r.nextInt(4) == 0 ? r.nextLong() : r.nextInt(1000) - 500;
                calls.add(call(g -> g.writeNumber(v), b -> b.writeNumber(v)));
            }
            case 3 -> {
                boolean v = r.nextBoolean();
                calls.add(call(g -> g.writeBoolean(v), b -> b.writeBoolean(v)));
            }
            case 4 -> calls.add(call(JsonGenerator::writeNull, JsonBytes::writeNull));
            case 5 -> {
                String raw = "{\"p\":[" + r.nextInt(100) + ",\"é\"]}";
                calls.add(call(g -> g.writeRawValue(raw), b -> b.writeRawValue(raw)));
            }
            case 6 -> {
                calls.add(call(JsonGenerator::writeStartArray, JsonBytes::writeStartArray));
                for (int i = r.nextInt(5); i > 0; i--) {
                    value(r, calls, depth - 1);
                }
                calls.add(call(JsonGenerator::writeEndArray, JsonBytes::writeEndArray));
            }
            default -> {
                calls.add(call(JsonGenerator::writeStartObject, JsonBytes::writeStartObject));
                for (int i = r.nextInt(5); i > 0; i--) {
                    field(r, calls);
                    value(r, calls, depth - 1);
                }
                calls.add(call(JsonGenerator::writeEndObject, JsonBytes::writeEndObject));
            }
        }
    }

    private static String ascii(Random r) {
        StringBuilder sb = new StringBuilder();
        for (int i = r.nextInt(20); i > 0; i--) {
            sb.append((char) (0x20 + r.nextInt(0x5f)));
        }
        return sb.toString();
    }

    /** Mostly plain ASCII, as answers are; sometimes long, sometimes every kind of character. */
    private static String text(Random r) {
        int len = r.nextInt(10) == 0 ? r.nextInt(3000) : r.nextInt(30);
        StringBuilder sb = new StringBuilder(len);
        boolean mixed = r.nextInt(3) == 0;
        for (int i = 0; i < len; i++) {
            if (!mixed) {
                sb.append((char) (0x20 + r.nextInt(0x5f)));
                continue;
            }
            switch (r.nextInt(7)) {
                case 0 -> sb.append((char) r.nextInt(0x20));
                case 1 -> sb.append(r.nextBoolean() ? '"' : '\\');
                case 2 -> sb.append((char) (0x80 + r.nextInt(0x780)));
                case 3 -> sb.append((char) (0x800 + r.nextInt(0xd000)));
                case 4 -> sb.appendCodePoint(0x10000 + r.nextInt(0xfffff));
                case 5 -> sb.append((char) (0xd800 + r.nextInt(0x800))); // a lone surrogate
                default -> sb.append((char) (0x20 + r.nextInt(0x60)));
            }
        }
        return sb.toString();
    }

    @FunctionalInterface
    private interface GeneratorCall {
        void on(JsonGenerator g) throws IOException;
    }

    private static Call call(GeneratorCall g, java.util.function.Consumer<JsonBytes> b) {
        return new Call() {
            @Override
            public void on(JsonGenerator gen) throws IOException {
                g.on(gen);
            }

            @Override
            public void on(JsonBytes bytes) {
                b.accept(bytes);
            }
        };
    }
}
