package dev.muster.adapter.rest;

import com.fasterxml.jackson.core.io.SerializedString;
import dev.muster.core.choice.ClusterChoice;

import java.util.List;

import static dev.muster.adapter.rest.DecisionResponseWriter.field;

/**
 * Writes the {@code 200} body of {@code POST /v1/cluster-choices} as {@link DecisionResponseWriter} does: the bytes of
 * {@code DecisionResource.WRITER.writeValueAsBytes(ChoiceResponse.of(choices))}, each choice's decisions written as
 * {@link DecisionResponseWriter} writes them. {@link ChoiceResponse} stays the schema and the tests' reference.
 */
final class ChoiceResponseWriter {
    private static final SerializedString CHOICES = new SerializedString("choices");
    private static final SerializedString CLUSTER = new SerializedString("cluster");
    private static final SerializedString RANK = new SerializedString("rank");
    private static final SerializedString FIT = new SerializedString("fit");
    private static final SerializedString VICTIMS = new SerializedString("victims");
    private static final SerializedString SCORE = new SerializedString("score");

    private ChoiceResponseWriter() {
    }

    /** {@code {"choices":[Choice...]}}; a {@code Choice} has no inclusion rule, so a null field is written null. */
    static byte[] write(List<ClusterChoice> choices) {
        return DecisionResponseWriter.bytes(g -> {
            g.writeStartObject();
            g.writeFieldName(CHOICES);
            DecisionResponseWriter.array(g, choices, ChoiceResponseWriter::choice);
            g.writeEndObject();
        });
    }

    private static void choice(JsonBytes g, ClusterChoice c) {
        g.writeStartObject();
        field(g, CLUSTER, c.cluster());
        g.writeFieldName(RANK);
        g.writeNumber(c.rank());
        field(g, FIT, c.fit().name());
        g.writeFieldName(DecisionResponseWriter.DECISIONS);
        DecisionResponseWriter.decisions(g, c.result().decisions());
        g.writeFieldName(VICTIMS);
        g.writeNumber(c.victims());
        g.writeFieldName(SCORE);
        g.writeNumber(c.score());
        field(g, DecisionResponseWriter.MESSAGE, c.message());
        g.writeEndObject();
    }
}
