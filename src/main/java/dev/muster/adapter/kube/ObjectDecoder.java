package dev.muster.adapter.kube;

import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * Reads one record type from its JSON object: {@link #read} is the field loop every record shares (an unknown field
 * is skipped, a failure gets the field's path step as databind's {@code BeanDeserializer} adds it) around
 * {@link #field}, which each record's decoder implements as a switch on the name.
 *
 * <p>A decoder keeps the fields of the object being read in its own instance fields: one instance per record type and
 * request, reused from object to object, so the loop allocates nothing. No record contains its own type, so no
 * decoder is re-entered while it reads; {@link #reset} clears what a previous (or abandoned) object left.
 *
 * @param <T> the record
 */
abstract class ObjectDecoder<T> {
    final Values in;
    private final Class<?> record;

    ObjectDecoder(Values in, Class<?> record) {
        this.in = in;
        this.record = record;
    }

    /** Clears the fields before an object. */
    abstract void reset();

    /**
     * Reads field {@code f}, whose first token {@code v} has just been read, to its last token; false if the record
     * has no field {@code f} (its value is then skipped).
     */
    abstract boolean field(String f, JsonToken v) throws IOException;

    /** The record of the fields read. */
    abstract T build();

    /**
     * The object whose START_OBJECT is the current token; or, for a Node or Pod handed over by databind, whose first
     * field name (or END_OBJECT) is.
     */
    final T read() throws IOException {
        reset();
        Tokens p = in.p;
        JsonToken t = p.currentToken();
        for (t = t == JsonToken.START_OBJECT ? p.nextToken() : t; t == JsonToken.FIELD_NAME; t = p.nextToken()) {
            String f = p.currentName();
            JsonToken v = p.nextToken();
            boolean known;
            try {
                known = field(f, v);
            } catch (Exception e) {
                throw Values.wrap(e, record, f);
            }
            if (!known) {
                p.skipChildren(); // outside the path wrapping, as databind skips unknown properties
            }
        }
        return build();
    }

    // ------------------------------------------------------------ field values, for this record

    final String string(JsonToken v, String f) throws IOException {
        return in.string(v, f, record);
    }

    final String shared(JsonToken v, String f) throws IOException {
        return in.shared(v, f, record);
    }

    final Integer integer(JsonToken v, String f) throws IOException {
        return in.integer(v, f, record);
    }

    final Long longValue(JsonToken v, String f) throws IOException {
        return in.longValue(v, f, record);
    }

    final Boolean bool(JsonToken v, String f) throws IOException {
        return in.bool(v, f, record);
    }

    final Map<String, String> stringMap(JsonToken v, String f) throws IOException {
        return in.stringMap(v, f, record);
    }

    final Map<String, Qty> qtyMap(JsonToken v, String f) throws IOException {
        return in.qtyMap(v, f, record);
    }

    final List<String> strings(JsonToken v, String f) throws IOException {
        return in.strings(v, f, record);
    }

    /** A list of a type not streamed here: each element through databind. */
    final <U> List<U> list(JsonToken v, String f, Class<U> type) throws IOException {
        return in.list(v, f, type, record);
    }

    /** A field holding an object read by {@code d}; any other token as {@link Values#other}. */
    final <U> U object(JsonToken v, String f, ObjectDecoder<U> d) throws IOException {
        return v == JsonToken.START_OBJECT ? d.read() : in.other(v, f, record);
    }

    /** A field holding a list of objects of {@code type}, each read by {@code d}. */
    final <U> List<U> objects(JsonToken v, String f, Class<U> type, int capacity, ObjectDecoder<U> d)
            throws IOException {
        return in.objects(v, f, record, type, capacity, d);
    }

    final <U> U other(JsonToken v, String f) throws IOException {
        return in.other(v, f, record);
    }
}
