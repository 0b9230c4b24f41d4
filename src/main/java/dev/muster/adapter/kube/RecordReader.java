package dev.muster.adapter.kube;

import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * Base of the record decoders: the value of the current field ({@link FieldReader#first}, {@link FieldReader#next})
 * read as the record's field {@code f}, a failure given the field's path step as databind's {@code BeanDeserializer}
 * adds it.
 * A field loop is then {@code for (String f = in.first(); f != null; f = in.next())} around a switch on the name,
 * with the record's fields in locals: nothing is allocated for the loop, and each case reads its value through one of
 * these.
 */
abstract class RecordReader {
    final FieldReader in;

    RecordReader(FieldReader in) {
        this.in = in;
    }

    final String string(String f, Class<?> r) throws IOException {
        try {
            return in.string(in.value(), f, r);
        } catch (Exception e) {
            throw FieldReader.wrap(e, r, f);
        }
    }

    final String shared(String f, Class<?> r) throws IOException {
        try {
            return in.shared(in.value(), f, r);
        } catch (Exception e) {
            throw FieldReader.wrap(e, r, f);
        }
    }

    final Integer integer(String f, Class<?> r) throws IOException {
        try {
            return in.integer(in.value(), f, r);
        } catch (Exception e) {
            throw FieldReader.wrap(e, r, f);
        }
    }

    final Long longValue(String f, Class<?> r) throws IOException {
        try {
            return in.longValue(in.value(), f, r);
        } catch (Exception e) {
            throw FieldReader.wrap(e, r, f);
        }
    }

    final Boolean bool(String f, Class<?> r) throws IOException {
        try {
            return in.bool(in.value(), f, r);
        } catch (Exception e) {
            throw FieldReader.wrap(e, r, f);
        }
    }

    final Map<String, String> stringMap(String f, Class<?> r) throws IOException {
        try {
            return in.stringMap(in.value(), f, r);
        } catch (Exception e) {
            throw FieldReader.wrap(e, r, f);
        }
    }

    final Map<String, Qty> qtyMap(String f, Class<?> r) throws IOException {
        try {
            return in.qtyMap(in.value(), f, r);
        } catch (Exception e) {
            throw FieldReader.wrap(e, r, f);
        }
    }

    final List<String> strings(String f, Class<?> r) throws IOException {
        try {
            return in.strings(in.value(), f, r);
        } catch (Exception e) {
            throw FieldReader.wrap(e, r, f);
        }
    }

    /** A list of a type not streamed here: each element through databind. */
    final <T> List<T> list(String f, Class<?> r, Class<T> type) throws IOException {
        try {
            return in.list(in.value(), f, type, r);
        } catch (Exception e) {
            throw FieldReader.wrap(e, r, f);
        }
    }

    /** A value whose token is not the usual one for the field: as {@link FieldReader#other}. */
    final <T> T other(String f, Class<?> r) throws IOException {
        try {
            return in.other(in.value(), f, r);
        } catch (Exception e) {
            throw FieldReader.wrap(e, r, f);
        }
    }

    /** An object read by {@code one}; any other token as {@link FieldReader#other}. */
    final <T> T object(String f, Class<?> r, FieldReader.ObjectBody<T> one) throws IOException {
        try {
            JsonToken v = in.value();
            return v == JsonToken.START_OBJECT ? one.read() : in.other(v, f, r);
        } catch (Exception e) {
            throw FieldReader.wrap(e, r, f);
        }
    }

    /** A list of objects of {@code type}, each read by {@code one}. */
    final <T> List<T> objects(String f, Class<?> r, Class<T> type, int capacity, FieldReader.ObjectBody<T> one)
            throws IOException {
        try {
            return in.objects(in.value(), f, r, type, capacity, one);
        } catch (Exception e) {
            throw FieldReader.wrap(e, r, f);
        }
    }

    /** A value {@link FieldReader#recalled} at {@code site}, else read by {@code read}. */
    final <T> T recalled(String f, Class<?> r, int site, FieldReader.ValueBody<T> read) throws IOException {
        try {
            return in.recalled(site, in.value(), f, read);
        } catch (Exception e) {
            throw FieldReader.wrap(e, r, f);
        }
    }
}
