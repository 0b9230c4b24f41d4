package dev.muster.core.model;

import java.util.List;
import java.util.Map;

/**
 * Pure core/v1 node-selector matching (upstream's {@code nodeaffinity.NodeSelector.Match}): terms are ORed,
 * requirements of a term ANDed. Shared by node affinity and device allocation.
 */
public final class NodeSelectors {
    /** The only field a node selector may name ({@code matchFields}). */
    public static final String FIELD_NODE_NAME = "metadata.name";

    private NodeSelectors() {
    }

    /** ORed terms; an empty list matches no node. */
    public static boolean anyTermMatches(List<NodeSelectorTerm> terms, Node node) {
        for (int i = 0, n = terms.size(); i < n; i++) {
            if (termMatches(terms.get(i), node)) {
                return true;
            }
        }
        return false;
    }

    /**
     * One term: every expression against the labels and every field against {@code metadata.name}. A term with
     * neither matches nothing, as does a term naming an unsupported field (upstream drops it as invalid).
     */
    public static boolean termMatches(NodeSelectorTerm term, Node node) {
        List<NodeSelectorRequirement> exprs = term.matchExpressions();
        List<NodeSelectorRequirement> fields = term.matchFields();
        if (exprs.isEmpty() && fields.isEmpty()) {
            return false;
        }
        Map<String, String> labels = node.labels();
        for (int i = 0, n = exprs.size(); i < n; i++) {
            NodeSelectorRequirement r = exprs.get(i);
            if (!requirementMatches(r, labels.containsKey(r.key()), labels.get(r.key()))) {
                return false;
            }
        }
        for (int i = 0, n = fields.size(); i < n; i++) {
            NodeSelectorRequirement r = fields.get(i);
            if (!FIELD_NODE_NAME.equals(r.key())) {
                return false;
            }
            if (!requirementMatches(r, true, node.name())) {
                return false;
            }
        }
        return true;
    }

    /**
     * One requirement against a value that is present or absent. Gt/Lt need exactly one integer value and an
     * integer label; anything else does not match.
     */
    public static boolean requirementMatches(NodeSelectorRequirement r, boolean present, String value) {
        return switch (r.operator()) {
            case In -> present && r.values().contains(value);
            case NotIn -> !present || !r.values().contains(value);
            case Exists -> present;
            case DoesNotExist -> !present;
            case Gt, Lt -> present && compareInts(r, value);
        };
    }

    private static boolean compareInts(NodeSelectorRequirement r, String value) {
        if (r.values().size() != 1) {
            return false;
        }
        long want;
        long have;
        try {
            want = Long.parseLong(r.values().get(0));
            have = Long.parseLong(value);
        } catch (NumberFormatException e) {
            return false;
        }
        return r.operator() == NodeSelectorRequirement.Operator.Gt ? have > want : have < want;
    }
}
