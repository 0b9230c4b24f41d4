package dev.muster.core.plugins.support;

import dev.muster.core.model.Node;
import dev.muster.core.model.NodeSelectorRequirement;
import dev.muster.core.model.NodeSelectorTerm;
import dev.muster.core.model.Pod;

import java.util.List;
import java.util.Map;

/**
 * A pod's hard node constraints: {@code spec.nodeSelector} (every label equal) AND
 * {@code requiredDuringSchedulingIgnoredDuringExecution} (terms ORed, requirements of a term ANDed). Upstream's
 * {@code nodeaffinity.GetRequiredNodeAffinity}. Immutable; {@link #matches} is safe to call concurrently.
 */
public final class RequiredNodeAffinity {
    /** The only field a node selector may name ({@code matchFields}). */
    public static final String FIELD_NODE_NAME = "metadata.name";

    private final String[] selectorKeys;
    private final String[] selectorValues;
    private final List<NodeSelectorTerm> terms;

    private RequiredNodeAffinity(Map<String, String> nodeSelector, List<NodeSelectorTerm> terms) {
        this.selectorKeys = nodeSelector.keySet().toArray(new String[0]);
        this.selectorValues = new String[selectorKeys.length];
        for (int i = 0; i < selectorKeys.length; i++) {
            selectorValues[i] = nodeSelector.get(selectorKeys[i]);
        }
        this.terms = terms;
    }

    public static RequiredNodeAffinity of(Pod pod) {
        return new RequiredNodeAffinity(pod.nodeSelector(), pod.affinity().requiredNodeTerms());
    }

    /** Whether the pod has neither a node selector nor required node affinity (every node matches). */
    public boolean isEmpty() {
        return selectorKeys.length == 0 && terms == null;
    }

    public boolean matches(Node node) {
        Map<String, String> labels = node.labels();
        for (int i = 0; i < selectorKeys.length; i++) {
            if (!selectorValues[i].equals(labels.get(selectorKeys[i]))) {
                return false;
            }
        }
        return terms == null || anyTermMatches(terms, node);
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
