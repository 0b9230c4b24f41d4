package dev.muster.adapter.rest;

import com.fasterxml.jackson.core.io.SerializedString;
import dev.muster.core.decision.Assignment;
import dev.muster.core.decision.Decision;
import dev.muster.core.decision.DecisionResult;
import dev.muster.core.decision.Explanation;
import dev.muster.core.decision.PodMessage;
import dev.muster.core.decision.PodStatus;
import dev.muster.core.model.Condition;
import dev.muster.core.model.GroupRef;
import dev.muster.core.model.PodRef;

import java.util.List;

/**
 * Writes the {@code 200} body of {@code POST /v1/decisions} straight from the core result ({@link JsonBytes}), without
 * building {@link DecisionResponse}'s records and serializing them by reflection. The bytes are
 * those of {@code DecisionResource.WRITER.writeValueAsBytes(DecisionResponse.of(result))}: each object's fields in its
 * record's {@code @JsonPropertyOrder}, a field left out exactly where the record's {@code @JsonInclude} leaves it
 * out ({@code NON_NULL}: null; {@code NON_EMPTY}: null, {@code ""} or an empty list or map; otherwise written, as
 * {@code null} when null), lists always present where the records make them {@code []}. The records stay the
 * OpenAPI schema and the reference this writer is tested against; a field added there must be added here.
 * <p>
 * The lists the core copies ({@code List.copyOf}: random access) are walked by index, which leaves no iterator per
 * list and decision behind; the explanation's own lists, which the core does not copy, by iterator.
 */
public final class DecisionResponseWriter {
    private static final SerializedString POD = new SerializedString("pod");
    static final SerializedString NAME = new SerializedString("name");
    private static final SerializedString NODES = new SerializedString("nodes");
    static final SerializedString MESSAGE = new SerializedString("message");
    private static final SerializedString STATUS = new SerializedString("status");
    private static final SerializedString PLACEMENTS = new SerializedString("placements");
    private static final SerializedString PLACEMENT = new SerializedString("placement");
    private static final SerializedString REASONS = new SerializedString("reasons");
    private static final SerializedString REASON = new SerializedString("reason");
    static final SerializedString DECISIONS = new SerializedString("decisions");
    private static final SerializedString PODS = new SerializedString("pods");
    private static final SerializedString NAMESPACE = new SerializedString("namespace");
    private static final SerializedString POD_GROUP = new SerializedString("podGroup");
    private static final SerializedString COMPOSITE_POD_GROUP = new SerializedString("compositePodGroup");
    private static final SerializedString OUTCOME = new SerializedString("outcome");
    private static final SerializedString UNSCHEDULABLE_PODS = new SerializedString("unschedulablePods");
    private static final SerializedString VICTIMS = new SerializedString("victims");
    private static final SerializedString NOMINATIONS = new SerializedString("nominations");
    private static final SerializedString CLAIMS = new SerializedString("claims");
    private static final SerializedString CONDITIONS = new SerializedString("conditions");
    private static final SerializedString EXPLANATION = new SerializedString("explanation");
    private static final SerializedString NODE = new SerializedString("node");
    private static final SerializedString TYPE = new SerializedString("type");
    private static final SerializedString OBSERVED_GENERATION = new SerializedString("observedGeneration");
    private static final SerializedString LAST_TRANSITION_TIME = new SerializedString("lastTransitionTime");
    private static final SerializedString MEMBERS = new SerializedString("members");
    private static final SerializedString SEARCH = new SerializedString("search");
    private static final SerializedString WARNINGS = new SerializedString("warnings");
    private static final SerializedString SHORTAGE = new SerializedString("shortage");
    private static final SerializedString RAN = new SerializedString("ran");
    private static final SerializedString STEPS = new SerializedString("steps");
    private static final SerializedString BUDGET = new SerializedString("budget");
    private static final SerializedString EXHAUSTED = new SerializedString("exhausted");
    private static final SerializedString FOUND = new SerializedString("found");
    private static final SerializedString TIER = new SerializedString("tier");
    private static final SerializedString FEASIBLE = new SerializedString("feasible");
    private static final SerializedString PRUNED = new SerializedString("pruned");
    private static final SerializedString SCORE = new SerializedString("score");
    private static final SerializedString PLACED = new SerializedString("placed");
    private static final SerializedString NEEDED = new SerializedString("needed");
    private static final SerializedString FITS = new SerializedString("fits");
    private static final SerializedString CLOSEST = new SerializedString("closest");
    private static final SerializedString EXCLUDED = new SerializedString("excluded");
    private static final SerializedString REMEDIES = new SerializedString("remedies");

