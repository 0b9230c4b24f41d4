package dev.muster.adapter.kube;

import dev.muster.core.model.Quantity;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;

import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.io.IOException;

/**
 * A resource.Quantity as sent: its text, parsed later by {@link Quantity} (so a bad quantity becomes a 422 cause
 * with its field path instead of a decoding failure). Kubernetes accepts a quantity as a JSON string or a JSON
 * number; anything else (object, array, boolean) is a wrong type, a 400.
 */
@JsonDeserialize(using = Qty.Deserializer.class)
@Schema(name = "Quantity", type = SchemaType.STRING, example = "500m",
        description = "resource.Quantity: a string such as 500m, 2, 1.5Gi, 1e3 (a JSON number is accepted too)")
public record Qty(String text) {

    public static Qty of(String text) {
        return new Qty(text);
    }

    @Override
    public String toString() {
        return text;
    }

    static final class Deserializer extends JsonDeserializer<Qty> {
        @Override
        public Qty deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            JsonToken t = p.currentToken();
            if (t == JsonToken.VALUE_STRING || t == JsonToken.VALUE_NUMBER_INT || t == JsonToken.VALUE_NUMBER_FLOAT) {
                return new Qty(p.getText());
            }
            return (Qty) ctxt.handleUnexpectedToken(Qty.class, p);
        }
    }
}
