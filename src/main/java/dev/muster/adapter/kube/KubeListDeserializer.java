package dev.muster.adapter.kube;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.BeanProperty;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.deser.ContextualDeserializer;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;

import java.io.IOException;
import java.util.List;

/**
 * Databind for a list of snapshot objects (annotated on each list of {@link RequestDocument.Snapshot}): a JSON/YAML
 * array, or the list object kubectl prints, read into a {@link KubeList}. The items are read by the very
 * deserializer the array would have used, so an item's failure carries the path it has in the array form
 * ({@code snapshot.nodes[3].metadata.name}: no {@code items} step); a wrapper field of the wrong type is
 * {@code snapshot.nodes.kind}. Fields of the wrapper other than {@code apiVersion}, {@code kind} and {@code items}
 * are skipped; a repeated one counts the last time, as for any record field.
 */
public final class KubeListDeserializer extends StdDeserializer<List<?>> implements ContextualDeserializer {
    private final JsonDeserializer<Object> array;

    /** For the annotation: the contextual instance ({@link #createContextual}) does the work. */
    public KubeListDeserializer() {
        this(null);
    }

    private KubeListDeserializer(JsonDeserializer<Object> array) {
        super(List.class);
        this.array = array;
    }

    @Override
    public JsonDeserializer<?> createContextual(DeserializationContext ctxt, BeanProperty property)
            throws JsonMappingException {
        JavaType type = property != null ? property.getType() : ctxt.getContextualType();
        return new KubeListDeserializer(ctxt.findContextualValueDeserializer(type, property));
    }

    @Override
    @SuppressWarnings("unchecked")
    public List<?> deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
        if (array == null) {
            throw new IllegalStateException("KubeListDeserializer used without a property");
        }
        if (!p.isExpectedStartObjectToken()) {
            return (List<?>) array.deserialize(p, ctxt);
        }
        String apiVersion = null;
        String kind = null;
        List<Object> items = null;
        for (String f = p.nextFieldName(); f != null; f = p.nextFieldName()) {
            JsonToken v = p.nextToken();
            switch (f) {
                case "apiVersion" -> apiVersion = text(p, ctxt, v, f);
                case "kind" -> kind = text(p, ctxt, v, f);
                case "items" -> items = v == JsonToken.VALUE_NULL ? null : (List<Object>) array.deserialize(p, ctxt);
                default -> p.skipChildren();
            }
        }
        return new KubeList<>(apiVersion, kind, items);
    }

    private static String text(JsonParser p, DeserializationContext ctxt, JsonToken v, String f) throws IOException {
        if (v == JsonToken.VALUE_STRING) {
            return p.getText();
        }
        if (v == JsonToken.VALUE_NULL) {
            return null;
        }
        try {
            return (String) ctxt.handleUnexpectedToken(String.class, p);
        } catch (JsonMappingException e) {
            throw JsonMappingException.wrapWithPath(e, KubeList.class, f);
        }
    }
}
