package dev.muster.adapter.kube;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.deser.BeanDeserializerModifier;
import com.fasterxml.jackson.databind.deser.std.DelegatingDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Hand-written streaming decoders for the hot types of a request: {@link Kube.Node}, {@link Kube.Pod},
 * {@link KubeDra.ResourceSlice} and everything under them (a large snapshot holds thousands of nodes and slices and
 * tens of thousands of pods).
 *
 * <p>One {@link Reader}, two token sources ({@link Tokens}): {@link ByteTokens}, the fast path over the body's bytes,
 * which leaves anything unusual to the other by bailing out, and {@link JacksonTokens}, Jackson's parser with
 * databind behind every unusual token, reached through the module registered here. What follows describes the rules
 * both share; the Jackson source is the reference for them. The decoders themselves are by family: the
 * {@link Reader} for a Node or Pod and its metadata, {@link NodeDecoders}, {@link PodDecoders} and
 * {@link AffinityDecoders} for what is under them, {@link DraDecoders} for a slice's; each is a {@link RecordReader}, over the field loop and values of
 * {@link FieldReader}.
 *
 * <p>Why not plain databind: Jackson's creator-based record deserializer (PropertyValueBuffer, reflective constructor
 * calls, a LinkedHashMap per label/quantity map, a new String per value) costs several times the tokenizing floor on
 * a large request, much of it in GC. The hot path must read tokens directly.
 *
 * <p>The rules stay those of {@link KubeCodec}: every scalar takes a fast path only for the token it expects (a string
 * for a string, an {@code int} for an Integer, ...) and a JSON {@code null} for a field means "absent"; any other token
 * is handed to the very deserializer databind would have used for that field (found through the context), so wrong
 * types, fractions for integers, out-of-range numbers and so on fail with databind's own exception. A {@code null}
 * inside a list or map fails like databind's {@code Nulls.FAIL}; unknown fields are skipped; failures carry the same
 * field path (record fields as {@code .name}, list indexes as {@code [i]}, map keys as {@code [key]}), because they
 * are wrapped exactly as {@code BeanDeserializer}, {@code CollectionDeserializer} and {@code MapDeserializer} wrap
 * them. {@code StreamingDecodersTest} checks both against the plain databind reader on the same inputs.
 *
 * <p>Fewer objects for the GC to copy (the document stays live while it is validated and compiled): repeated short
 * string values (label values, namespaces, quantities, taint and toleration fields, node names in
 * {@code spec.nodeName}) are shared within one request through a small per-request table, identical quantities share
 * one {@link Qty}, label and quantity maps are {@link SmallMap}s, lists are {@link SmallList}s, and equal
 * tolerations, taints and containers lists, containers, affinities, node specs and statuses and pod statuses are
 * shared (only those: each sharing costs a hash lookup, so the inner parts of a shared object are not looked up
 * themselves). So the lists and (up to 16 entries) maps of a Node or Pod are unmodifiable, and equal parts of different
 * objects may be the same instance; both are invisible to readers of the records.
 */
final class StreamingDecoders {
    private StreamingDecoders() {
    }

    /**
     * Registers the streaming decoders for Node, Pod and ResourceSlice, each falling back to databind's for a
     * non-object token.
     */
    static SimpleModule module() {
        SimpleModule m = new SimpleModule("muster-streaming-decoders");
        m.setDeserializerModifier(new BeanDeserializerModifier() {
            @Override
            public JsonDeserializer<?> modifyDeserializer(DeserializationConfig config, BeanDescription desc,
                                                          JsonDeserializer<?> deserializer) {
                Class<?> raw = desc.getBeanClass();
                if (raw == Kube.Pod.class) {
                    return new Top(deserializer, true);
                }
                if (raw == Kube.Node.class) {
                    return new Top(deserializer, false);
                }
                if (raw == KubeDra.ResourceSlice.class) {
                    return new Top(deserializer, null);
                }
                return deserializer;
            }
        });
        return m;
    }

    /** The entry point for one Pod or Node; databind's own deserializer stays behind it for anything but an object. */
    static final class Top extends DelegatingDeserializer {
        /** A Pod (true), a Node (false) or a ResourceSlice (null). */
        private final Boolean pod;

        Top(JsonDeserializer<?> fallback, Boolean pod) {
            super(fallback);
            this.pod = pod;
        }

        @Override
        protected JsonDeserializer<?> newDelegatingInstance(JsonDeserializer<?> newDelegatee) {
            return new Top(newDelegatee, pod);
        }

