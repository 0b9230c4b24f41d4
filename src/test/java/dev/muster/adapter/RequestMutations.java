package dev.muster.adapter;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Variants of one valid request, one per object- or list-valued field of its JSON tree and per way of breaking it:
 * the field removed, set to null, or given another JSON type (an object as a string, a number or an array; a list as
 * an object or a string). Each variant knows the path of the field it changed, in the notation of the error paths
 * ({@code snapshot.pods[1].spec.containers}). The walk is in document order, so the variants are the same on every
 * run; of a list's items shaped alike (the same fields, whatever their values), only the first is broken.
 */
public final class RequestMutations {
    public static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    /** How a variant breaks its field. */
    public enum Change {
        REMOVE, NULL, OBJECT_AS_STRING, OBJECT_AS_NUMBER, OBJECT_AS_ARRAY, LIST_AS_OBJECT, LIST_AS_STRING;

        public boolean retypes() {
            return this != REMOVE && this != NULL;
        }
    }

    /**
     * One variant: {@code path} is the changed field; {@code inList} whether it is an item of a list (an item is
     * not removed, only nulled or retyped); {@code json} the whole request with the change.
     */
    public record Variant(String path, Change change, boolean inList, String json) {
        @Override
        public String toString() {
            return change + " " + path;
        }
    }

    private RequestMutations() {
    }

    /** The request at {@code resource} on the test class path. */
    public static JsonNode load(String resource) {
        try (InputStream in = RequestMutations.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException("no resource " + resource);
            }
            return JSON.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every variant of {@code root}, in document order. */
    public static List<Variant> of(JsonNode root) {
        List<Variant> out = new ArrayList<>();
        walk(root, root, "", new ArrayList<>(), out);
        return out;
    }

    /** The object- and list-valued fields of {@code root}, by path: what {@link #of} changes. */
    public static List<String> paths(JsonNode root) {
        return of(root).stream().filter(v -> v.change() == Change.NULL).map(Variant::path).toList();
    }

    private static void walk(JsonNode root, JsonNode node, String path, List<Object> steps, List<Variant> out) {
        if (node.isObject()) {
            Iterator<Map.Entry<String, JsonNode>> it = node.fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                String p = path.isEmpty() ? e.getKey() : path + "." + e.getKey();
                visit(root, e.getValue(), p, append(steps, e.getKey()), false, out);
            }
        } else if (node.isArray()) {
            java.util.Set<JsonNode> shapes = new java.util.HashSet<>();
            for (int i = 0; i < node.size(); i++) {
                // an item shaped like an earlier one (the second of two alike nodes) would only repeat its variants
                if (shapes.add(shape(node.get(i)))) {
                    visit(root, node.get(i), path + "[" + i + "]", append(steps, i), true, out);
                }
            }
        }
    }

    private static void visit(JsonNode root, JsonNode value, String path, List<Object> steps, boolean inList,
                              List<Variant> out) {
        if (!value.isContainerNode()) {
            return;
        }
        if (!inList) {
            out.add(variant(root, steps, path, Change.REMOVE, null, false));
        }
        out.add(variant(root, steps, path, Change.NULL, F.nullNode(), inList));
        if (value.isObject()) {
            out.add(variant(root, steps, path, Change.OBJECT_AS_STRING, F.textNode("x"), inList));
            out.add(variant(root, steps, path, Change.OBJECT_AS_NUMBER, F.numberNode(7), inList));
            out.add(variant(root, steps, path, Change.OBJECT_AS_ARRAY, F.arrayNode(), inList));
        } else {
            out.add(variant(root, steps, path, Change.LIST_AS_OBJECT, F.objectNode(), inList));
            out.add(variant(root, steps, path, Change.LIST_AS_STRING, F.textNode("x"), inList));
        }
        walk(root, value, path, steps, out);
    }

    /** {@code node} with every scalar replaced by null: what its variants depend on. */
    private static JsonNode shape(JsonNode node) {
        if (node.isObject()) {
            ObjectNode o = F.objectNode();
            node.fields().forEachRemaining(e -> o.set(e.getKey(), shape(e.getValue())));
            return o;
        }
        if (node.isArray()) {
            ArrayNode a = F.arrayNode();
            node.forEach(e -> a.add(shape(e)));
            return a;
        }
        return F.nullNode();
    }

    private static List<Object> append(List<Object> steps, Object step) {
        List<Object> s = new ArrayList<>(steps.size() + 1);
        s.addAll(steps);
        s.add(step);
        return s;
    }

    /** {@code root} with the field at {@code steps} replaced by {@code with}, or removed when it is null. */
    private static Variant variant(JsonNode root, List<Object> steps, String path, Change change, JsonNode with,
                                   boolean inList) {
        JsonNode copy = root.deepCopy();
        JsonNode parent = copy;
        for (int i = 0; i < steps.size() - 1; i++) {
            Object s = steps.get(i);
            parent = s instanceof Integer n ? parent.get(n) : parent.get((String) s);
        }
        Object last = steps.get(steps.size() - 1);
        if (last instanceof Integer n) {
            ((ArrayNode) parent).set(n, with);
        } else if (with == null) {
            ((ObjectNode) parent).remove((String) last);
        } else {
            ((ObjectNode) parent).set((String) last, with);
        }
        try {
            return new Variant(path, change, inList, JSON.writeValueAsString(copy));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
