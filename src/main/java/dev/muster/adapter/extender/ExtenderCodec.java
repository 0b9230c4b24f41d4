package dev.muster.adapter.extender;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.type.LogicalType;
import com.fasterxml.jackson.core.JsonFactory;
import dev.muster.adapter.kube.Kube;

import java.io.IOException;

/**
 * The extender's own JSON mapper, built here and never taken from CDI, so Quarkus's application ObjectMapper
 * cannot change the wire format.
 * <p>
 * Reading: keys match case-insensitively at every level, like Go's {@code encoding/json} (upstream's compatibility
 * test round-trips fully lower-cased documents); unknown keys are ignored; a value of the wrong JSON type is an
 * error, not coerced. Writing: the Go field names in Go's field order, nulls printed, map keys sorted (Go sorts
 * map keys), no whitespace.
 */
public final class ExtenderCodec {
    private final ObjectMapper mapper;

    public ExtenderCodec() {
        JsonFactory factory = JsonFactory.builder()
                .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(64)
                        .maxDocumentLength(256L * 1024 * 1024).build())
                .build();
        ObjectMapper m = JsonMapper.builder(factory)
                .enable(MapperFeature.ACCEPT_CASE_INSENSITIVE_PROPERTIES)
                .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                .disable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
                .disable(SerializationFeature.INDENT_OUTPUT)
                .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
                .serializationInclusion(JsonInclude.Include.ALWAYS)
                .build();
        m.coercionConfigFor(LogicalType.Textual)
                .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
        for (LogicalType t : new LogicalType[]{LogicalType.Integer, LogicalType.Boolean, LogicalType.POJO,
                LogicalType.Map, LogicalType.Collection}) {
            m.coercionConfigFor(t)
                    .setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.String, CoercionAction.Fail);
        }
        this.mapper = m;
    }

    /** Reads one wire document; a body that is not one well-formed document of that shape throws. */
    public <T> T read(byte[] body, Class<T> type) throws WireException {
        if (body == null || body.length == 0) {
            throw new WireException("request body is empty");
        }
        try {
            return mapper.readValue(body, type);
        } catch (IOException | RuntimeException e) {
            throw new WireException("cannot decode " + type.getSimpleName() + ": " + firstLine(e.getMessage()));
        }
    }

    /** A NodeList item, read as a core/v1 Node. */
    public Kube.Node node(JsonNode item) throws WireException {
        try {
            return mapper.treeToValue(item, Kube.Node.class);
        } catch (JsonProcessingException | RuntimeException e) {
            throw new WireException("cannot decode a node in Nodes.items: " + firstLine(e.getMessage()));
        }
    }

    public byte[] write(Object value) {
        try {
            return mapper.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot encode " + value.getClass().getSimpleName(), e);
        }
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        String line = nl < 0 ? s : s.substring(0, nl);
        return line.length() > 300 ? line.substring(0, 300) + "..." : line;
    }

    /** A request the extender cannot read. */
    public static final class WireException extends Exception {
        public WireException(String message) {
            super(message);
        }
    }
}