    private DecisionResponseWriter() {
    }

    /** The body for {@code result}: {@code {"decisions":[...],"pods":[...]}}. */
    public static byte[] write(DecisionResult result) {
        return bytes(g -> body(g, result));
    }

    private static void body(JsonBytes g, DecisionResult result) {
        begin(g);
        for (int i = 0, n = result.decisions().size(); i < n; i++) {
            decision(g, result.decisions().get(i));
        }
        end(g, result.pods());
    }

    /** The body up to its first decision: {@code {"decisions":[}. */
    static void begin(JsonBytes g) {
        g.writeStartObject();
        g.writeFieldName(DECISIONS);
        g.writeStartArray();
    }

    /** The body after its last decision: {@code ],"pods":[...]}}. */
    static void end(JsonBytes g, List<PodStatus> pods) {
        g.writeEndArray();
        g.writeFieldName(PODS);
        array(g, pods, DecisionResponseWriter::podStatus);
        g.writeEndObject();
    }

    /** What a body writes. */
    @FunctionalInterface
    interface Body {
        void write(JsonBytes g);
    }

    /** The bytes {@code body} writes. */
    static byte[] bytes(Body body) {
        return written(body).toByteArray();
    }

    /** The answer to {@code result} as the chunks it was written into ({@link JsonBytes#toBuffer}). */
    static io.vertx.core.buffer.Buffer buffer(DecisionResult result) {
        return written(g -> body(g, result)).toBuffer();
    }

    static JsonBytes written(Body body) {
        JsonBytes g = new JsonBytes();
        body.write(g);
        return g;
    }

    /** Writes one element of a JSON array. */
    @FunctionalInterface
    interface Item<T> {
        void write(JsonBytes g, T item);
    }

    /** {@code [item...]}, by index (the core's lists are random access). */
    static <T> void array(JsonBytes g, List<? extends T> items, Item<T> item) {
        g.writeStartArray();
        for (int i = 0, n = items.size(); i < n; i++) {
            item.write(g, items.get(i));
        }
        g.writeEndArray();
    }

    /** {@code [Decision...]}, as {@code DecisionResponse.decisions} and {@code ChoiceResponse.Choice.decisions}. */
    static void decisions(JsonBytes g, List<Decision> decisions) {
        array(g, decisions, DecisionResponseWriter::decision);
    }

