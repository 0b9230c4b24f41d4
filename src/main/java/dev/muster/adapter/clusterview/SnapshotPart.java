package dev.muster.adapter.clusterview;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.util.JsonParserSequence;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import dev.muster.adapter.kube.Kube;
import dev.muster.adapter.kube.KubeDra;
import dev.muster.adapter.kube.KubeList;
import dev.muster.adapter.kube.KubeListDeserializer;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One file of a snapshot, decoded: either the {@code snapshot} object of a {@code POST /v1/decisions} request
 * ({@code {"nodes": [...], "pods": [...]}}, each list an array or a kubectl list object), or what
 * {@code kubectl get ... -o json} prints: a {@code List} whose items say their own {@code kind}
 * ({@code kubectl get nodes,pods -A -o json}), or a typed list ({@code NodeList}, as the API server answers a list
 * call) whose items may leave their kind out. Items of kinds a snapshot does not hold (a {@code Service}) are
 * skipped and counted.
 *
 * @param lists   the objects by {@link SnapshotKind} ordinal; null where the file does not mention the kind
 * @param items   for a kubectl list, the index in {@code items} of each object of {@code lists}, by kind (for
 *                messages); null for a snapshot object
 * @param skipped items skipped, by kind
 */
public record SnapshotPart(List<?>[] lists, int[][] items, Map<String, Integer> skipped) {

    /** The part a decoded document holds; throws with the reason when it is neither shape. */
    static SnapshotPart of(Document d) throws InvalidSnapshotException {
        if (d == null) {
            throw new InvalidSnapshotException("holds no snapshot object or kubectl List (the document is null)");
        }
        List<?>[] snapshotLists = d.snapshotLists();
        boolean snapshot = false;
        for (List<?> l : snapshotLists) {
            snapshot |= l != null;
        }
        boolean list = d.items() != null || d.kind() != null;
        if (snapshot && list) {
            throw new InvalidSnapshotException("is both a snapshot object (nodes, pods, ...) and a kubectl List "
                    + "(kind, items): one file holds one of them");
        }
        if (!list) {
            for (SnapshotKind k : SnapshotKind.values()) {
                if (snapshotLists[k.ordinal()] instanceof KubeList<?> kl && !isListKind(kl.kind(), k)) {
                    throw new InvalidSnapshotException(k.field + ".kind: Unsupported value: \"" + kl.kind()
                            + "\": supported values: \"List\", \"" + k.kind + "List\"");
                }
            }
            return new SnapshotPart(snapshotLists, null, Map.of());
        }
        if (d.kind() == null || !d.kind().endsWith("List")) {
            throw new InvalidSnapshotException("kind: " + (d.kind() == null ? "Required value" : "Unsupported value: \""
                    + d.kind() + "\"") + ": a file that is not a snapshot object must be a kubectl List (kind "
                    + "\"List\" or a typed list such as \"NodeList\") with the objects in items");
        }
        List<?>[] lists = new List<?>[SnapshotKind.values().length];
        int[][] items = new int[lists.length][];
        int[] counts = new int[lists.length];
        Map<String, Integer> skipped = new TreeMap<>();
        List<Object> all = d.items() == null ? List.of() : d.items();
        for (Object o : all) {
            if (o instanceof Skipped s) {
                skipped.merge(s.kind(), 1, Integer::sum);
            } else {
                counts[SnapshotKind.ofType(o.getClass()).ordinal()]++;
            }
        }
        for (int k = 0; k < lists.length; k++) {
            if (counts[k] > 0) {
                lists[k] = new ArrayList<>(counts[k]);
                items[k] = new int[counts[k]];
            }
        }
        for (int i = 0; i < all.size(); i++) {
            Object o = all.get(i);
            if (!(o instanceof Skipped)) {
                int k = SnapshotKind.ofType(o.getClass()).ordinal();
                @SuppressWarnings("unchecked")
                List<Object> l = (List<Object>) lists[k];
                items[k][l.size()] = i;
                l.add(o);
            }
        }
        return new SnapshotPart(lists, items, skipped);
    }

    private static boolean isListKind(String kind, SnapshotKind k) {
        return "List".equals(kind) || (k.kind + "List").equals(kind);
    }

    /** Where object {@code index} of kind {@code k} stands in its file: {@code items[7]} or {@code pods[3]}. */
    String where(SnapshotKind k, int index) {
        return items == null ? k.field + "[" + index + "]" : "items[" + items[k.ordinal()][index] + "]";
    }

    /** An item of a kind no snapshot holds. */
    public record Skipped(String kind) {
    }

    /**
     * A file as decoded: a snapshot object's lists, or a kubectl list's {@code kind} and {@code items} (the list's
     * {@code apiVersion} and {@code metadata} are ignored). Items are decoded by {@link Item}, which finds each one's
     * kind.
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Document(@JsonDeserialize(using = ListKind.class) String kind,
                           @JsonDeserialize(contentUsing = Item.class) List<Object> items,
                           @JsonDeserialize(using = KubeListDeserializer.class) List<Kube.Node> nodes,
                           @JsonDeserialize(using = KubeListDeserializer.class) List<Kube.Pod> pods,
                           @JsonDeserialize(using = KubeListDeserializer.class) List<Kube.PodGroup> podGroups,
                           @JsonDeserialize(using = KubeListDeserializer.class) List<Kube.Workload> workloads,
                           @JsonDeserialize(using = KubeListDeserializer.class)
                           List<Kube.PriorityClass> priorityClasses,
                           @JsonDeserialize(using = KubeListDeserializer.class)
                           List<Kube.PodDisruptionBudget> podDisruptionBudgets,
                           @JsonDeserialize(using = KubeListDeserializer.class)
                           List<KubeDra.DeviceClass> deviceClasses,
                           @JsonDeserialize(using = KubeListDeserializer.class)
                           List<KubeDra.ResourceSlice> resourceSlices,
                           @JsonDeserialize(using = KubeListDeserializer.class)
                           List<KubeDra.ResourceClaim> resourceClaims,
                           @JsonDeserialize(using = KubeListDeserializer.class)
                           List<KubeDra.ResourceClaimTemplate> resourceClaimTemplates,
                           @JsonDeserialize(using = KubeListDeserializer.class) List<Kube.Job> jobs,
                           @JsonDeserialize(using = KubeListDeserializer.class)
                           List<Kube.CompositePodGroup> compositePodGroups,
                           @JsonDeserialize(using = KubeListDeserializer.class) List<Kube.HyperNode> hyperNodes) {
        /** A kubectl list's document: its {@code kind} and items (read without databind). */
        static Document ofList(String kind, List<Object> items) {
            return new Document(kind, items, null, null, null, null, null, null, null, null, null, null, null, null,
                    null);
        }