        @Override
        public Object deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            JsonToken t = p.currentToken();
            if (t != JsonToken.START_OBJECT && t != JsonToken.FIELD_NAME && t != JsonToken.END_OBJECT) {
                return _delegatee.deserialize(p, ctxt);
            }
            Reader r = Reader.of(p, ctxt);
            return pod == null ? r.slice() : pod ? r.pod() : r.node();
        }
    }

    /**
     * Per-request state: the tokens, the values' tables and one decoder per record type. One per readValue call (kept
     * as a per-call context attribute), so nothing is shared between requests or threads.
     */
    static final class Reader extends RecordReader {
        private static final Object KEY = Reader.class;
        /**
         * The attribute under which a read states its body's length in bytes, so the string tables are sized to it
         * (a refused small request re-read by Jackson does not need the 16,384 slots of a large snapshot).
         */
        static final Object BODY_LENGTH = JacksonTokens.class;

        private final Tokens p;
        private final NodeDecoders nodes;
        private final PodDecoders pods;
        private final DraDecoders dra;
        private final FieldReader.ObjectBody<Kube.Node> node = this::node;
        private final FieldReader.ObjectBody<Kube.Pod> pod = this::pod;
        private final FieldReader.ObjectBody<KubeDra.ResourceSlice> slice = this::slice;
        private final FieldReader.ObjectBody<Kube.ObjectMeta> meta = this::meta;
        private final SnapshotProgress progress;

        Reader(Tokens p) {
            this(p, SnapshotProgress.NONE);
        }

        Reader(Tokens p, SnapshotProgress progress) {
            super(new FieldReader(p));
            this.p = p;
            this.progress = progress;
            this.nodes = new NodeDecoders(in);
            this.pods = new PodDecoders(in);
            this.dra = new DraDecoders(in);
        }

        /** The Reader of this databind call (one per readValue: its tables are per request), reading from {@code p}. */
        static Reader of(JsonParser p, DeserializationContext ctxt) {
            Object o = ctxt.getAttribute(KEY);
            if (o instanceof Reader r && r.p instanceof JacksonTokens j && j.ctxt == ctxt) {
                j.parser = p;
                return r;
            }
            Reader r = new Reader(new JacksonTokens(p, ctxt,
                    ctxt.getAttribute(BODY_LENGTH) instanceof Integer n ? Tokens.slots(n) : 1 << 14));
            ctxt.setAttribute(KEY, r);
            return r;
        }

        Kube.Node node() throws IOException {
            return top(Kube.Node.class, nodes.spec, nodes.status, Kube.Node::new);
        }

        Kube.Pod pod() throws IOException {
            return top(Kube.Pod.class, pods.spec, pods.status, Kube.Pod::new);
        }

        KubeDra.ResourceSlice slice() throws IOException {
            Class<?> r = KubeDra.ResourceSlice.class;
            String apiVersion = null;
            String kind = null;
            Kube.ObjectMeta metadata = null;
            KubeDra.ResourceSliceSpec spec = null;
            for (String f = in.first(); f != null; f = in.next()) {
                switch (f) {
                    case "apiVersion" -> apiVersion = shared(f, r);
                    case "kind" -> kind = shared(f, r);
                    case "metadata" -> metadata = object(f, r, meta);
                    case "spec" -> spec = object(f, r, dra.spec);
                    default -> in.skip();
                }
            }
            return new KubeDra.ResourceSlice(apiVersion, kind, metadata, spec);
        }

        /** A Node or Pod: its metadata, and its spec and status read by {@code spec} and {@code status}. */
        private <T, S, U> T top(Class<?> r, FieldReader.ObjectBody<S> spec, FieldReader.ObjectBody<U> status,
                                Parts<T, S, U> record) throws IOException {
            String apiVersion = null;
            String kind = null;
            Kube.ObjectMeta metadata = null;
            S specValue = null;
            U statusValue = null;
            for (String f = in.first(); f != null; f = in.next()) {
                switch (f) {
                    case "apiVersion" -> apiVersion = shared(f, r);
                    case "kind" -> kind = shared(f, r);
                    case "metadata" -> metadata = object(f, r, meta);
                    case "spec" -> specValue = object(f, r, spec);
                    case "status" -> statusValue = object(f, r, status);
                    default -> in.skip();
                }
            }
            return record.of(apiVersion, kind, metadata, specValue, statusValue);
        }

        private Kube.ObjectMeta meta() throws IOException {
            Class<?> r = Kube.ObjectMeta.class;
            String name = null;
            String namespace = null;
            String uid = null;
            Map<String, String> labels = null;
            Map<String, String> annotations = null;
            String creationTimestamp = null;
            String deletionTimestamp = null;
            Long generation = null;
            for (String f = in.first(); f != null; f = in.next()) {
                switch (f) {
                    case "name" -> name = string(f, r);
                    case "namespace" -> namespace = shared(f, r);
                    case "uid" -> uid = string(f, r);
                    case "labels" -> labels = stringMap(f, r);
                    case "annotations" -> annotations = stringMap(f, r);
                    case "creationTimestamp" -> creationTimestamp = string(f, r);
                    case "deletionTimestamp" -> deletionTimestamp = string(f, r);
                    case "generation" -> generation = longValue(f, r);
                    default -> in.skip();
                }
            }
            return new Kube.ObjectMeta(name, namespace, uid, labels, annotations, creationTimestamp, deletionTimestamp,
                    generation);
        }

        // ------------------------------------------------------------ the envelope (byte path only)

        /**
         * The whole request, on the byte path ({@link ByteTokens}); with Jackson, databind reads the envelope and
         * calls {@link Top} per Node, Pod and ResourceSlice. Lists other than nodes, pods and slices are small and go
         * to databind whole. A repeated envelope field or anything but an object where one is expected leaves the
         * fast path.
         */
        RequestDocument document() throws IOException {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw ByteTokens.bail();
            }
            RequestDocument.Snapshot snapshot = null;
            List<String> podGroups = null;
            RequestDocument.Options options = null;
            List<String> pods = null;
            int seen = 0;
            for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = aheadNext()) {
                String f = p.currentName();
                JsonToken v = p.nextToken();
                switch (f) {
                    case "snapshot" -> {
                        seen = once(seen, 0);
                        snapshot = v == JsonToken.START_OBJECT ? snapshot() : in.other(v, f, RequestDocument.class);
                    }
                    case "podGroups" -> {
                        seen = once(seen, 1);
                        podGroups = in.other(v, f, RequestDocument.class);
                    }
                    case "options" -> {
                        seen = once(seen, 2);
                        options = in.other(v, f, RequestDocument.class);
                    }
                    case "pods" -> {
                        seen = once(seen, 3);
                        pods = in.other(v, f, RequestDocument.class);
                    }
                    default -> p.skipChildren();
                }
            }
            ((ByteTokens) p).expectEnd();
            return new RequestDocument(snapshot, podGroups, options, pods);
        }

        /** A cluster-choice request on the byte path ({@link ChoiceDecoder}). */
        ChoiceDocument choiceDocument() throws IOException {
            return ChoiceDecoder.read(this, p);
        }

        /** Kinds of kubectl list items read here (values, so not case labels: see FieldNames). */
        private static final String NODE = "Node";
        private static final String POD = "Pod";
        private static final String RESOURCE_SLICE = "ResourceSlice";

        /**
         * A file of {@code kubectl get -o json} (byte path only): a {@code List} whose items are Nodes, Pods and
         * ResourceSlices, each opening with its {@code kind} (after an {@code apiVersion}), as kubectl prints them;
         * {@code other} gives the marker of an item of another kind that is skipped (null: leave the fast path). The
         * list's {@code apiVersion} and {@code metadata} are skipped. Anything else (a snapshot object, a field of
         * the list repeated or unknown, an item in another order, a typed list stated before its items) leaves the
         * fast path, which Jackson then reads with its messages.
         */
        KubeList<Object> kubectlList(java.util.function.Function<String, Object> other) throws IOException {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw ByteTokens.bail();
            }
            String kind = null;
            List<Object> items = null;
            int seen = 0;
            for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
                String f = p.currentName();
                JsonToken v = p.nextToken();
                switch (f) {
                    case "apiVersion" -> {
                        seen = once(seen, 0);
                        p.skipChildren();
                    }
                    case "metadata" -> {
                        seen = once(seen, 1);
                        p.skipChildren();
                    }
                    case "kind" -> {
                        seen = once(seen, 2);
                        kind = wrapperText(v);
                    }
                    case "items" -> {
                        seen = once(seen, 3);
                        if (v != JsonToken.START_ARRAY) {
                            throw ByteTokens.bail();
                        }
                        items = items(kind, other);
                    }
                    default -> throw ByteTokens.bail();
                }
            }
            ((ByteTokens) p).expectEnd();
            if (kind == null || items == null) {
                throw ByteTokens.bail();
            }
            return new KubeList<>(null, kind, items);
        }

        /**
         * The items of a kubectl list whose {@code kind} is {@code listKind} when stated before them, else null. A
         * kind stated first other than {@code List} (a typed list, as the API server writes one) is left to Jackson,
         * which also checks its items' kinds against it; kubectl states its {@code List} kind after the items.
         */
        private List<Object> items(String listKind, java.util.function.Function<String, Object> other)
                throws IOException {
            if (listKind != null && !listKind.equals("List")) {
                throw ByteTokens.bail();
            }
            List<Object> items = new ArrayList<>();
            for (JsonToken e = p.nextToken(); e != JsonToken.END_ARRAY; e = p.nextToken()) {
                if (e != JsonToken.START_OBJECT || p.nextToken() != JsonToken.FIELD_NAME) {
                    throw ByteTokens.bail();
                }
                if (p.currentName().equals("apiVersion")) {
                    if (p.nextToken() != JsonToken.VALUE_STRING || p.nextToken() != JsonToken.FIELD_NAME) {
                        throw ByteTokens.bail();
                    }
                }
                if (!p.currentName().equals("kind") || p.nextToken() != JsonToken.VALUE_STRING) {
                    throw ByteTokens.bail();
                }
                String kind = p.getText();
                p.nextToken(); // the next field's name, or the item's end: where the decoders take over
                if (kind.equals(NODE)) {
                    items.add(node());
                } else if (kind.equals(POD)) {
                    items.add(pod());
                } else if (kind.equals(RESOURCE_SLICE)) {
                    items.add(slice());
                } else {
                    Object skipped = other.apply(kind);
                    if (skipped == null) {
                        throw ByteTokens.bail();
                    }
                    for (JsonToken t = p.currentToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
                        p.nextToken();
                        p.skipChildren();
                    }
                    items.add(skipped);
                }
            }
            return items;
        }

        RequestDocument.Snapshot snapshot() throws IOException {
            List<Kube.Node> nodes = null;
            List<Kube.Pod> pods = null;
            List<Kube.PodGroup> podGroups = null;
            List<Kube.Workload> workloads = null;
            List<Kube.PriorityClass> priorityClasses = null;
            List<Kube.PodDisruptionBudget> podDisruptionBudgets = null;
            List<KubeDra.DeviceClass> deviceClasses = null;
            List<KubeDra.ResourceSlice> resourceSlices = null;
            List<KubeDra.ResourceClaim> resourceClaims = null;
            List<KubeDra.ResourceClaimTemplate> resourceClaimTemplates = null;
            List<Kube.Job> jobs = null;
            List<Kube.CompositePodGroup> composites = null;
            List<Kube.HyperNode> hyperNodes = null;
            Class<?> r = RequestDocument.Snapshot.class;
            int seen = 0;
            for (JsonToken t = aheadNext(); t == JsonToken.FIELD_NAME; t = aheadNext()) {
                String f = p.currentName();
                JsonToken v = p.nextToken();
                if (progress != SnapshotProgress.NONE) {
                    progress.beforeField(f, new RequestDocument.Snapshot(nodes, pods, podGroups, workloads,
                            priorityClasses, podDisruptionBudgets, deviceClasses, resourceSlices, resourceClaims,
                            resourceClaimTemplates, jobs, composites, hyperNodes));
                }
                switch (f) {
                    case "nodes" -> {
                        seen = once(seen, 0);
                        nodes = listObject(v, f, (x, g) -> members(x, node));
                    }
                    case "pods" -> {
                        seen = once(seen, 1);
                        pods = listObject(v, f, (x, g) -> members(x, pod));
                    }
                    case "podGroups" -> {
                        seen = once(seen, 2);
                        podGroups = listObject(v, f, (x, g) -> in.other(x, g, r));
                    }
                    case "workloads" -> {
                        seen = once(seen, 3);
                        workloads = listObject(v, f, (x, g) -> in.other(x, g, r));
                    }
                    case "priorityClasses" -> {
                        seen = once(seen, 4);
                        priorityClasses = listObject(v, f, (x, g) -> in.other(x, g, r));
                    }
                    case "podDisruptionBudgets" -> {
                        seen = once(seen, 5);
                        podDisruptionBudgets = listObject(v, f, (x, g) -> in.other(x, g, r));
                    }
                    case "deviceClasses" -> {
                        seen = once(seen, 6);
                        deviceClasses = listObject(v, f, (x, g) -> in.other(x, g, r));
                    }
                    case "resourceSlices" -> {
                        seen = once(seen, 7);
                        resourceSlices = listObject(v, f, (x, g) -> members(x, slice));
                    }
                    case "resourceClaims" -> {
                        seen = once(seen, 8);
                        resourceClaims = listObject(v, f, (x, g) -> in.other(x, g, r));
                    }
                    case "resourceClaimTemplates" -> {
                        seen = once(seen, 9);
                        resourceClaimTemplates = listObject(v, f, (x, g) -> in.other(x, g, r));
                    }
                    case "jobs" -> {
                        seen = once(seen, 10);
                        jobs = listObject(v, f, (x, g) -> in.other(x, g, r));
                    }
                    case "compositePodGroups" -> {
                        seen = once(seen, 11);
                        composites = listObject(v, f, (x, g) -> in.other(x, g, r));
                    }
                    case "hyperNodes" -> {
                        seen = once(seen, 12);
                        hyperNodes = listObject(v, f, (x, g) -> in.other(x, g, r));
                    }
                    default -> p.skipChildren();
                }
            }
            return new RequestDocument.Snapshot(nodes, pods, podGroups, workloads, priorityClasses,
                    podDisruptionBudgets, deviceClasses, resourceSlices, resourceClaims, resourceClaimTemplates, jobs,
                    composites, hyperNodes);
        }

        /**
         * A list of the snapshot: as {@code array} reads it, or, for an object, the list object kubectl prints
         * ({@link KubeList}) whose {@code items} {@code array} reads. The wrapper's {@code apiVersion} and
         * {@code kind} must be strings or null, {@code items} an array or null, each at most once; anything else
         * leaves the fast path (as {@link KubeListDeserializer} would fail it or read it the same).
         */
        private <T> List<T> listObject(JsonToken v, String f, FieldReader.ValueBody<List<T>> array) throws IOException {
            if (v != JsonToken.START_OBJECT) {
                return array.read(v, f);
            }
            String apiVersion = null;
            String kind = null;
            List<T> items = null;
            int seen = 0;
            for (JsonToken t = aheadNext(); t == JsonToken.FIELD_NAME; t = aheadNext()) {
                String n = p.currentName();
                JsonToken x = p.nextToken();
                switch (n) {
                    case "apiVersion" -> {
                        seen = once(seen, 0);
                        apiVersion = wrapperText(x);
                    }
                    case "kind" -> {
                        seen = once(seen, 1);
                        kind = wrapperText(x);
                    }
                    case "items" -> {
                        seen = once(seen, 2);
                        if (x != JsonToken.START_ARRAY && x != JsonToken.VALUE_NULL) {
                            throw ByteTokens.bail();
                        }
                        items = x == JsonToken.VALUE_NULL ? null : array.read(x, f);
                    }
                    default -> p.skipChildren();
                }
            }
            return new KubeList<>(apiVersion, kind, items);
        }

        private String wrapperText(JsonToken x) throws IOException {
            if (x == JsonToken.VALUE_NULL) {
                return null;
            }
            if (x != JsonToken.VALUE_STRING) {
                throw ByteTokens.bail();
            }
            return p.getText();
        }

        /** The nodes or pods of the snapshot: an array of objects (or null); anything else leaves the fast path. */
        private <T> List<T> members(JsonToken v, FieldReader.ObjectBody<T> one) throws IOException {
            if (v == JsonToken.VALUE_NULL) {
                return null;
            }
            if (v != JsonToken.START_ARRAY) {
                throw ByteTokens.bail();
            }
            List<T> list = new ArrayList<>();
            for (JsonToken e = aheadNext(); e != JsonToken.END_ARRAY; e = aheadNext()) {
                if (e != JsonToken.START_OBJECT) {
                    throw ByteTokens.bail();
                }
                Object mark = p.mark();
                T member;
                try {
                    member = one.read();
                } catch (ByteTokens.Bail b) {
                    if (!p.reread(mark)) {
                        throw b;
                    }
                    member = one.read(); // ran past the bytes received: again, now that all are in
                }
                list.add(member);
            }
            return list;
        }

        /**
         * The next envelope token, once a window past it has arrived: between nodes and pods and around them, so a
         * body still arriving is read as it comes (a node or pod that runs past the window is read again whole).
         */
        JsonToken aheadNext() throws IOException {
            p.ahead();
            return p.nextToken();
        }

        /** Marks envelope field {@code bit} as read; a second occurrence leaves the fast path. */
        static int once(int seen, int bit) {
            if ((seen & 1 << bit) != 0) {
                throw ByteTokens.bail();
            }
            return seen | 1 << bit;
        }
    }

    /** The parts of a Node or Pod, as its record's constructor takes them. */
    @FunctionalInterface
    interface Parts<T, S, U> {
        T of(String apiVersion, String kind, Kube.ObjectMeta metadata, S spec, U status);
    }
}