    /** {@code DecisionDto}: NON_NULL; its lists are never null. */
    static void decision(JsonBytes g, Decision d) {
        g.writeStartObject();
        if (d.podGroup() != null) {
            g.writeFieldName(POD_GROUP);
            ref(g, d.podGroup());
        }
        if (d.pod() != null) {
            g.writeFieldName(POD);
            ref(g, d.pod());
        }
        if (d.compositePodGroup() != null) {
            g.writeFieldName(COMPOSITE_POD_GROUP);
            ref(g, d.compositePodGroup());
        }
        if (d.outcome() != null) {
            g.writeFieldName(OUTCOME);
            g.writeString(d.outcome().name());
        }
        g.writeFieldName(PLACEMENTS);
        podNodes(g, d.placements());
        g.writeFieldName(UNSCHEDULABLE_PODS);
        g.writeStartArray();
        for (int i = 0, n = d.unschedulablePods().size(); i < n; i++) {
            PodMessage m = d.unschedulablePods().get(i);
            g.writeStartObject(); // PodMessageDto: NON_NULL
            if (m.pod() != null) {
                g.writeFieldName(POD);
                ref(g, m.pod());
            }
            optional(g, MESSAGE, m.message());
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeFieldName(VICTIMS);
        podNodes(g, d.victims());
        g.writeFieldName(NOMINATIONS);
        podNodes(g, d.nominations());
        g.writeFieldName(CLAIMS);
        ClaimWriter.claims(g, d.claims());
        g.writeFieldName(CONDITIONS);
        array(g, d.conditions(), DecisionResponseWriter::condition);
        optional(g, MESSAGE, d.message());
        if (d.explanation() != null) {
            g.writeFieldName(EXPLANATION);
            explanation(g, d.explanation());
        }
        g.writeEndObject();
    }

    /** {@code PodStatusDto}: NON_NULL. */
    private static void podStatus(JsonBytes g, PodStatus p) {
        g.writeStartObject();
        if (p.pod() != null) {
            g.writeFieldName(POD);
            ref(g, p.pod());
        }
        optional(g, STATUS, p.status());
        optional(g, MESSAGE, p.message());
        g.writeEndObject();
    }

    /** {@code ConditionDto}: NON_NULL. */
    private static void condition(JsonBytes g, Condition c) {
        g.writeStartObject();
        optional(g, TYPE, c.type());
        optional(g, STATUS, c.status());
        optional(g, REASON, c.reason());
        optional(g, MESSAGE, c.message());
        if (c.observedGeneration() != null) {
            g.writeFieldName(OBSERVED_GENERATION);
            g.writeNumber(c.observedGeneration().longValue());
        }
        optional(g, LAST_TRANSITION_TIME, c.lastTransitionTime());
        g.writeEndObject();
    }

    /** {@code [PodNode...]}: each {@code {"pod":Ref,"node":...}}, both always written. */
    private static void podNodes(JsonBytes g, List<Assignment> in) {
        g.writeStartArray();
        for (int i = 0, n = in.size(); i < n; i++) {
            Assignment a = in.get(i);
            g.writeStartObject();
            g.writeFieldName(POD);
            if (a.pod() == null) {
                g.writeNull();
            } else {
                ref(g, a.pod());
            }
            field(g, NODE, a.node());
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    /** {@code ExplanationDto}: every field written but {@code warnings} (NON_EMPTY) and {@code shortage} (NON_NULL). */
    private static void explanation(JsonBytes g, Explanation e) {
        g.writeStartObject();
        g.writeFieldName(NODES);
        g.writeNumber(e.nodes());
        g.writeFieldName(REASONS);
        reasons(g, e.reasons());
        g.writeFieldName(MEMBERS);
        g.writeStartArray();
        if (e.members() != null) {
            for (Explanation.Member m : e.members()) {
                g.writeStartObject();
                g.writeFieldName(POD);
                if (m.pod() == null) {
                    g.writeNull();
                } else {
                    ref(g, m.pod());
                }
                g.writeFieldName(REASONS);
                reasons(g, m.reasons());
                g.writeEndObject();
            }
        }
        g.writeEndArray();
        g.writeFieldName(SEARCH);
        Explanation.Search s = e.search();
        if (s == null) {
            g.writeNull();
        } else {
            g.writeStartObject();
            g.writeFieldName(RAN);
            g.writeBoolean(s.ran());
            g.writeFieldName(STEPS);
            g.writeNumber(s.steps());
            g.writeFieldName(BUDGET);
            g.writeNumber(s.budget());
            g.writeFieldName(EXHAUSTED);
            g.writeBoolean(s.exhausted());
            g.writeFieldName(FOUND);
            g.writeBoolean(s.found());
            g.writeEndObject();
        }
        field(g, PLACEMENT, e.placement());
        g.writeFieldName(PLACEMENTS);
        array(g, e.placements() == null ? List.of() : e.placements(), DecisionResponseWriter::candidate);
        if (!e.warnings().isEmpty()) {
            g.writeFieldName(WARNINGS);
            strings(g, e.warnings());
        }
        if (e.shortage() != null) {
            g.writeFieldName(SHORTAGE);
            shortage(g, e.shortage());
        }
        g.writeEndObject();
    }

    /** {@code PlacementCandidate}: every field written. */
    private static void candidate(JsonBytes g, Explanation.Candidate c) {
        g.writeStartObject();
        field(g, NAME, c.name());
        g.writeFieldName(TIER);
        g.writeNumber(c.tier());
        g.writeFieldName(NODES);
        g.writeNumber(c.nodes());
        g.writeFieldName(FEASIBLE);
        g.writeBoolean(c.feasible());
        g.writeFieldName(PRUNED);
        g.writeBoolean(c.pruned());
        g.writeFieldName(SCORE);
        g.writeNumber(c.score());
        g.writeFieldName(PLACED);
        g.writeNumber(c.placed());
        field(g, MESSAGE, c.message());
        g.writeEndObject();
    }

    /** {@code ShortageDto}: every field written. */
    private static void shortage(JsonBytes g, Explanation.Shortage s) {
        g.writeStartObject();
        g.writeFieldName(NEEDED);
        g.writeNumber(s.needed());
        g.writeFieldName(FITS);
        g.writeStartArray();
        for (Explanation.Fit f : s.fits()) {
            g.writeStartObject();
            field(g, PLACEMENT, f.placement());
            g.writeFieldName(FITS);
            g.writeNumber(f.fits());
            g.writeEndObject();
        }
        g.writeEndArray();
        field(g, CLOSEST, s.closest());
        g.writeFieldName(EXCLUDED);
        reasons(g, s.excluded());
        g.writeFieldName(REMEDIES);
        strings(g, s.remedies());
        g.writeEndObject();
    }

    /** {@code [ReasonCount...]}, {@code []} for null. */
    private static void reasons(JsonBytes g, List<Explanation.ReasonCount> in) {
        g.writeStartArray();
        if (in != null) {
            for (Explanation.ReasonCount r : in) {
                g.writeStartObject();
                field(g, REASON, r.reason());
                g.writeFieldName(NODES);
                g.writeNumber(r.nodes());
                g.writeEndObject();
            }
        }
        g.writeEndArray();
    }

    /** {@code Ref} of a pod or a claim: both fields always written. */
    static void ref(JsonBytes g, PodRef p) {
        ref(g, p.namespace(), p.name());
    }

    private static void ref(JsonBytes g, GroupRef r) {
        ref(g, r.namespace(), r.name());
    }

    private static void ref(JsonBytes g, String namespace, String name) {
        g.writeStartObject();
        field(g, NAMESPACE, namespace);
        field(g, NAME, name);
        g.writeEndObject();
    }

    /** {@code [String...]}: a {@code List<String>} as Jackson writes it. */
    static void strings(JsonBytes g, List<String> values) {
        g.writeStartArray();
        for (int i = 0, n = values.size(); i < n; i++) {
            String v = values.get(i);
            if (v == null) {
                g.writeNull();
            } else {
                g.writeString(v);
            }
        }
        g.writeEndArray();
    }

    /** A field always written: {@code null} when the value is. */
    static void field(JsonBytes g, SerializedString name, String value) {
        g.writeFieldName(name);
        if (value == null) {
            g.writeNull();
        } else {
            g.writeString(value);
        }
    }

    /** A NON_NULL field: left out when null. */
    static void optional(JsonBytes g, SerializedString name, String value) {
        if (value != null) {
            g.writeFieldName(name);
            g.writeString(value);
        }
    }

    /** A NON_EMPTY string field: left out when null or {@code ""}. */
    static void nonEmpty(JsonBytes g, SerializedString name, String value) {
        if (value != null && !value.isEmpty()) {
            g.writeFieldName(name);
            g.writeString(value);
        }
    }
}