        List<?>[] snapshotLists() {
            return new List<?>[] {nodes, pods, podGroups, workloads, priorityClasses, podDisruptionBudgets,
                    deviceClasses, resourceSlices, resourceClaims, resourceClaimTemplates, jobs, compositePodGroups,
                    hyperNodes};
        }
    }

    /** The list's {@code kind}, also kept for the items that follow it (a typed list's items may omit theirs). */
    public static final class ListKind extends StdDeserializer<String> {
        static final Object KEY = ListKind.class;

        public ListKind() {
            super(String.class);
        }

        @Override
        public String deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            if (!p.hasToken(JsonToken.VALUE_STRING)) {
                return (String) ctxt.handleUnexpectedToken(String.class, p);
            }
            String kind = p.getText();
            ctxt.setAttribute(KEY, kind);
            return kind;
        }
    }

    /**
     * One item of a kubectl list, decoded as the lean record of its kind by the same strict databind as a snapshot
     * list's element (a failure carries the path {@code items[3].metadata.name}). The item's own {@code kind}
     * decides; without one, the typed list's ({@code NodeList}: a Node) when the list said its kind before its
     * items, as the API server writes it. The fields before {@code kind} ({@code apiVersion}, in kubectl's output)
     * are buffered and replayed, the rest is read straight from the file.
     */
    public static final class Item extends StdDeserializer<Object> {
        public Item() {
            super(Object.class);
        }

        @Override
        public Object deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            if (!p.isExpectedStartObjectToken()) {
                return ctxt.handleUnexpectedToken(Kube.ObjectMeta.class, p);
            }
            String kind = null;
            String apiVersion = null;
            TokenBuffer head = null; // the fields before kind other than a leading apiVersion, when there are some
            JsonToken t;
            while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
                String f = p.currentName();
                JsonToken v = p.nextToken();
                if (f.equals("kind")) {
                    if (v != JsonToken.VALUE_STRING) {
                        throw JsonMappingException.wrapWithPath(JsonMappingException.from(p,
                                "wrong type: expected a string"), Object.class, "kind");
                    }
                    kind = p.getText();
                    break;
                }
                if (head == null && apiVersion == null && f.equals("apiVersion") && v == JsonToken.VALUE_STRING) {
                    apiVersion = p.getText();
                    continue;
                }
                if (head == null) {
                    head = start(p, ctxt, apiVersion);
                }
                head.writeFieldName(f);
                head.copyCurrentStructure(p);
            }
            boolean whole = t == JsonToken.END_OBJECT;
            String listKind = (String) ctxt.getAttribute(ListKind.KEY);
            String typed = listKind != null && listKind.endsWith("List") && !listKind.equals("List")
                    ? listKind.substring(0, listKind.length() - "List".length()) : null;
            String itemKind = kind;
            if (itemKind == null) {
                if (typed == null) {
                    throw JsonMappingException.from(p, "an item of a List must say its kind (\"kind\": \"Node\"), or "
                            + "the list must be a typed list (\"kind\": \"NodeList\") stated before its items");
                }
                itemKind = typed;
            } else if (typed != null && !typed.equals(itemKind)) {
                throw JsonMappingException.wrapWithPath(JsonMappingException.from(p, "a " + listKind
                        + " holds " + typed + " objects, not " + itemKind), Object.class, "kind");
            }
            SnapshotKind k = SnapshotKind.ofKind(itemKind);
            if (k == null) {
                if (!whole) {
                    skipRest(p);
                }
                return new Skipped(itemKind);
            }
            if (head == null && !whole && !k.typeMeta) {
                // kubectl's order (apiVersion, kind, then the body) for a record without apiVersion and kind:
                // the record reads the rest of the object straight from the file, from its next field on
                p.nextToken();
                return ctxt.readValue(p, k.type);
            }
            if (head == null) {
                head = start(p, ctxt, apiVersion);
            }
            if (kind != null) {
                head.writeFieldName("kind");
                head.writeString(kind);
            }
            JsonParser in;
            if (whole) {
                head.writeEndObject();
                in = head.asParser(p);
            } else {
                in = JsonParserSequence.createFlattened(false, head.asParser(p), p);
            }
            in.nextToken();
            return ctxt.readValue(in, k.type);
        }

        private static TokenBuffer start(JsonParser p, DeserializationContext ctxt, String apiVersion)
                throws IOException {
            TokenBuffer head = ctxt.bufferForInputBuffering(p);
            head.writeStartObject();
            if (apiVersion != null) {
                head.writeFieldName("apiVersion");
                head.writeString(apiVersion);
            }
            return head;
        }

        /** Skips the fields left in the current object, up to and including its end. */
        private static void skipRest(JsonParser p) throws IOException {
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                p.nextToken();
                p.skipChildren();
            }
        }
    }
}
