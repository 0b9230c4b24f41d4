package dev.muster.adapter.rest;

import com.fasterxml.jackson.core.io.SerializedString;
import dev.muster.core.decision.ClaimDecision;
import dev.muster.core.dra.AllocationResult;
import dev.muster.core.dra.ClaimConsumer;
import dev.muster.core.dra.ResourceClaimSpec;
import dev.muster.core.model.NodeSelectorRequirement;
import dev.muster.core.model.NodeSelectorTerm;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static dev.muster.adapter.rest.DecisionResponseWriter.NAME;
import static dev.muster.adapter.rest.DecisionResponseWriter.field;
import static dev.muster.adapter.rest.DecisionResponseWriter.nonEmpty;
import static dev.muster.adapter.rest.DecisionResponseWriter.optional;
import static dev.muster.adapter.rest.DecisionResponseWriter.strings;

/**
 * A decision's {@code claims[]} for {@link DecisionResponseWriter}: {@code ClaimDto} and the allocation records
 * under it ({@code resource.k8s.io/v1} AllocationResult), field for field as {@link DecisionResponse} encodes them.
 * Lists walked by index, as there.
 */
final class ClaimWriter {
    private static final SerializedString CLAIM = new SerializedString("claim");
    private static final SerializedString GENERATED_FROM = new SerializedString("generatedFrom");
    private static final SerializedString ALLOCATION = new SerializedString("allocation");
    private static final SerializedString RESERVED_FOR = new SerializedString("reservedFor");
    private static final SerializedString DEVICES = new SerializedString("devices");
    private static final SerializedString NODE_SELECTOR = new SerializedString("nodeSelector");
    private static final SerializedString RESULTS = new SerializedString("results");
    private static final SerializedString CONFIG = new SerializedString("config");
    private static final SerializedString REQUEST = new SerializedString("request");
    private static final SerializedString DRIVER = new SerializedString("driver");
    private static final SerializedString POOL = new SerializedString("pool");
    private static final SerializedString DEVICE = new SerializedString("device");
    private static final SerializedString ADMIN_ACCESS = new SerializedString("adminAccess");
    private static final SerializedString TOLERATIONS = new SerializedString("tolerations");
    private static final SerializedString SHARE_ID = new SerializedString("shareID");
    private static final SerializedString CONSUMED_CAPACITY = new SerializedString("consumedCapacity");
    private static final SerializedString BINDING_CONDITIONS = new SerializedString("bindingConditions");
    private static final SerializedString BINDING_FAILURE_CONDITIONS =
            new SerializedString("bindingFailureConditions");
    private static final SerializedString KEY = new SerializedString("key");
    private static final SerializedString OPERATOR = new SerializedString("operator");
    private static final SerializedString VALUE = new SerializedString("value");
    private static final SerializedString EFFECT = new SerializedString("effect");
    private static final SerializedString TOLERATION_SECONDS = new SerializedString("tolerationSeconds");
    private static final SerializedString SOURCE = new SerializedString("source");
    private static final SerializedString REQUESTS = new SerializedString("requests");
    private static final SerializedString OPAQUE = new SerializedString("opaque");
    private static final SerializedString PARAMETERS = new SerializedString("parameters");
    private static final SerializedString NODE_SELECTOR_TERMS = new SerializedString("nodeSelectorTerms");
    private static final SerializedString MATCH_EXPRESSIONS = new SerializedString("matchExpressions");
    private static final SerializedString MATCH_FIELDS = new SerializedString("matchFields");
    private static final SerializedString VALUES = new SerializedString("values");
    private static final SerializedString API_GROUP = new SerializedString("apiGroup");
    private static final SerializedString RESOURCE = new SerializedString("resource");
    private static final SerializedString UID = new SerializedString("uid");

    private ClaimWriter() {
    }

    /** {@code [ClaimDto...]}. */
    static void claims(JsonBytes g, List<ClaimDecision> claims) {
        DecisionResponseWriter.array(g, claims, ClaimWriter::claim);
    }

