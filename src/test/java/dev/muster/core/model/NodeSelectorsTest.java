package dev.muster.core.model;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class NodeSelectorsTest {
    static final Node NODE = new Node("n1", "u", Map.of("zone", "a", "gpus", "4"), null, false, null);

    static NodeSelectorRequirement req(String key, NodeSelectorRequirement.Operator op, String... values) {
        return new NodeSelectorRequirement(key, op, List.of(values));
    }

    @Test
    void termsAreOredRequirementsAnded() {
        NodeSelectorTerm zoneB = new NodeSelectorTerm(List.of(req("zone", NodeSelectorRequirement.Operator.In, "b")), null);
        NodeSelectorTerm zoneAByName = new NodeSelectorTerm(List.of(req("zone", NodeSelectorRequirement.Operator.In, "a")),
                List.of(req("metadata.name", NodeSelectorRequirement.Operator.In, "n1")));
        assertThat(NodeSelectors.anyTermMatches(List.of(zoneB), NODE)).isFalse();
        assertThat(NodeSelectors.anyTermMatches(List.of(zoneB, zoneAByName), NODE)).isTrue();
        assertThat(NodeSelectors.anyTermMatches(List.of(), NODE)).isFalse();
        assertThat(NodeSelectors.termMatches(new NodeSelectorTerm(null, null), NODE)).isFalse();
    }

    @Test
    void operators() {
        assertThat(NodeSelectors.termMatches(new NodeSelectorTerm(List.of(req("gpus", NodeSelectorRequirement.Operator.Gt, "3")), null), NODE)).isTrue();
        assertThat(NodeSelectors.termMatches(new NodeSelectorTerm(List.of(req("gpus", NodeSelectorRequirement.Operator.Lt, "3")), null), NODE)).isFalse();
        assertThat(NodeSelectors.termMatches(new NodeSelectorTerm(List.of(req("x", NodeSelectorRequirement.Operator.DoesNotExist)), null), NODE)).isTrue();
        assertThat(NodeSelectors.termMatches(new NodeSelectorTerm(List.of(req("zone", NodeSelectorRequirement.Operator.NotIn, "a")), null), NODE)).isFalse();
        assertThat(NodeSelectors.termMatches(new NodeSelectorTerm(null, List.of(req("metadata.uid", NodeSelectorRequirement.Operator.Exists))), NODE)).isFalse();
    }
}
