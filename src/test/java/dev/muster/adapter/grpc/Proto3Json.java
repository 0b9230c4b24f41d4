package dev.muster.adapter.grpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.MessageOrBuilder;
import com.google.protobuf.util.JsonFormat;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Compares a gRPC response in proto3 JSON form with a REST JSON response. What differs only in form is normalized on
 * both sides, nothing else:
 * <ul>
 *   <li>proto3 JSON leaves out default values ("", 0, false, [], {}); REST prints empty lists and false. Both sides
 *       drop them, so "not set" and "empty" compare equal;</li>
 *   <li>proto3 JSON prints int64 fields as strings, and Jackson reads small numbers as ints: every integer becomes
 *       a long.</li>
 * </ul>
 */
final class Proto3Json {
    static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> INT64 = Set.of("observedGeneration", "steps", "budget", "score");

    private Proto3Json() {
    }

    static JsonNode of(MessageOrBuilder m) throws Exception {
        return JSON.readTree(JsonFormat.printer().print(m));
    }

    static JsonNode normalize(JsonNode n) {
        return clean(n.deepCopy(), null);
    }

    private static JsonNode clean(JsonNode n, String key) {
        if (n.isObject()) {
            ObjectNode o = (ObjectNode) n;
            List<String> drop = new ArrayList<>();
            Iterator<Map.Entry<String, JsonNode>> it = o.fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                JsonNode v = e.getValue();
                if (INT64.contains(e.getKey()) && v.isTextual()) {
                    v = JsonNodeFactory.instance.numberNode(Long.parseLong(v.asText()));
                }
                if (v.isIntegralNumber()) {
                    v = JsonNodeFactory.instance.numberNode(v.asLong()); // IntNode(1) and LongNode(1) compare unequal
                }
                v = clean(v, e.getKey());
                if (isDefault(v)) {
                    drop.add(e.getKey());
                } else {
                    e.setValue(v);
                }
            }
            o.remove(drop);
            return o;
        }
        if (n.isArray()) {
            ArrayNode a = (ArrayNode) n;
            for (int i = 0; i < a.size(); i++) {
                a.set(i, clean(a.get(i), null));
            }
            return a;
        }
        return n;
    }

    private static boolean isDefault(JsonNode v) {
        return v == null || v.isNull() || (v.isTextual() && v.asText().isEmpty())
                || (v.isBoolean() && !v.asBoolean()) || (v.isNumber() && v.asLong() == 0 && v.asDouble() == 0)
                || (v.isContainerNode() && v.isEmpty());
    }
}
