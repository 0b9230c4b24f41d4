package dev.muster.adapter.kube;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What a body that is not a request says it is, when it says so: its own {@code kind} ({@code List}, {@code PodList},
 * {@code Pod}) and, for a list, the distinct kinds of its items in the order they first come (an item without a kind
 * counts as the typed list's kind). A body pasted straight from {@code kubectl get -o json} (or {@code -o yaml}) has
 * no {@code snapshot}; these tell where its objects belong instead.
 *
 * @param kind      the body's {@code kind}
 * @param itemKinds the kinds of its {@code items}; empty for a list without items and for a single object
 */
public record PastedObjects(String kind, List<String> itemKinds) {

    /** Whether the body is a list object ({@code List} or a typed list such as {@code NodeList}). */
    public boolean isList() {
        return kind.equals("List") || kind.endsWith("List");
    }

    /**
     * Reads {@code body}'s top-level {@code kind} and its items' kinds with a parser of {@code factory}; null when the
     * body is not an object with a string {@code kind}, or does not parse (the decoder has said why already). Only
     * called for a body without a snapshot, so an invalid request pays for it, never a valid one.
     */
    static PastedObjects read(JsonFactory factory, byte[] body) {
        try (JsonParser p = factory.createParser(body)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            String kind = null;
            Set<String> items = new LinkedHashSet<>();
            boolean untyped = false;
            for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
                String f = p.currentName();
                JsonToken v = p.nextToken();
                if (f.equals("kind") && v == JsonToken.VALUE_STRING) {
                    kind = p.getText();
                } else if (f.equals("items") && v == JsonToken.START_ARRAY) {
                    untyped = itemKinds(p, items);
                } else {
                    p.skipChildren();
                }
            }
            if (kind == null || kind.isEmpty()) {
                return null;
            }
            List<String> kinds = new ArrayList<>(items);
            if (untyped && kind.endsWith("List") && !kind.equals("List")) {
                String typed = kind.substring(0, kind.length() - "List".length());
                if (!kinds.contains(typed)) {
                    kinds.add(typed);
                }
            }
            return new PastedObjects(kind, List.copyOf(kinds));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** Adds the kinds of the items of the array {@code p} is at; true when some item says no kind. */
    private static boolean itemKinds(JsonParser p, Set<String> kinds) throws IOException {
        boolean untyped = false;
        for (JsonToken e = p.nextToken(); e != JsonToken.END_ARRAY; e = p.nextToken()) {
            if (e != JsonToken.START_OBJECT) {
                p.skipChildren();
                continue;
            }
            String kind = null;
            for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
                String f = p.currentName();
                JsonToken v = p.nextToken();
                if (f.equals("kind") && v == JsonToken.VALUE_STRING) {
                    kind = p.getText();
                } else {
                    p.skipChildren();
                }
            }
            if (kind == null || kind.isEmpty()) {
                untyped = true;
            } else {
                kinds.add(kind);
            }
        }
        return untyped;
    }
}
