package dev.muster.adapter.kube;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.PropertyName;
import com.fasterxml.jackson.databind.deser.BeanDeserializerBase;
import com.fasterxml.jackson.databind.deser.BeanDeserializerModifier;
import com.fasterxml.jackson.databind.deser.SettableBeanProperty;
import com.fasterxml.jackson.databind.deser.std.DelegatingDeserializer;
import com.fasterxml.jackson.databind.exc.InvalidNullException;
import com.fasterxml.jackson.databind.module.SimpleModule;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Hand-written streaming decoders for the hot types of a request: {@link Kube.Node}, {@link Kube.Pod} and everything
 * under them (a {@code large} snapshot is 5,000 nodes and 50,000 pods, ~106 MB).
 *
 * <p>One {@link Reader}, two token sources ({@link Tokens}): {@link ByteTokens}, the fast path over the body's bytes,
 * which leaves anything unusual to the other by bailing out, and {@link JacksonTokens}, Jackson's parser with
 * databind behind every unusual token, reached through the module registered here. What follows describes the rules
 * both share; the Jackson source is the reference for them.
 *
 * <p>Why not plain databind: measured on the {@code large} request (bench/README.md, {@code bench/profile.sh large 8
 * decode}), binding these records through Jackson's creator-based record deserializer (PropertyValueBuffer,
 * reflective constructor calls, a LinkedHashMap per label/quantity map, a new String per value) cost 3.3× the
 * tokenizing floor, a third of it GC, where the target is ≤ 1.25×. The hot path must read tokens directly.
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
 * objects may be the same instance; both are invisible to readers of the records. With these, the {@code large} document's retained
 * size fell from 78 MB in 2.4 M objects to 34 MB in under 1 M.
 */
final class StreamingDecoders {
    private StreamingDecoders() {
    }

