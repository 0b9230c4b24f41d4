package dev.muster.adapter.kube;

import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.type.LogicalType;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import org.yaml.snakeyaml.LoaderOptions;

import java.io.CharConversionException;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * The strict decoders for request bodies, one for JSON and one for YAML. Built here, explicitly, never taken
 * from CDI: Quarkus's application ObjectMapper (and any {@code ObjectMapperCustomizer}) must not loosen them.
 *
 * <p>Strict means what the API server's decoder does and Jackson does not by default: a string
 * where a number or boolean belongs ({@code "minCount": "2"}), a number or boolean where a string belongs,
 * a fraction for an integer ({@code 2.5}), trailing bytes after the document, invalid UTF-8 and integers out of
 * range and nulls inside lists or maps are all 400s. Unknown fields are ignored. Explicit stream limits bound nesting depth, string and number
 * length and document length, so no body can make the parser use unbounded memory.
 */
public final class KubeCodec {

    /** Parser limits, from configuration ({@code muster.limits.*}). */
    public record Limits(int maxNestingDepth, int maxStringLength, int maxNumberLength, long maxDocumentLength) {
        public static final Limits DEFAULT = new Limits(64, 4 * 1024 * 1024, 64, 128L * 1024 * 1024);
    }

    private final ObjectReader json;
    private final ObjectReader yaml;
    private final Limits limits;
    /** Databind for the byte path's unusual values; null when the byte path is off (plain databind). */
    private final Slices slices;

    public KubeCodec(Limits limits) {
        this(limits, true);
    }

    /**
     * @param streaming whether JSON binds Node and Pod through {@link StreamingDecoders} (always, but for the tests
     *                  that compare it with plain databind on the same inputs)
     */
    KubeCodec(Limits limits, boolean streaming) {
        StreamReadConstraints constraints = StreamReadConstraints.builder()
                .maxNestingDepth(limits.maxNestingDepth())
                .maxStringLength(limits.maxStringLength())
                .maxNumberLength(limits.maxNumberLength())
                .maxDocumentLength(limits.maxDocumentLength())
                .build();
        JsonFactory jsonFactory = JsonFactory.builder().streamReadConstraints(constraints).build();
        JsonMapper.Builder jsonBuilder = strict(JsonMapper.builder(jsonFactory));
        if (streaming) {
            jsonBuilder.addModule(StreamingDecoders.module());
        }
        ObjectMapper jsonMapper = jsonBuilder.build();
        LoaderOptions loader = new LoaderOptions();
        loader.setCodePointLimit((int) Math.min(Integer.MAX_VALUE, limits.maxDocumentLength()));
        loader.setNestingDepthLimit(limits.maxNestingDepth());
        loader.setMaxAliasesForCollections(50);
        loader.setAllowRecursiveKeys(false);
        YAMLFactory yamlFactory = YAMLFactory.builder().loaderOptions(loader).streamReadConstraints(constraints).build();
        ObjectMapper yamlMapper = strict(YAMLMapper.builder(yamlFactory)).build();
        configureCoercions(jsonMapper);
        configureCoercions(yamlMapper);
        this.json = jsonMapper.readerFor(RequestDocument.class);
        this.yaml = yamlMapper.readerFor(RequestDocument.class);
        this.limits = limits;
        this.slices = streaming ? new Slices(jsonMapper) : null;
    }

    /** The parser limits this codec applies. */
    public Limits limits() {
        return limits;
    }

    private static <M extends ObjectMapper, B extends com.fasterxml.jackson.databind.cfg.MapperBuilder<M, B>> B strict(B b) {
        return b.disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                .disable(DeserializationFeature.ACCEPT_SINGLE_VALUE_AS_ARRAY)
                .disable(DeserializationFeature.ACCEPT_EMPTY_STRING_AS_NULL_OBJECT)
                .disable(DeserializationFeature.ACCEPT_EMPTY_ARRAY_AS_NULL_OBJECT)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .enable(DeserializationFeature.FAIL_ON_NUMBERS_FOR_ENUMS)
                // a null inside a list or map ("taints": [null]) has no Kubernetes meaning: a wrong type
                .defaultSetterInfo(JsonSetter.Value.forContentNulls(Nulls.FAIL));
    }