    /** {@code ClaimDto}: NON_NULL; {@code allocation} and {@code reservedFor} always there. */
    private static void claim(JsonBytes g, ClaimDecision c) {
        g.writeStartObject();
        if (c.claim() != null) {
            g.writeFieldName(CLAIM);
            DecisionResponseWriter.ref(g, c.claim());
        }
        optional(g, GENERATED_FROM, c.generatedFrom());
        g.writeFieldName(ALLOCATION);
        allocation(g, c.allocation());
        g.writeFieldName(RESERVED_FOR);
        g.writeStartArray();
        for (int i = 0, n = c.reservedFor().size(); i < n; i++) {
            ClaimConsumer r = c.reservedFor().get(i);
            g.writeStartObject(); // Consumer: NON_NULL, an empty uid left out
            optional(g, API_GROUP, r.apiGroup());
            optional(g, RESOURCE, r.resource());
            optional(g, NAME, r.name());
            if (!r.uid().isEmpty()) {
                g.writeFieldName(UID);
                g.writeString(r.uid());
            }
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    /** {@code Allocation}: NON_NULL, so {@code nodeSelector} only when the allocation is not usable everywhere. */
    private static void allocation(JsonBytes g, AllocationResult a) {
        g.writeStartObject();
        g.writeFieldName(DEVICES);
        g.writeStartObject(); // DeviceAllocation: both lists always written
        g.writeFieldName(RESULTS);
        DecisionResponseWriter.array(g, a.devices(), ClaimWriter::device);
        g.writeFieldName(CONFIG);
        g.writeStartArray();
        for (int i = 0, n = a.config().size(); i < n; i++) {
            AllocationResult.AllocationConfig k = a.config().get(i);
            g.writeStartObject(); // DeviceConfig: NON_EMPTY
            nonEmpty(g, SOURCE, k.source().name());
            if (!k.requests().isEmpty()) {
                g.writeFieldName(REQUESTS);
                strings(g, k.requests());
            }
            g.writeFieldName(OPAQUE);
            g.writeStartObject(); // OpaqueConfig: both written, the parameters as the raw JSON they are
            field(g, DRIVER, k.opaque().driver());
            g.writeFieldName(PARAMETERS);
            g.writeRawValue(k.opaque().parameters());
            g.writeEndObject();
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
        if (a.nodeSelector() != null) {
            g.writeFieldName(NODE_SELECTOR);
            g.writeStartObject();
            g.writeFieldName(NODE_SELECTOR_TERMS);
            g.writeStartArray();
            for (int i = 0, n = a.nodeSelector().size(); i < n; i++) {
                NodeSelectorTerm t = a.nodeSelector().get(i);
                g.writeStartObject(); // NodeSelectorTermDto: NON_EMPTY
                requirements(g, MATCH_EXPRESSIONS, t.matchExpressions());
                requirements(g, MATCH_FIELDS, t.matchFields());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        }
        g.writeEndObject();
    }

    /** {@code Device}: NON_EMPTY, so an empty string, list or map is left out; {@code adminAccess} only when true. */
    private static void device(JsonBytes g, AllocationResult.DeviceResult d) {
        g.writeStartObject();
        nonEmpty(g, REQUEST, d.request());
        nonEmpty(g, DRIVER, d.driver());
        nonEmpty(g, POOL, d.pool());
        nonEmpty(g, DEVICE, d.device());
        if (d.adminAccess()) {
            g.writeFieldName(ADMIN_ACCESS);
            g.writeBoolean(true);
        }
        if (!d.tolerations().isEmpty()) {
            g.writeFieldName(TOLERATIONS);
            g.writeStartArray();
            for (int i = 0, n = d.tolerations().size(); i < n; i++) {
                ResourceClaimSpec.Toleration t = d.tolerations().get(i);
                g.writeStartObject(); // DeviceToleration: NON_EMPTY
                nonEmpty(g, KEY, t.key());
                nonEmpty(g, OPERATOR, t.operator().name());
                nonEmpty(g, VALUE, t.value());
                nonEmpty(g, EFFECT, t.effect());
                if (t.tolerationSeconds() != null) {
                    g.writeFieldName(TOLERATION_SECONDS);
                    g.writeNumber(t.tolerationSeconds().longValue());
                }
                g.writeEndObject();
            }
            g.writeEndArray();
        }
        nonEmpty(g, SHARE_ID, d.shareID());
        if (!d.consumedCapacity().isEmpty()) {
            g.writeFieldName(CONSUMED_CAPACITY);
            sortedMap(g, d.consumedCapacity());
        }
        if (!d.bindingConditions().isEmpty()) {
            g.writeFieldName(BINDING_CONDITIONS);
            strings(g, d.bindingConditions());
        }
        if (!d.bindingFailureConditions().isEmpty()) {
            g.writeFieldName(BINDING_FAILURE_CONDITIONS);
            strings(g, d.bindingFailureConditions());
        }
        g.writeEndObject();
    }

    /** {@code [Requirement...]} under {@code name}, left out when empty (NON_EMPTY). */
    private static void requirements(JsonBytes g, SerializedString name, List<NodeSelectorRequirement> rs) {
        if (rs.isEmpty()) {
            return;
        }
        g.writeFieldName(name);
        g.writeStartArray();
        for (int i = 0, n = rs.size(); i < n; i++) {
            NodeSelectorRequirement r = rs.get(i);
            g.writeStartObject(); // Requirement: NON_EMPTY
            nonEmpty(g, KEY, r.key());
            nonEmpty(g, OPERATOR, r.operator().name());
            if (!r.values().isEmpty()) {
                g.writeFieldName(VALUES);
                strings(g, r.values());
            }
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    /**
     * A {@code Map<String, String>} as the writer's ORDER_MAP_ENTRIES_BY_KEYS writes it: by key in natural order, a
     * null value as {@code null}. (Jackson would keep a SortedMap's own order; a device result's map never is one.)
     */
    private static void sortedMap(JsonBytes g, Map<String, String> map) {
        g.writeStartObject();
        if (map.size() == 1) {
            for (Map.Entry<String, String> e : map.entrySet()) {
                entry(g, e.getKey(), e.getValue());
            }
        } else {
            String[] keys = map.keySet().toArray(new String[0]);
            Arrays.sort(keys);
            for (String k : keys) {
                entry(g, k, map.get(k));
            }
        }
        g.writeEndObject();
    }

    private static void entry(JsonBytes g, String key, String value) {
        g.writeFieldName(key);
        if (value == null) {
            g.writeNull();
        } else {
            g.writeString(value);
        }
    }
}