    /** Registers the streaming decoders for Node and Pod, each falling back to databind's for a non-object token. */
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
                return deserializer;
            }
        });
        return m;
    }

    /** The entry point for one Pod or Node; databind's own deserializer stays behind it for anything but an object. */
    static final class Top extends DelegatingDeserializer {
        private final boolean pod;

        Top(JsonDeserializer<?> fallback, boolean pod) {
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
            return pod ? r.pod() : r.node();
        }
    }

    /**
     * Per-request state: the parser, the context and the string/quantity tables. One per readValue call (kept as a
     * per-call context attribute), so nothing is shared between requests or threads.
     */
    static final class Reader {
        private static final Object KEY = Reader.class;
        private static final int MAX_CANONICAL = 1 << 16;

        private final Tokens p;
        private final Qty[] quantities;
        /** The last boxed numbers: a pod's numbers mostly repeat the previous pod's (300 s, port 8080). */
        private Integer lastInteger;
        private Long lastLong;
        /** The shared value records and lists of the request (see canonical). */
        private final HashMap<Object, Object> canonical = new HashMap<>();

        /** The entries of the map being read (label and quantity maps never nest). */
        private final SmallMap.Builder entries = new SmallMap.Builder();

        Reader(Tokens p) {
            this.p = p;
            this.quantities = new Qty[p.slots];
        }

        /** The Reader of this databind call (one per readValue: its tables are per request), reading from {@code p}. */
        static Reader of(JsonParser p, DeserializationContext ctxt) {
            Object o = ctxt.getAttribute(KEY);
            if (o instanceof Reader r && r.p instanceof JacksonTokens j && j.ctxt == ctxt) {
                j.parser = p;
                return r;
            }
            Reader r = new Reader(new JacksonTokens(p, ctxt));
            ctxt.setAttribute(KEY, r);
            return r;
        }

        // ------------------------------------------------------------ records

        Kube.Node node() throws IOException {
            Kube.ObjectMeta metadata = null;
            Kube.NodeSpec spec = null;
            Kube.NodeStatus status = null;
            for (JsonToken t = first(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
                String f = p.currentName();
                JsonToken v = p.nextToken();
                try {
                    switch (f) {
                        case "metadata" -> metadata = v == JsonToken.START_OBJECT ? meta() : other(v, f, Kube.Node.class);
                        case "spec" -> spec = v == JsonToken.START_OBJECT ? nodeSpec() : other(v, f, Kube.Node.class);
                        case "status" -> status = v == JsonToken.START_OBJECT ? nodeStatus() : other(v, f, Kube.Node.class);
                        default -> v = null; // unknown: skipped below
                    }
                } catch (Exception e) {
                    throw wrap(e, Kube.Node.class, f);
                }
                if (v == null) {
                    p.skipChildren(); // outside the path wrapping, as databind skips unknown properties
                }
            }
            return new Kube.Node(metadata, spec, status);
        }

        Kube.Pod pod() throws IOException {
            Kube.ObjectMeta metadata = null;
            Kube.PodSpec spec = null;
            Kube.PodStatus status = null;
            for (JsonToken t = first(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
                String f = p.currentName();
                JsonToken v = p.nextToken();
                try {
                    switch (f) {
                        case "metadata" -> metadata = v == JsonToken.START_OBJECT ? meta() : other(v, f, Kube.Pod.class);
                        case "spec" -> spec = v == JsonToken.START_OBJECT ? podSpec() : other(v, f, Kube.Pod.class);
                        case "status" -> status = v == JsonToken.START_OBJECT ? podStatus() : other(v, f, Kube.Pod.class);
                        default -> v = null; // unknown: skipped below
                    }
                } catch (Exception e) {
                    throw wrap(e, Kube.Pod.class, f);
                }
                if (v == null) {
                    p.skipChildren(); // outside the path wrapping, as databind skips unknown properties
                }
            }
            return new Kube.Pod(metadata, spec, status);
        }

        // ------------------------------------------------------------ the envelope (byte path only)

        /**
         * The whole request, on the byte path ({@link ByteTokens}); with Jackson, databind reads the envelope and
         * calls {@link Top} per Node and Pod. Lists other than nodes and pods are small and go to databind whole. A
         * repeated envelope field or anything but an object where one is expected leaves the fast path.
         */
        RequestDocument document() throws IOException {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw ByteTokens.bail();
            }
            RequestDocument.Snapshot snapshot = null;
            List<String> podGroups = null;
            RequestDocument.Options options = null;
            int seen = 0;
            for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = aheadNext()) {
                String f = p.currentName();
                JsonToken v = p.nextToken();
                switch (f) {
                    case "snapshot" -> {
                        seen = once(seen, 0);
                        snapshot = v == JsonToken.START_OBJECT ? snapshot() : other(v, f, RequestDocument.class);
                    }
                    case "podGroups" -> {
                        seen = once(seen, 1);
                        podGroups = other(v, f, RequestDocument.class);
                    }
                    case "options" -> {
                        seen = once(seen, 2);
                        options = other(v, f, RequestDocument.class);
                    }
                    default -> p.skipChildren();
                }
            }
            ((ByteTokens) p).expectEnd();
            return new RequestDocument(snapshot, podGroups, options);
        }

        private RequestDocument.Snapshot snapshot() throws IOException {
            List<Kube.Node> nodes = null;
            List<Kube.Pod> pods = null;
            List<Kube.PodGroup> podGroups = null;
            List<Kube.Workload> workloads = null;
            List<Kube.PriorityClass> priorityClasses = null;
            List<Kube.PodDisruptionBudget> podDisruptionBudgets = null;
            List<Kube.MetaOnly> deviceClasses = null;
            List<Kube.MetaOnly> resourceSlices = null;
            List<Kube.MetaOnly> resourceClaims = null;
            List<Kube.MetaOnly> resourceClaimTemplates = null;
            Class<?> r = RequestDocument.Snapshot.class;
            int seen = 0;
            for (JsonToken t = aheadNext(); t == JsonToken.FIELD_NAME; t = aheadNext()) {
                String f = p.currentName();
                JsonToken v = p.nextToken();
                switch (f) {
                    case "nodes" -> {
                        seen = once(seen, 0);
                        nodes = members(v, this::node);
                    }
                    case "pods" -> {
                        seen = once(seen, 1);
                        pods = members(v, this::pod);
                    }
                    case "podGroups" -> {
                        seen = once(seen, 2);
                        podGroups = other(v, f, r);
                    }
                    case "workloads" -> {
                        seen = once(seen, 3);
                        workloads = other(v, f, r);
                    }
                    case "priorityClasses" -> {
                        seen = once(seen, 4);
                        priorityClasses = other(v, f, r);
                    }
                    case "podDisruptionBudgets" -> {
                        seen = once(seen, 5);
                        podDisruptionBudgets = other(v, f, r);
                    }
                    case "deviceClasses" -> {
                        seen = once(seen, 6);
                        deviceClasses = other(v, f, r);
                    }
                    case "resourceSlices" -> {
                        seen = once(seen, 7);
                        resourceSlices = other(v, f, r);
                    }
                    case "resourceClaims" -> {
                        seen = once(seen, 8);
                        resourceClaims = other(v, f, r);
                    }
                    case "resourceClaimTemplates" -> {
                        seen = once(seen, 9);
                        resourceClaimTemplates = other(v, f, r);
                    }
                    default -> p.skipChildren();
                }
            }
            return new RequestDocument.Snapshot(nodes, pods, podGroups, workloads, priorityClasses,
                    podDisruptionBudgets, deviceClasses, resourceSlices, resourceClaims, resourceClaimTemplates);
        }

        /** The nodes or pods of the snapshot: an array of objects (or null); anything else leaves the fast path. */
        private <T> List<T> members(JsonToken v, ObjectBody<T> one) throws IOException {
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

        /** Sites of {@link Tokens#recall}: values that repeat byte for byte from object to object in real snapshots. */
        private static final int TOLERATIONS = 0;
        private static final int CONTAINERS = 1;
        private static final int AFFINITY = 2;
        private static final int NODE_QUANTITIES = 3;
        private static final int TAINTS = 4;
        static final int SITES = 5;

        /**
         * The value at this site read before from exactly the same bytes, or {@code read}'s (then offered for later).
         * Only the byte path recalls anything; with Jackson this is {@code read.read()}.
         */
        @SuppressWarnings("unchecked")
        private <T> T recalled(int site, JsonToken v, ValueBody<T> read) throws IOException {
            if (v != JsonToken.START_OBJECT && v != JsonToken.START_ARRAY) {
                return read.read(v);
            }
            Object seen = p.recall(site);
            if (seen != null) {
                return (T) seen;
            }
            T value = read.read(v);
            p.remember(site, value);
            return value;
        }

        /** Reads a value whose first token is {@code v}. */
        @FunctionalInterface
        private interface ValueBody<T> {
            T read(JsonToken v) throws IOException;
        }

        /**
         * The next envelope token, once a window past it has arrived: between nodes and pods and around them, so a
         * body still arriving is read as it comes (a node or pod that runs past the window is read again whole).
         */
        private JsonToken aheadNext() throws IOException {
            p.ahead();
            return p.nextToken();
        }

        /** Marks envelope field {@code bit} as read; a second occurrence leaves the fast path. */
        private static int once(int seen, int bit) {
            if ((seen & 1 << bit) != 0) {
                throw ByteTokens.bail();
            }
            return seen | 1 << bit;
        }

        private Kube.ObjectMeta meta() throws IOException {
            String name = null;
            String namespace = null;
            String uid = null;
            Map<String, String> labels = null;
            Map<String, String> annotations = null;
            String creationTimestamp = null;
            String deletionTimestamp = null;
            Long generation = null;
            for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
                String f = p.currentName();
                JsonToken v = p.nextToken();
                try {
                    switch (f) {
                        case "name" -> name = string(v, f, Kube.ObjectMeta.class);
                        case "namespace" -> namespace = shared(v, f, Kube.ObjectMeta.class);
                        case "uid" -> uid = string(v, f, Kube.ObjectMeta.class);
                        case "labels" -> labels = stringMap(v, f, Kube.ObjectMeta.class);
                        case "annotations" -> annotations = stringMap(v, f, Kube.ObjectMeta.class);
                        case "creationTimestamp" -> creationTimestamp = string(v, f, Kube.ObjectMeta.class);
                        case "deletionTimestamp" -> deletionTimestamp = string(v, f, Kube.ObjectMeta.class);
                        case "generation" -> generation = longValue(v, f, Kube.ObjectMeta.class);
                        default -> v = null; // unknown: skipped below
                    }
                } catch (Exception e) {
                    throw wrap(e, Kube.ObjectMeta.class, f);
                }
                if (v == null) {
                    p.skipChildren(); // outside the path wrapping, as databind skips unknown properties
                }
            }
            return new Kube.ObjectMeta(name, namespace, uid, labels, annotations, creationTimestamp, deletionTimestamp,
                    generation);
        }

        private Kube.NodeSpec nodeSpec() throws IOException {
            Boolean unschedulable = null;
            List<Kube.Taint> taints = null;
            for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
                String f = p.currentName();
                JsonToken v = p.nextToken();
                try {
                    switch (f) {
                        case "unschedulable" -> unschedulable = bool(v, f, Kube.NodeSpec.class);
                        case "taints" -> taints = recalled(TAINTS, v, first ->
                                sharedList(objects(first, f, Kube.NodeSpec.class, Kube.Taint.class, 2, this::taint)));
                        default -> v = null; // unknown: skipped below
                    }
                } catch (Exception e) {
                    throw wrap(e, Kube.NodeSpec.class, f);
                }
                if (v == null) {
                    p.skipChildren(); // outside the path wrapping, as databind skips unknown properties
                }
            }
            return canonical(new Kube.NodeSpec(unschedulable, taints));
        }

        private Kube.Taint taint() throws IOException {
            String key = null;
            String value = null;
            String effect = null;
            for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
                String f = p.currentName();
                JsonToken v = p.nextToken();
                try {
                    switch (f) {
                        case "key" -> key = shared(v, f, Kube.Taint.class);
                        case "value" -> value = shared(v, f, Kube.Taint.class);
                        case "effect" -> effect = shared(v, f, Kube.Taint.class);
                        default -> v = null; // unknown: skipped below
                    }
                } catch (Exception e) {
                    throw wrap(e, Kube.Taint.class, f);
                }
                if (v == null) {
                    p.skipChildren(); // outside the path wrapping, as databind skips unknown properties
                }
            }
            return new Kube.Taint(key, value, effect);
        }

        private Kube.NodeStatus nodeStatus() throws IOException {
            Map<String, Qty> allocatable = null;
            Map<String, Qty> capacity = null;
            for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
                String f = p.currentName();
                JsonToken v = p.nextToken();
                try {
                    switch (f) {
                        case "allocatable" -> allocatable = recalled(NODE_QUANTITIES, v, first ->
                                qtyMap(first, f, Kube.NodeStatus.class));
                        case "capacity" -> capacity = recalled(NODE_QUANTITIES, v, first ->
                                qtyMap(first, f, Kube.NodeStatus.class));
                        default -> v = null; // unknown: skipped below
                    }
                } catch (Exception e) {
                    throw wrap(e, Kube.NodeStatus.class, f);
                }
                if (v == null) {
                    p.skipChildren(); // outside the path wrapping, as databind skips unknown properties
                }
            }
            return canonical(new Kube.NodeStatus(allocatable, capacity));
        }

        private Kube.PodSpec podSpec() throws IOException {
            String nodeName = null;
            String schedulerName = null;
            Integer priority = null;
            String priorityClassName = null;
            String preemptionPolicy = null;
            Map<String, String> nodeSelector = null;
            Kube.Affinity affinity = null;
            List<Kube.Toleration> tolerations = null;
            List<Kube.Container> containers = null;
            List<Kube.Container> initContainers = null;
            Map<String, Qty> overhead = null;
            Kube.Resources resources = null;
            List<Kube.TopologySpreadConstraint> topologySpreadConstraints = null;
            List<Kube.SchedulingGate> schedulingGates = null;
            Kube.SchedulingGroup schedulingGroup = null;
            List<Kube.ClaimRef> resourceClaims = null;
            for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
                String f = p.currentName();
                JsonToken v = p.nextToken();
                try {
                    switch (f) {
                        case "nodeName" -> nodeName = shared(v, f, Kube.PodSpec.class);
                        case "schedulerName" -> schedulerName = shared(v, f, Kube.PodSpec.class);
                        case "priority" -> priority = integer(v, f, Kube.PodSpec.class);
                        case "priorityClassName" -> priorityClassName = shared(v, f, Kube.PodSpec.class);
                        case "preemptionPolicy" -> preemptionPolicy = shared(v, f, Kube.PodSpec.class);
                        case "nodeSelector" -> nodeSelector = stringMap(v, f, Kube.PodSpec.class);
                        case "affinity" -> affinity = v == JsonToken.START_OBJECT ? recalled(AFFINITY, v, first -> affinity())
                                : other(v, f, Kube.PodSpec.class);
                        case "tolerations" -> tolerations = recalled(TOLERATIONS, v, first -> sharedList(objects(first, f,
                                Kube.PodSpec.class, Kube.Toleration.class, 4, this::toleration)));
                        case "containers" -> containers = recalled(CONTAINERS, v, first -> sharedList(objects(first, f,
                                Kube.PodSpec.class, Kube.Container.class, 3, this::container)));
                        case "initContainers" -> initContainers = objects(v, f,
                                Kube.PodSpec.class, Kube.Container.class, 3, this::container);
                        case "overhead" -> overhead = qtyMap(v, f, Kube.PodSpec.class);
                        case "resources" -> resources = v == JsonToken.START_OBJECT ? resources() : other(v, f, Kube.PodSpec.class);
                        case "topologySpreadConstraints" ->
                                topologySpreadConstraints = list(v, f, Kube.TopologySpreadConstraint.class, Kube.PodSpec.class);
                        case "schedulingGates" -> schedulingGates = list(v, f, Kube.SchedulingGate.class, Kube.PodSpec.class);
                        case "schedulingGroup" -> schedulingGroup = v == JsonToken.START_OBJECT ? schedulingGroup()
                                : other(v, f, Kube.PodSpec.class);
                        case "resourceClaims" -> resourceClaims = list(v, f, Kube.ClaimRef.class, Kube.PodSpec.class);
                        default -> v = null; // unknown: skipped below
                    }
                } catch (Exception e) {
                    throw wrap(e, Kube.PodSpec.class, f);
                }
                if (v == null) {
                    p.skipChildren(); // outside the path wrapping, as databind skips unknown properties
                }
            }
            return new Kube.PodSpec(nodeName, schedulerName, priority, priorityClassName, preemptionPolicy, nodeSelector,
                    affinity, tolerations, containers, sharedList(initContainers), overhead, resources, frozen(topologySpreadConstraints),
                    frozen(schedulingGates), schedulingGroup, frozen(resourceClaims));
        }

        private Kube.Container container() throws IOException {
            String name = null;
            Kube.Resources resources = null;
            List<Kube.ContainerPort> ports = null;
            String restartPolicy = null;
            for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
                String f = p.currentName();
                JsonToken v = p.nextToken();
                try {
                    switch (f) {
                        case "name" -> name = shared(v, f, Kube.Container.class);
                        case "resources" -> resources = v == JsonToken.START_OBJECT ? resources() : other(v, f, Kube.Container.class);
                        case "ports" -> ports = objects(v, f,
                                Kube.Container.class, Kube.ContainerPort.class, 1, this::port);
                        case "restartPolicy" -> restartPolicy = shared(v, f, Kube.Container.class);
                        default -> v = null; // unknown: skipped below
                    }
                } catch (Exception e) {
                    throw wrap(e, Kube.Container.class, f);
                }
                if (v == null) {
                    p.skipChildren(); // outside the path wrapping, as databind skips unknown properties
                }
            }
            return canonical(new Kube.Container(name, resources, frozen(ports), restartPolicy));
        }

        /** Every pending member of a PodGroup has one: streamed, not bound by databind per pod. */
        private Kube.SchedulingGroup schedulingGroup() throws IOException {
            String podGroupName = null;
            for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
                String f = p.currentName();
                JsonToken v = p.nextToken();
                try {
                    if (f.equals("podGroupName")) {
                        podGroupName = shared(v, f, Kube.SchedulingGroup.class);
                    } else {
                        v = null; // unknown: skipped below
                    }
                } catch (Exception e) {
                    throw wrap(e, Kube.SchedulingGroup.class, f);
                }
                if (v == null) {
                    p.skipChildren(); // outside the path wrapping, as databind skips unknown properties
                }
            }
            return new Kube.SchedulingGroup(podGroupName);
        }

        private Kube.ContainerPort port() throws IOException {
            Integer containerPort = null;
            Integer hostPort = null;
            String protocol = null;
            String hostIP = null;
            for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
                String f = p.currentName();
                JsonToken v = p.nextToken();
                try {
                    switch (f) {
                        case "containerPort" -> containerPort = integer(v, f, Kube.ContainerPort.class);
                        case "hostPort" -> hostPort = integer(v, f, Kube.ContainerPort.class);
                        case "protocol" -> protocol = shared(v, f, Kube.ContainerPort.class);
                        case "hostIP" -> hostIP = shared(v, f, Kube.ContainerPort.class);
                        default -> v = null; // unknown: skipped below
                    }
                } catch (Exception e) {
                    throw wrap(e, Kube.ContainerPort.class, f);
                }
                if (v == null) {
                    p.skipChildren(); // outside the path wrapping, as databind skips unknown properties
                }
            }
            return new Kube.ContainerPort(containerPort, hostPort, protocol, hostIP);
        }

        private Kube.Resources resources() throws IOException {
            Map<String, Qty> requests = null;
            Map<String, Qty> limits = null;
            for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
                String f = p.currentName();
                JsonToken v = p.nextToken();
                try {
                    switch (f) {
                        case "requests" -> requests = qtyMap(v, f, Kube.Resources.class);
                        case "limits" -> limits = qtyMap(v, f, Kube.Resources.class);
                        default -> v = null; // unknown: skipped below
                    }
                } catch (Exception e) {
                    throw wrap(e, Kube.Resources.class, f);
                }
                if (v == null) {
                    p.skipChildren(); // outside the path wrapping, as databind skips unknown properties
                }
            }
            return new Kube.Resources(requests, limits);
        }

        private Kube.Toleration toleration() throws IOException {
            String key = null;
            String operator = null;
            String value = null;
            String effect = null;
            Long tolerationSeconds = null;
            for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
                String f = p.currentName();
                JsonToken v = p.nextToken();
                try {
                    switch (f) {
                        case "key" -> key = shared(v, f, Kube.Toleration.class);
                        case "operator" -> operator = shared(v, f, Kube.Toleration.class);
                        case "value" -> value = shared(v, f, Kube.Toleration.class);
                        case "effect" -> effect = shared(v, f, Kube.Toleration.class);
                        case "tolerationSeconds" -> tolerationSeconds = longValue(v, f, Kube.Toleration.class);
                        default -> v = null; // unknown: skipped below
                    }
                } catch (Exception e) {
                    throw wrap(e, Kube.Toleration.class, f);
                }
                if (v == null) {
                    p.skipChildren(); // outside the path wrapping, as databind skips unknown properties
                }
            }
            return new Kube.Toleration(key, operator, value, effect, tolerationSeconds);
        }

        private Kube.Affinity affinity() throws IOException {
            Kube.NodeAffinity nodeAffinity = null;
            Kube.PodAffinity podAffinity = null;
            Kube.PodAffinity podAntiAffinity = null;
            for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
                String f = p.currentName();
                JsonToken v = p.nextToken();
                try {
                    switch (f) {
                        case "nodeAffinity" -> nodeAffinity = v == JsonToken.START_OBJECT ? nodeAffinity()
                                : other(v, f, Kube.Affinity.class);
                        case "podAffinity" -> podAffinity = v == JsonToken.START_OBJECT ? podAffinity()
                                : other(v, f, Kube.Affinity.class);
                        case "podAntiAffinity" -> podAntiAffinity = v == JsonToken.START_OBJECT ? podAffinity()
                                : other(v, f, Kube.Affinity.class);
                        default -> v = null; // unknown: skipped below
                    }
                } catch (Exception e) {
                    throw wrap(e, Kube.Affinity.class, f);
                }
                if (v == null) {
                    p.skipChildren(); // outside the path wrapping, as databind skips unknown properties
                }
            }
            return canonical(new Kube.Affinity(nodeAffinity, podAffinity, podAntiAffinity));
        }

        private Kube.NodeAffinity nodeAffinity() throws IOException {
            Kube.NodeSelector required = null;
            List<Kube.PreferredSchedulingTerm> preferred = null;
            for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
                String f = p.currentName();
                JsonToken v = p.nextToken();
                try {
                    switch (f) {
                        case "requiredDuringSchedulingIgnoredDuringExecution" -> required =
                                v == JsonToken.START_OBJECT ? nodeSelector() : other(v, f, Kube.NodeAffinity.class);
                        case "preferredDuringSchedulingIgnoredDuringExecution" -> preferred = objects(v, f,
                                Kube.NodeAffinity.class, Kube.PreferredSchedulingTerm.class, 2, this::preferredTerm);
                        default -> v = null; // unknown: skipped below
                    }
                } catch (Exception e) {
                    throw wrap(e, Kube.NodeAffinity.class, f);
                }
                if (v == null) {
                    p.skipChildren(); // outside the path wrapping, as databind skips unknown properties
                }
            }
            return new Kube.NodeAffinity(required, frozen(preferred));
        }

        private Kube.NodeSelector nodeSelector() throws IOException {
            List<Kube.NodeSelectorTerm> terms = null;
            for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
                String f = p.currentName();
                JsonToken v = p.nextToken();
                try {
                    if (f.equals("nodeSelectorTerms")) {
                        terms = objects(v, f,
                                Kube.NodeSelector.class, Kube.NodeSelectorTerm.class, 1, this::nodeSelectorTerm);
                    } else {
                        v = null; // unknown: skipped below
                    }
                } catch (Exception e) {
                    throw wrap(e, Kube.NodeSelector.class, f);
                }
                if (v == null) {
                    p.skipChildren(); // outside the path wrapping, as databind skips unknown properties
                }
            }
            return new Kube.NodeSelector(frozen(terms));
        }

        private Kube.NodeSelectorTerm nodeSelectorTerm() throws IOException {
            List<Kube.Requirement> matchExpressions = null;
            List<Kube.Requirement> matchFields = null;
            for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
                String f = p.currentName();
                JsonToken v = p.nextToken();
                try {
                    switch (f) {
                        case "matchExpressions" -> matchExpressions = objects(v, f,
                                Kube.NodeSelectorTerm.class, Kube.Requirement.class, 2, this::requirement);
                        case "matchFields" -> matchFields = objects(v, f,
                                Kube.NodeSelectorTerm.class, Kube.Requirement.class, 2, this::requirement);
                        default -> v = null; // unknown: skipped below
                    }
                } catch (Exception e) {
                    throw wrap(e, Kube.NodeSelectorTerm.class, f);
                }
                if (v == null) {
                    p.skipChildren(); // outside the path wrapping, as databind skips unknown properties
                }
            }
            return new Kube.NodeSelectorTerm(frozen(matchExpressions), frozen(matchFields));
        }

        private Kube.PreferredSchedulingTerm preferredTerm() throws IOException {
            Integer weight = null;
            Kube.NodeSelectorTerm preference = null;
            for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
                String f = p.currentName();
                JsonToken v = p.nextToken();
                try {
                    switch (f) {
                        case "weight" -> weight = integer(v, f, Kube.PreferredSchedulingTerm.class);
                        case "preference" -> preference = v == JsonToken.START_OBJECT ? nodeSelectorTerm()
                                : other(v, f, Kube.PreferredSchedulingTerm.class);
                        default -> v = null; // unknown: skipped below
                    }
                } catch (Exception e) {
                    throw wrap(e, Kube.PreferredSchedulingTerm.class, f);
                }
                if (v == null) {
                    p.skipChildren(); // outside the path wrapping, as databind skips unknown properties
                }
            }
            return new Kube.PreferredSchedulingTerm(weight, preference);
        }

        private Kube.Requirement requirement() throws IOException {
            String key = null;
            String operator = null;
            List<String> values = null;
            for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
                String f = p.currentName();
                JsonToken v = p.nextToken();
                try {
                    switch (f) {
                        case "key" -> key = shared(v, f, Kube.Requirement.class);
                        case "operator" -> operator = shared(v, f, Kube.Requirement.class);
                        case "values" -> values = strings(v, f, Kube.Requirement.class);
                        default -> v = null; // unknown: skipped below
                    }
                } catch (Exception e) {
                    throw wrap(e, Kube.Requirement.class, f);
                }
                if (v == null) {
                    p.skipChildren(); // outside the path wrapping, as databind skips unknown properties
                }
            }
            return new Kube.Requirement(key, operator, frozen(values));
        }

        private Kube.PodAffinity podAffinity() throws IOException {
            List<Kube.PodAffinityTerm> required = null;
            List<Kube.WeightedPodAffinityTerm> preferred = null;
            for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
                String f = p.currentName();
                JsonToken v = p.nextToken();
                try {
                    switch (f) {
                        case "requiredDuringSchedulingIgnoredDuringExecution" -> required = objects(v, f,
                                Kube.PodAffinity.class, Kube.PodAffinityTerm.class, 1, this::podAffinityTerm);
                        case "preferredDuringSchedulingIgnoredDuringExecution" -> preferred = objects(v, f,
                                Kube.PodAffinity.class, Kube.WeightedPodAffinityTerm.class, 2, this::weightedTerm);
                        default -> v = null; // unknown: skipped below
                    }
                } catch (Exception e) {
                    throw wrap(e, Kube.PodAffinity.class, f);
                }
                if (v == null) {
                    p.skipChildren(); // outside the path wrapping, as databind skips unknown properties
                }
            }
            return new Kube.PodAffinity(frozen(required), frozen(preferred));
        }

        private Kube.WeightedPodAffinityTerm weightedTerm() throws IOException {
            Integer weight = null;
            Kube.PodAffinityTerm term = null;
            for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
                String f = p.currentName();
                JsonToken v = p.nextToken();
                try {
                    switch (f) {
                        case "weight" -> weight = integer(v, f, Kube.WeightedPodAffinityTerm.class);
                        case "podAffinityTerm" -> term = v == JsonToken.START_OBJECT ? podAffinityTerm()
                                : other(v, f, Kube.WeightedPodAffinityTerm.class);
                        default -> v = null; // unknown: skipped below
                    }
                } catch (Exception e) {
                    throw wrap(e, Kube.WeightedPodAffinityTerm.class, f);
                }
                if (v == null) {
                    p.skipChildren(); // outside the path wrapping, as databind skips unknown properties
                }
            }
            return new Kube.WeightedPodAffinityTerm(weight, term);
        }

        private Kube.PodAffinityTerm podAffinityTerm() throws IOException {
            Kube.LabelSelector labelSelector = null;
            List<String> namespaces = null;
            Kube.LabelSelector namespaceSelector = null;
            String topologyKey = null;
            List<String> matchLabelKeys = null;
            List<String> mismatchLabelKeys = null;
            for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
                String f = p.currentName();
                JsonToken v = p.nextToken();
                try {
                    switch (f) {
                        case "labelSelector" -> labelSelector = v == JsonToken.START_OBJECT ? labelSelector()
                                : other(v, f, Kube.PodAffinityTerm.class);
                        case "namespaces" -> namespaces = strings(v, f, Kube.PodAffinityTerm.class);
                        case "namespaceSelector" -> namespaceSelector = v == JsonToken.START_OBJECT ? labelSelector()
                                : other(v, f, Kube.PodAffinityTerm.class);
                        case "topologyKey" -> topologyKey = shared(v, f, Kube.PodAffinityTerm.class);
                        case "matchLabelKeys" -> matchLabelKeys = strings(v, f, Kube.PodAffinityTerm.class);
                        case "mismatchLabelKeys" -> mismatchLabelKeys = strings(v, f, Kube.PodAffinityTerm.class);
                        default -> v = null; // unknown: skipped below
                    }
                } catch (Exception e) {
                    throw wrap(e, Kube.PodAffinityTerm.class, f);
                }
                if (v == null) {
                    p.skipChildren(); // outside the path wrapping, as databind skips unknown properties
                }
            }
            return new Kube.PodAffinityTerm(labelSelector, frozen(namespaces), namespaceSelector, topologyKey, frozen(matchLabelKeys),
                    frozen(mismatchLabelKeys));
        }

        private Kube.LabelSelector labelSelector() throws IOException {
            Map<String, String> matchLabels = null;
            List<Kube.Requirement> matchExpressions = null;
            for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
                String f = p.currentName();
                JsonToken v = p.nextToken();
                try {
                    switch (f) {
                        case "matchLabels" -> matchLabels = stringMap(v, f, Kube.LabelSelector.class);
                        case "matchExpressions" -> matchExpressions = objects(v, f,
                                Kube.LabelSelector.class, Kube.Requirement.class, 2, this::requirement);
                        default -> v = null; // unknown: skipped below
                    }
                } catch (Exception e) {
                    throw wrap(e, Kube.LabelSelector.class, f);
                }
                if (v == null) {
                    p.skipChildren(); // outside the path wrapping, as databind skips unknown properties
                }
            }
            return new Kube.LabelSelector(matchLabels, frozen(matchExpressions));
        }

        private Kube.PodStatus podStatus() throws IOException {
            String phase = null;
            String nominatedNodeName = null;
            for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
                String f = p.currentName();
                JsonToken v = p.nextToken();
                try {
                    switch (f) {
                        case "phase" -> phase = shared(v, f, Kube.PodStatus.class);
                        case "nominatedNodeName" -> nominatedNodeName = shared(v, f, Kube.PodStatus.class);
                        default -> v = null; // unknown: skipped below
                    }
                } catch (Exception e) {
                    throw wrap(e, Kube.PodStatus.class, f);
                }
                if (v == null) {
                    p.skipChildren(); // outside the path wrapping, as databind skips unknown properties
                }
            }
            return canonical(new Kube.PodStatus(phase, nominatedNodeName));
        }

        // ------------------------------------------------------------ collections

        private Map<String, String> stringMap(JsonToken v, String field, Class<?> r) throws IOException {
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

        private Map<String, Qty> qtyMap(JsonToken v, String field, Class<?> r) throws IOException {
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

        private List<String> strings(JsonToken v, String field, Class<?> r) throws IOException {
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
        private <T> List<T> list(JsonToken v, String field, Class<T> type, Class<?> r) throws IOException {
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
        private <T> T element(JsonToken e, String field, Class<T> type) throws IOException {
            if (e == JsonToken.VALUE_NULL) {
                throw p.contentNull(field, type);
            }
            return type.cast(p.value(type));
        }

        // ------------------------------------------------------------ scalars

        /** A field whose values rarely repeat (names, uids, timestamps): a new String. */
        private String string(JsonToken v, String f, Class<?> r) throws IOException {
            if (v == JsonToken.VALUE_STRING) {
                return p.getText();
            }
            return v == JsonToken.VALUE_NULL ? null : (String) p.field(r, f);
        }

        /** A field whose values repeat across objects: shared within the request. */
        private String shared(JsonToken v, String f, Class<?> r) throws IOException {
            if (v == JsonToken.VALUE_STRING) {
                return p.sharedText();
            }
            return v == JsonToken.VALUE_NULL ? null : (String) p.field(r, f);
        }

        private Integer integer(JsonToken v, String f, Class<?> r) throws IOException {
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

        private Long longValue(JsonToken v, String f, Class<?> r) throws IOException {
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

        private Boolean bool(JsonToken v, String f, Class<?> r) throws IOException {
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
        private <T> T canonical(T r) {
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
        private static <T> List<T> frozen(List<T> list) {
            return SmallList.copyOf(list);
        }

        /** A list whose equals recur from object to object (tolerations, containers, taints): shared. */
        private <T> List<T> sharedList(List<T> list) {
            return list == null ? null : canonical(SmallList.copyOf(list));
        }

        /** The current string or integer token as a quantity; identical texts share one Qty within the request. */
        private Qty qty() throws IOException {
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

        private JsonToken first() throws IOException {
            JsonToken t = p.currentToken();
            return t == JsonToken.START_OBJECT ? p.nextToken() : t;
        }

        /**
         * A field whose token is not the usual one: null (absent), or whatever databind's own property of that record
         * makes of it (a wrong-type failure, mostly), so every such case behaves and reads exactly as before.
         */
        @SuppressWarnings("unchecked")
        private <T> T other(JsonToken v, String f, Class<?> r) throws IOException {
            return v == JsonToken.VALUE_NULL ? null : (T) p.field(r, f);
        }

        @SuppressWarnings("unchecked")
        /** Reads one object whose START_OBJECT was just read. */
        @FunctionalInterface
        private interface ObjectBody<T> {
            T read() throws IOException;
        }

        /**
         * A list of objects, each read by {@code one}; anything but an array (or null) goes to databind for field
         * {@code f} of {@code r}, a non-object element to {@link #element}, and failures get the element's index.
         */
        private <T> List<T> objects(JsonToken v, String f, Class<?> r, Class<T> type, int capacity, ObjectBody<T> one)
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

        private <T> List<T> otherList(JsonToken v, String f, Class<?> r) throws IOException {
            return v == JsonToken.VALUE_NULL ? null : (List<T>) p.field(r, f);
        }

        /** A path step for a record field, as BeanDeserializerBase.wrapAndThrow adds it. */
        private static JsonMappingException wrap(Throwable t, Class<?> record, String field) throws IOException {
            bailThrough(t);
            if (t instanceof IOException io && !(io instanceof JsonProcessingException)) {
                throw io;
            }
            throw JsonMappingException.wrapWithPath(t, record, field);
        }

        /** A path step for a list index, as CollectionDeserializer adds it (every exception). */
        private static JsonMappingException wrapElement(Throwable t, List<?> list, int index) throws IOException {
            bailThrough(t);
            throw JsonMappingException.wrapWithPath(t, list, index);
        }

        /** A path step for a map key, as MapDeserializer (ContainerDeserializerBase.wrapAndThrow) adds it. */
        private static JsonMappingException wrapEntry(Throwable t, Map<?, ?> map, String key) throws IOException {
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

    /**
     * Where a {@link Reader} takes its tokens from: Jackson's parser ({@link JacksonTokens}, databind behind every
     * unusual token) or {@link ByteTokens} (the fast path, which bails out on every unusual token). The names follow
     * {@link JsonParser}'s, so the Reader reads the same either way.
     */
    abstract static class Tokens {
        /** Slots of the per-request table of shared strings (and the Reader's quantities, by the same slot). */
        final int slots;

        Tokens(int slots) {
            this.slots = slots;
        }

        /** Table slots for a body of {@code length} bytes: a power of two from 64 to 16,384, one per 32 bytes. */
        static int slots(long length) {
            return Integer.highestOneBit((int) Math.max(64, Math.min(1 << 14, length >> 5)));
        }

        /** The slot of the last {@link #sharedText()} (-1: too long to share). */
        int lastSlot;

        abstract JsonToken nextToken() throws IOException;

        abstract JsonToken currentToken();

        /**
         * The current field name, for switching on: the byte path answers a name no decoder field has with a
         * placeholder (see {@link #currentKey()}).
         */
        abstract String currentName() throws IOException;

        /** The current field name as a map key: always the name itself. */
        String currentKey() throws IOException {
            return currentName();
        }

        abstract void skipChildren() throws IOException;

        /** The current string (or number) token's text, a new String. */
        abstract String getText() throws IOException;

        /** The current VALUE_STRING, shared within the request; sets {@link #lastSlot}. */
        abstract String sharedText() throws IOException;

        abstract JsonParser.NumberType getNumberType() throws IOException;

        abstract int getIntValue() throws IOException;

        abstract long getLongValue() throws IOException;

        /** What databind's property {@code f} of record {@code r} makes of the current token (and what it spans). */
        abstract Object field(Class<?> r, String f) throws IOException;

        /** What databind makes of the current token as a {@code type} (and what it spans). */
        abstract Object value(Class<?> type) throws IOException;

        /** What databind's {@code Nulls.FAIL} content provider throws for a null element or map value. */
        abstract IOException contentNull(String field, Class<?> type);

        /**
         * With the current token a START_OBJECT or START_ARRAY: the value read at {@code site} before from the same
         * bytes at the same depth, the tokens then moved past it; or null (Jackson: always null).
         */
        Object recall(int site) {
            return null;
        }

        /** After a recall that found nothing and the value's last token: offers {@code value} for later recalls. */
        void remember(int site, Object value) {
        }

        /** Before a node or pod of the byte path: waits for bytes still arriving (Jackson: nothing). */
        void ahead() {
        }

        /** Where a node or pod begins, for {@link #reread}. */
        Object mark() {
            return null;
        }

        /** Whether to read the node or pod begun at {@code mark} again after a bail-out (bytes were missing). */
        boolean reread(Object mark) {
            return false;
        }
    }

    /** Databind for the byte path: binds a slice of the body (one value) as a field of a record, or as a type. */
    interface Fallback {
        /** Databind's value of field {@code f} of {@code record} from the bytes; {@link ByteTokens.Bail} if it fails. */
        Object field(byte[] body, int offset, int length, Class<?> record, String f);

        /** Databind's value of {@code type} from the bytes; {@link ByteTokens.Bail} if it fails. */
        Object value(byte[] body, int offset, int length, Class<?> type);
    }

    /** Tokens from Jackson's parser, with databind's own deserializers for everything unusual. */
    static final class JacksonTokens extends Tokens {
        private static final int MAX_SHARED_LENGTH = 64;

        final DeserializationContext ctxt;
        JsonParser parser;
        private final String[] strings = new String[slots];
        private final char[][] keys = new char[slots][];

        JacksonTokens(JsonParser parser, DeserializationContext ctxt) {
            super(1 << 14);
            this.parser = parser;
            this.ctxt = ctxt;
        }

        @Override
        JsonToken nextToken() throws IOException {
            return parser.nextToken();
        }

        @Override
        JsonToken currentToken() {
            return parser.currentToken();
        }

        @Override
        String currentName() throws IOException {
            return parser.currentName();
        }

        @Override
        void skipChildren() throws IOException {
            parser.skipChildren();
        }

        @Override
        String getText() throws IOException {
            return parser.getText();
        }

        @Override
        JsonParser.NumberType getNumberType() throws IOException {
            return parser.getNumberType();
        }

        @Override
        int getIntValue() throws IOException {
            return parser.getIntValue();
        }

        @Override
        long getLongValue() throws IOException {
            return parser.getLongValue();
        }

        /**
         * Looked up by its characters in a direct-mapped table (a slot keeps the last string that hashed to it), so a
         * repeat allocates nothing.
         */
        @Override
        String sharedText() throws IOException {
            JsonParser p = parser;
            char[] buf = p.getTextCharacters();
            int off = p.getTextOffset();
            int len = p.getTextLength();
            if (len > MAX_SHARED_LENGTH) {
                lastSlot = -1;
                return new String(buf, off, len);
            }
            // hash of the length, the first and the last four characters: cheap, and enough to spread the values
            // that repeat (names, zones, quantities differ mostly at one end)
            int h = len;
            int end = off + len;
            for (int i = off, stop = Math.min(end, off + 4); i < stop; i++) {
                h = 31 * h + buf[i];
            }
            for (int i = Math.max(off + 4, end - 4); i < end; i++) {
                h = 31 * h + buf[i];
            }
            h *= 0x9E3779B9;
            int slot = (h ^ (h >>> 16)) & (slots - 1);
            lastSlot = slot;
            char[] k = keys[slot];
            if (k != null && Arrays.equals(k, 0, k.length, buf, off, end)) {
                return strings[slot];
            }
            String s = new String(buf, off, len);
            keys[slot] = Arrays.copyOfRange(buf, off, end);
            strings[slot] = s;
            return s;
        }

        @Override
        Object field(Class<?> r, String f) throws IOException {
            JsonDeserializer<?> d = ctxt.findRootValueDeserializer(ctxt.constructType(r));
            if (d instanceof Top top) {
                d = top.getDelegatee();
            }
            SettableBeanProperty prop = d instanceof BeanDeserializerBase b ? b.findProperty(f) : null;
            if (prop == null) {
                throw new IllegalStateException("no databind property " + r.getSimpleName() + "." + f);
            }
            return prop.deserialize(parser, ctxt);
        }

        @Override
        Object value(Class<?> type) throws IOException {
            return ctxt.findRootValueDeserializer(ctxt.constructType(type)).deserialize(parser, ctxt);
        }

        @Override
        IOException contentNull(String field, Class<?> type) {
            return InvalidNullException.from(ctxt, PropertyName.construct(field), ctxt.constructType(type));
        }
    }
}