    private static void configureCoercions(ObjectMapper m) {
        // numbers and booleans are not strings; "" is not a number, a boolean or an object
        m.coercionConfigFor(LogicalType.Textual)
                .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
        for (LogicalType t : new LogicalType[]{LogicalType.Integer, LogicalType.Float, LogicalType.Boolean,
                LogicalType.POJO, LogicalType.Map, LogicalType.Collection}) {
            m.coercionConfigFor(t)
                    .setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.String, CoercionAction.Fail);
        }
        m.coercionConfigFor(LogicalType.Integer).setCoercion(CoercionInputShape.Float, CoercionAction.Fail);
    }

    /**
     * A JSON request. The byte path ({@link ByteTokens}) reads it first; whatever it does not accept (an error, or
     * anything outside its conservative subset of JSON) is read again by Jackson, so every failure carries Jackson's
     * message and field path.
     */
    public RequestDocument readJson(byte[] body) throws DecodeException {
        return readJson(body, Arrival.WHOLE);
    }

    /**
     * As {@link #readJson(byte[])} on a body still arriving into {@code body}: the byte path reads what has arrived
     * and waits for the rest as it goes; the Jackson path waits for the whole body first.
     */
    public RequestDocument readJson(byte[] body, Arrival arrival) throws DecodeException {
        return readJson(body, arrival, SnapshotProgress.NONE);
    }

    /**
     * As {@link #readJson(byte[], Arrival)}, telling {@code progress} how far the snapshot's decoding has come (byte
     * path only).
     */
    public RequestDocument readJson(byte[] body, Arrival arrival, SnapshotProgress progress) throws DecodeException {
        RequestDocument fast;
        try {
            fast = readBytes(body, arrival, 1 << 20, progress);
        } catch (RuntimeException e) {
            fast = null; // a defect of the fast path must not fail a request Jackson reads
        }
        if (fast != null) {
            return fast;
        }
        if (body != null) {
            arrival.await(body.length); // the request's own error if it never arrives whole
        }
        return readJackson(body);
    }

    /** The byte path alone: the document, or null where it leaves the request to Jackson. */
    RequestDocument readBytes(byte[] body) {
        return readBytes(body, Arrival.WHOLE, 1 << 20);
    }

    /** The byte path on a body still arriving, waiting {@code window} bytes ahead of each node or pod. */
    RequestDocument readBytes(byte[] body, Arrival arrival, int window) {
        return readBytes(body, arrival, window, SnapshotProgress.NONE);
    }

    private RequestDocument readBytes(byte[] body, Arrival arrival, int window, SnapshotProgress progress) {
        if (slices == null || body == null || body.length == 0 || body.length > limits.maxDocumentLength()) {
            return null;
        }
        try {
            ByteTokens tokens = new ByteTokens(body, limits, slices, arrival, window);
            return new StreamingDecoders.Reader(tokens, progress).document();
        } catch (ByteTokens.Bail e) {
            return null;
        } catch (IOException e) {
            throw new IllegalStateException("the byte path does not do I/O", e);
        }
    }

    /**
     * A file of {@code kubectl get -o json} on the byte path: its {@code kind} and items (Nodes, Pods and
     * ResourceSlices; an item of another kind is {@code other}'s marker for it), or null where the file must go to
     * Jackson (another shape or order, a kind {@code other} gives no marker for, an error: Jackson reports it).
     */
    public KubeList<Object> readKubectlList(byte[] body, java.util.function.Function<String, Object> other) {
        if (slices == null || body == null || body.length == 0 || body.length > limits.maxDocumentLength()) {
            return null;
        }
        try {
            return new StreamingDecoders.Reader(new ByteTokens(body, limits, slices)).kubectlList(other);
        } catch (IOException | RuntimeException e) {
            return null; // a bail-out, or a defect of the fast path, which must not fail a file Jackson reads
        }
    }

    /** The byte path's tokens over a body, with this codec's limits and databind. */
    ByteTokens tokens(byte[] body) {
        return new ByteTokens(body, limits, slices);
    }

    /** The Jackson path alone (streaming decoders for Node and Pod unless built without them). */
    RequestDocument readJackson(byte[] body) throws DecodeException {
        return read(json, body, "JSON");
    }

    public RequestDocument readYaml(byte[] body) throws DecodeException {
        return read(yaml, body, "YAML");
    }

    /**
     * What a body without a snapshot says it is ({@link PastedObjects}), read as JSON or YAML; null when it does not
     * say. Only for a decoded request whose {@code snapshot} is missing: it reads the body once more.
     */
    public PastedObjects pasted(byte[] body, boolean asYaml) {
        if (body == null || body.length == 0) {
            return null;
        }
        return PastedObjects.read((asYaml ? yaml : json).getFactory(), body);
    }

    /** Reads any type with the strict JSON rules (the extender's snapshot file uses {@link RequestDocument.Snapshot}). */
    public <T> T readJson(byte[] body, Class<T> type) throws DecodeException {
        try {
            return json.forType(type).readValue(body);
        } catch (IOException | RuntimeException e) {
            throw translate(e, "JSON");
        }
    }

    /**
     * A {@code POST /v1/cluster-choices} body: on the byte path when it has the usual shape (its snapshots' nodes,
     * pods and slices read as a decision's are), else, and for every error, by Jackson with its messages.
     */
    public ChoiceDocument readChoiceJson(byte[] body) throws DecodeException {
        ChoiceDocument fast = readChoiceBytes(body);
        return fast != null ? fast : readJson(body, ChoiceDocument.class);
    }

    /** The byte path alone: the choice, or null where it leaves the body to Jackson. */
    ChoiceDocument readChoiceBytes(byte[] body) {
        if (slices == null || body == null || body.length == 0 || body.length > limits.maxDocumentLength()) {
            return null;
        }
        try {
            return new StreamingDecoders.Reader(new ByteTokens(body, limits, slices)).choiceDocument();
        } catch (IOException | RuntimeException e) {
            return null; // a bail-out, or an error Jackson reports with its path
        }
    }

    /** Reads any type with the strict YAML rules. */
    public <T> T readYaml(byte[] body, Class<T> type) throws DecodeException {
        try {
            return yaml.forType(type).readValue(body);
        } catch (IOException | RuntimeException e) {
            throw translate(e, "YAML");
        }
    }

    private static RequestDocument read(ObjectReader reader, byte[] body, String format) throws DecodeException {
        if (body == null || body.length == 0) {
            throw new DecodeException("request body is empty: send one " + format + " document", null, null);
        }
        RequestDocument doc;
        try {
            doc = reader.withAttribute(StreamingDecoders.Reader.BODY_LENGTH, body.length).readValue(body);
        } catch (IOException | RuntimeException e) {
            throw translate(e, format);
        }
        if (doc == null) {
            // a literal null is well-formed but not a request object: a wrong type, like a string or an array
            throw new DecodeException("request body must be a " + format + " object, not null", null, null);
        }
        return doc;
    }

    /** Jackson's and SnakeYAML's failures as a message that names the field and says what was expected. */
    static DecodeException translate(Throwable e, String format) {
        String field = null;
        String what;
        if (e instanceof JsonMappingException jme) {
            field = path(jme.getPath());
            if (jme instanceof InvalidFormatException ife) {
                what = "cannot decode " + describe(ife.getValue()) + " as " + typeName(ife.getTargetType());
            } else if (jme instanceof MismatchedInputException mie && mie.getTargetType() != null) {
                String msg = String.valueOf(jme.getOriginalMessage());
                if (msg.startsWith("Trailing token")) {
                    field = null;
                    what = "trailing content after the " + format + " document";
                } else {
                    what = "wrong type: expected " + typeName(mie.getTargetType()) + location(jme.getLocation());
                }
            } else {
                what = firstLine(jme.getOriginalMessage()) + location(jme.getLocation());
            }
        } else if (e instanceof StreamConstraintsException sce) {
            what = "request exceeds a parser limit: " + firstLine(sce.getOriginalMessage());
        } else if (e instanceof InputCoercionException ice) {
            what = "number out of range for " + typeName(ice.getTargetType()) + location(ice.getLocation());
        } else if (e instanceof JsonEOFException eof) {
            what = "unexpected end of the " + format + " document" + location(eof.getLocation());
        } else if (e instanceof JsonProcessingException jpe) {
            what = "body is not valid " + format + ": " + firstLine(jpe.getOriginalMessage()) + location(jpe.getLocation());
        } else if (e instanceof CharConversionException || isMalformedInput(e)) {
            what = "body is not valid UTF-8: " + firstLine(e.getMessage());
        } else {
            what = "body is not valid " + format + ": " + firstLine(e.getMessage());
        }
        String message = field == null || field.isEmpty() ? what : field + ": " + what;
        return new DecodeException(message, field == null || field.isEmpty() ? null : field, e);
    }

    private static boolean isMalformedInput(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.nio.charset.CharacterCodingException || t instanceof CharConversionException) {
                return true;
            }
            String m = t.getMessage();
            if (m != null && (m.contains("UTF-8") || m.contains("special characters are not allowed"))) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }

    /** {@code snapshot.pods[3].spec.containers[0].resources.requests[cpu]}: Kubernetes' field path notation. */
    static String path(List<JsonMappingException.Reference> refs) {
        StringBuilder sb = new StringBuilder(64);
        for (JsonMappingException.Reference r : refs) {
            if (r.getIndex() >= 0) {
                sb.append('[').append(r.getIndex()).append(']');
            } else if (r.getFieldName() != null) {
                if (r.getFrom() instanceof Map) {
                    sb.append('[').append(r.getFieldName()).append(']');
                } else {
                    if (sb.length() > 0) {
                        sb.append('.');
                    }
                    sb.append(r.getFieldName());
                }
            }
        }
        return sb.toString();
    }

    private static String typeName(Class<?> t) {
        if (t == null) {
            return "a value of another type";
        }
        if (t == Integer.class || t == int.class || t == Long.class || t == long.class) {
            return "an integer";
        }
        if (t == Boolean.class || t == boolean.class) {
            return "a boolean";
        }
        if (t == String.class) {
            return "a string";
        }
        if (t == Qty.class) {
            return "a quantity (string or number)";
        }
        if (List.class.isAssignableFrom(t)) {
            return "an array";
        }
        return "an object";
    }

    private static String describe(Object v) {
        return v instanceof String s ? "\"" + (s.length() > 64 ? s.substring(0, 64) + "..." : s) + "\"" : String.valueOf(v);
    }

    private static String location(JsonLocation loc) {
        if (loc == null || loc.getLineNr() < 0) {
            return "";
        }
        return " (line " + loc.getLineNr() + ", column " + loc.getColumnNr() + ")";
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        String line = nl < 0 ? s : s.substring(0, nl);
        return line.length() > 300 ? line.substring(0, 300) + "..." : line;
    }

    /**
     * The byte path's databind: a slice of the body holding one value, bound with the same strict mapper as a root
     * value of the record field's declared type (Kube records' JSON names are their component names). A root list or
     * map has no property to carry {@code Nulls.FAIL}, so a null inside one leaves the fast path here.
     */
    private static final class Slices implements ByteTokens.Fallback {
        private final ObjectMapper mapper;
        private final java.util.concurrent.ConcurrentHashMap<String, ObjectReader> fields =
                new java.util.concurrent.ConcurrentHashMap<>();

        Slices(ObjectMapper mapper) {
            this.mapper = mapper;
        }

        @Override
        public Object field(byte[] body, int offset, int length, Class<?> record, String f) {
            ObjectReader r;
            try {
                r = fields.computeIfAbsent(record.getName() + '.' + f, k -> {
                    for (java.lang.reflect.RecordComponent c : record.getRecordComponents()) {
                        if (c.getName().equals(f)) {
                            return mapper.readerFor(mapper.getTypeFactory().constructType(c.getGenericType()));
                        }
                    }
                    throw new IllegalStateException("no field " + record.getSimpleName() + "." + f);
                });
            } catch (RuntimeException e) {
                // databind cannot bind some types as a root value (a Map with Nulls.FAIL content, in Jackson 2.22):
                // the Jackson path reads those
                throw ByteTokens.bail();
            }
            return read(r, body, offset, length);
        }

        @Override
        public Object value(byte[] body, int offset, int length, Class<?> type) {
            ObjectReader r;
            try {
                r = mapper.readerFor(type);
            } catch (RuntimeException e) {
                throw ByteTokens.bail();
            }
            return read(r, body, offset, length);
        }

        private static Object read(ObjectReader reader, byte[] body, int offset, int length) {
            Object v;
            try {
                v = reader.readValue(body, offset, length);
            } catch (IOException | RuntimeException e) {
                throw ByteTokens.bail();
            }
            if (v instanceof java.util.Collection<?> c) {
                for (Object o : c) {
                    if (o == null) {
                        throw ByteTokens.bail();
                    }
                }
            } else if (v instanceof Map<?, ?> m) {
                for (Object o : m.values()) {
                    if (o == null) {
                        throw ByteTokens.bail();
                    }
                }
            }
            return v;
        }
    }
}
