package dev.muster.adapter.kube;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonMappingException;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The fields and values every record decoder ({@link RecordReader}) reads, with the per-request state they share: the
 * tokens, the quantities by string-table slot, the last boxed numbers and the table of shared records and lists. One
 * per request (see {@link StreamingDecoders.Reader}), so nothing is shared between requests or threads.
 *
 * <p>{@link #first} and {@link #next} are the field loop of every record: {@code for (String f = in.first(); f !=
 * null; f = in.next())} with a switch on {@code f}, locals for the fields, and {@link #skip} for the others.
 *
 * <p>Every scalar takes a fast path only for the token it expects and a JSON {@code null} means "absent"; any other
 * token goes to databind for that field of that record ({@link Tokens#field}). A {@code null} inside a list or map
 * fails like databind's {@code Nulls.FAIL}. Failures get the same path steps databind adds (see {@link #wrap}).
 */
final class FieldReader {
    private static final int MAX_CANONICAL = 1 << 16;

    /** Sites of {@link Tokens#recall}: values that repeat byte for byte from object to object in real snapshots. */
    static final int TOLERATIONS = 0;
    static final int CONTAINERS = 1;
    static final int AFFINITY = 2;
    static final int NODE_QUANTITIES = 3;
    static final int TAINTS = 4;
    static final int DEVICE_ATTRIBUTES = 5;
    static final int DEVICE_CAPACITY = 6;
    /** One attribute of a device: recalled alone when the whole map is not (a GPU's uuid is its own). */
    static final int DEVICE_ATTRIBUTE = 7;
    /** The counters of one counter set a device consumes (a partition profile's, the same on every GPU). */
    static final int DEVICE_COUNTERS = 8;
    static final int SITES = 9;

    final Tokens p;
    private final Qty[] quantities;
    /** The last boxed numbers: a pod's numbers mostly repeat the previous pod's (300 s, port 8080). */
    private Integer lastInteger;
    private Long lastLong;
    /** The shared value records and lists of the request (see canonical). */
    private final HashMap<Object, Object> canonical = new HashMap<>();

    /** The first token of the current field's value. */
    private JsonToken value;

    /** The entries of the map being read (label, quantity and device maps never nest). */
    private final SmallMap.Builder entries = new SmallMap.Builder();

    FieldReader(Tokens p) {
        this.p = p;
        this.quantities = new Qty[p.slots];
    }

    // ------------------------------------------------------------ the fields of an object

    /**
     * Enters the object whose START_OBJECT is the current token (or, for a Node or Pod handed over by databind, whose
     * first field name or END_OBJECT is): its first field's name, the value's first token read ({@link #value});
     * null for an empty object.
     */
    String first() throws IOException {
        JsonToken t = p.currentToken();
        return t == JsonToken.START_OBJECT ? next() : field(t);
    }

    /** After the last token of a field's value: the next field's name, as {@link #first}; null at the object's end. */
    String next() throws IOException {
        String f = p.nextField();
        if (f != null) {
            value = p.currentToken();
        }
        return f;
    }

    private String field(JsonToken t) throws IOException {
        if (t != JsonToken.FIELD_NAME) {
            return null;
        }
        String f = p.currentName();
        value = p.nextToken();
        return f;
    }

    /** The first token of the value of the field {@link #first} or {@link #next} named. */
    JsonToken value() {
        return value;
    }

    /** Skips the value of a field the record does not have (outside the path wrapping, as databind does). */
    void skip() throws IOException {
        p.skipChildren();
    }

    // ------------------------------------------------------------ values that repeat

    /**
     * The value at this site read before from exactly the same bytes, or {@code read}'s (then offered for later).
     * Only the byte path recalls anything; with Jackson this is {@code read.read(v, f)}.
     */
    @SuppressWarnings("unchecked")
    <T> T recalled(int site, JsonToken v, String f, ValueBody<T> read) throws IOException {
        if (v != JsonToken.START_OBJECT && v != JsonToken.START_ARRAY) {
            return read.read(v, f);
        }
        Object seen = p.recall(site);
        if (seen != null) {
            return (T) seen;
        }
        T value = read.read(v, f);
        p.remember(site, value);
        return value;
    }

    /** Reads one object whose START_OBJECT is the current token. */
    @FunctionalInterface
    interface ObjectBody<T> {
        T read() throws IOException;
    }

    /** Reads the value of field {@code f} whose first token is {@code v}. */
    @FunctionalInterface
    interface ValueBody<T> {
        T read(JsonToken v, String f) throws IOException;
    }

    // ------------------------------------------------------------ collections

    Map<String, String> stringMap(JsonToken v, String field, Class<?> r) throws IOException {
        if (v != JsonToken.START_OBJECT) {
            return other(v, field, r);
        }
        entries.reset();
        for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
            String key = p.currentKey();
            JsonToken e = p.nextToken();
            try {
                String value;
                if (e == JsonToken.VALUE_STRING) {
                    value = p.sharedText();
                } else if (e == JsonToken.VALUE_NULL) {
                    throw p.contentNull(field, String.class);
                } else {
                    value = (String) p.value(String.class);
                }
                entries.put(key, value);
            } catch (Exception x) {
                throw wrapEntry(x, SmallMap.EMPTY, key);
            }
        }
        return entries.build();
    }

    Map<String, Qty> qtyMap(JsonToken v, String field, Class<?> r) throws IOException {
        if (v != JsonToken.START_OBJECT) {
            return other(v, field, r);
        }
        entries.reset();
        for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
            String key = p.currentKey();
            JsonToken e = p.nextToken();
            try {
                Qty value;
                if (e == JsonToken.VALUE_STRING || e == JsonToken.VALUE_NUMBER_INT) {
                    value = qty();
                } else if (e == JsonToken.VALUE_NULL) {
                    throw p.contentNull(field, Qty.class);
                } else {
                    value = (Qty) p.value(Qty.class);
                }
                entries.put(key, value);
            } catch (Exception x) {
                throw wrapEntry(x, SmallMap.EMPTY, key);
            }
        }
        return entries.build();
    }

    /**
     * A map of objects (a device's attributes or capacities): each object value read by {@code one}, any other value
     * through databind's deserializer for {@code type}, a null failing like {@code Nulls.FAIL}. The objects read must
     * not read maps themselves (the entries being collected are this reader's).
     */
    <T> Map<String, T> objectMap(JsonToken v, String field, Class<?> r, Class<T> type, ObjectBody<T> one)
            throws IOException {
        if (v != JsonToken.START_OBJECT) {
            return other(v, field, r);
        }
        entries.reset();
        for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
            String key = p.currentKey();
            JsonToken e = p.nextToken();
            try {
                Object value;
                if (e == JsonToken.START_OBJECT) {
                    value = one.read();
                } else if (e == JsonToken.VALUE_NULL) {
                    throw p.contentNull(field, type);
                } else {
                    value = p.value(type);
                }
                entries.put(key, value);
            } catch (Exception x) {
                throw wrapEntry(x, SmallMap.EMPTY, key);
            }
        }
        return entries.build();
    }

    List<String> strings(JsonToken v, String field, Class<?> r) throws IOException {
        if (v != JsonToken.START_ARRAY) {
            return other(v, field, r);
        }
        List<String> list = new ArrayList<>(2);
        try { // around nextToken too, as StringCollectionDeserializer does: a broken token names its index
            for (JsonToken e = p.nextToken(); e != JsonToken.END_ARRAY; e = p.nextToken()) {
                if (e == JsonToken.VALUE_STRING) {
                    list.add(p.sharedText());
                } else if (e == JsonToken.VALUE_NULL) {
                    throw p.contentNull(field, String.class);
                } else {
                    list.add((String) p.value(String.class));
                }
            }
        } catch (Exception x) {
            throw wrapElement(x, list, list.size());
        }
        return list;
    }

    /** A list of a type this class does not stream: each element through databind's deserializer for it. */
    <T> List<T> list(JsonToken v, String field, Class<T> type, Class<?> r) throws IOException {
        if (v != JsonToken.START_ARRAY) {
            return other(v, field, r);
        }
        List<T> list = new ArrayList<>(2);
        for (JsonToken e = p.nextToken(); e != JsonToken.END_ARRAY; e = p.nextToken()) {
            try {
                list.add(element(e, field, type));
            } catch (Exception x) {
                throw wrapElement(x, list, list.size());
            }
        }
        return list;
    }

    /** An element of a list, through databind: fails on null like {@code Nulls.FAIL}. */
    <T> T element(JsonToken e, String field, Class<T> type) throws IOException {
        if (e == JsonToken.VALUE_NULL) {
            throw p.contentNull(field, type);
        }
        return type.cast(p.value(type));
    }

    // ------------------------------------------------------------ scalars

    /** A field whose values rarely repeat (names, uids, timestamps): a new String. */
    String string(JsonToken v, String f, Class<?> r) throws IOException {
        if (v == JsonToken.VALUE_STRING) {
            return p.getText();
        }
        return v == JsonToken.VALUE_NULL ? null : (String) p.field(r, f);
    }

    /** A field whose values repeat across objects: shared within the request. */
    String shared(JsonToken v, String f, Class<?> r) throws IOException {
        if (v == JsonToken.VALUE_STRING) {
            return p.sharedText();
        }
        return v == JsonToken.VALUE_NULL ? null : (String) p.field(r, f);
    }

    Integer integer(JsonToken v, String f, Class<?> r) throws IOException {
        if (v == JsonToken.VALUE_NUMBER_INT && p.getNumberType() == JsonParser.NumberType.INT) {
            int i = p.getIntValue();
            Integer last = lastInteger;
            if (last != null && last == i) {
                return last;
            }
            return lastInteger = i;
        }
        return v == JsonToken.VALUE_NULL ? null : (Integer) p.field(r, f);
    }

    Long longValue(JsonToken v, String f, Class<?> r) throws IOException {
        if (v == JsonToken.VALUE_NUMBER_INT) {
            JsonParser.NumberType n = p.getNumberType();
            if (n == JsonParser.NumberType.INT || n == JsonParser.NumberType.LONG) {
                long l = p.getLongValue();
                Long last = lastLong;
                if (last != null && last == l) {
                    return last;
                }
                return lastLong = l;
            }
        }
        return v == JsonToken.VALUE_NULL ? null : (Long) p.field(r, f);
    }

    Boolean bool(JsonToken v, String f, Class<?> r) throws IOException {
        if (v == JsonToken.VALUE_TRUE) {
            return Boolean.TRUE;
        }
        if (v == JsonToken.VALUE_FALSE) {
            return Boolean.FALSE;
        }
        return v == JsonToken.VALUE_NULL ? null : (Boolean) p.field(r, f);
    }

    /**
     * An equal record read before, or this one (records are values: sharing equal ones is invisible). Most pods
     * carry the same default tolerations and sidecars; bounded, so distinct values cost at most a lookup.
     */
    @SuppressWarnings("unchecked")
    <T> T canonical(T r) {
        Object c = canonical.get(r);
        if (c != null) {
            return (T) c;
        }
        if (canonical.size() < MAX_CANONICAL) {
            canonical.put(r, r);
        }
        return r;
    }

    /** A list as handed out: unmodifiable, and the one equal list read before if there is one. */
    static <T> List<T> frozen(List<T> list) {
        return SmallList.copyOf(list);
    }

    /** A list whose equals recur from object to object (tolerations, containers, taints): shared. */
    <T> List<T> sharedList(List<T> list) {
        return list == null ? null : canonical(SmallList.copyOf(list));
    }

    /** The current string or integer token as a quantity; identical texts share one Qty within the request. */
    Qty qty() throws IOException {
        if (p.currentToken() != JsonToken.VALUE_STRING) {
            return new Qty(p.getText());
        }
        String s = p.sharedText();
        int slot = p.lastSlot;
        if (slot >= 0) {
            Qty q = quantities[slot];
            if (q != null && q.text() == s) {
                return q;
            }
            q = new Qty(s);
            quantities[slot] = q;
            return q;
        }
        return new Qty(s);
    }

    // ------------------------------------------------------------ databind for everything unusual

    /**
     * A field whose token is not the usual one: null (absent), or whatever databind's own property of that record
     * makes of it (a wrong-type failure, mostly), so every such case behaves and reads exactly as with databind.
     */
    @SuppressWarnings("unchecked")
    <T> T other(JsonToken v, String f, Class<?> r) throws IOException {
        return v == JsonToken.VALUE_NULL ? null : (T) p.field(r, f);
    }

    /**
     * A list of objects, each read by {@code one}; anything but an array (or null) goes to databind for field
     * {@code f} of {@code r}, a non-object element to {@link #element}, and failures get the element's index.
     */
    <T> List<T> objects(JsonToken v, String f, Class<?> r, Class<T> type, int capacity, ObjectBody<T> one)
            throws IOException {
        if (v != JsonToken.START_ARRAY) {
            return otherList(v, f, r);
        }
        List<T> list = new ArrayList<>(capacity);
        for (JsonToken e = p.nextToken(); e != JsonToken.END_ARRAY; e = p.nextToken()) {
            try {
                list.add(e == JsonToken.START_OBJECT ? one.read() : element(e, f, type));
            } catch (Exception x) {
                throw wrapElement(x, list, list.size());
            }
        }
        return list;
    }

    @SuppressWarnings("unchecked")
    <T> List<T> otherList(JsonToken v, String f, Class<?> r) throws IOException {
        return v == JsonToken.VALUE_NULL ? null : (List<T>) p.field(r, f);
    }

    /** A path step for a record field, as BeanDeserializerBase.wrapAndThrow adds it. */
    static JsonMappingException wrap(Throwable t, Class<?> record, String field) throws IOException {
        bailThrough(t);
        if (t instanceof IOException io && !(io instanceof JsonProcessingException)) {
            throw io;
        }
        throw JsonMappingException.wrapWithPath(t, record, field);
    }

    /** A path step for a list index, as CollectionDeserializer adds it (every exception). */
    static JsonMappingException wrapElement(Throwable t, List<?> list, int index) throws IOException {
        bailThrough(t);
        throw JsonMappingException.wrapWithPath(t, list, index);
    }

    /** A path step for a map key, as MapDeserializer (ContainerDeserializerBase.wrapAndThrow) adds it. */
    static JsonMappingException wrapEntry(Throwable t, Map<?, ?> map, String key) throws IOException {
        bailThrough(t);
        if (t instanceof IOException io && !(io instanceof JsonMappingException)) {
            throw io;
        }
        throw JsonMappingException.wrapWithPath(t, map, key);
    }

    /** A bail-out of the byte path is not a failure of this field: it leaves the whole fast decode unchanged. */
    private static void bailThrough(Throwable t) {
        if (t instanceof ByteTokens.Bail b) {
            throw b;
        }
    }
}
