package dev.muster.core.plugins.support;

import dev.muster.core.model.Node;
import dev.muster.core.model.NodeSelectorRequirement;
import dev.muster.core.model.NodeSelectorTerm;
import dev.muster.core.model.NodeSelectors;
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
    public static final String FIELD_NODE_NAME = NodeSelectors.FIELD_NODE_NAME;

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

    /** ORed terms; an empty list matches no node. See {@link NodeSelectors#anyTermMatches}. */
    public static boolean anyTermMatches(List<NodeSelectorTerm> terms, Node node) {
        return NodeSelectors.anyTermMatches(terms, node);
    }

    /** One term. See {@link NodeSelectors#termMatches}. */
    public static boolean termMatches(NodeSelectorTerm term, Node node) {
        return NodeSelectors.termMatches(term, node);
    }

    /** One requirement against a present or absent value. See {@link NodeSelectors#requirementMatches}. */
    public static boolean requirementMatches(NodeSelectorRequirement r, boolean present, String value) {
        return NodeSelectors.requirementMatches(r, present, value);
    }
}
