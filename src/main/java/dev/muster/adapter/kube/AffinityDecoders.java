package dev.muster.adapter.kube;

import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * The decoders of a pod's {@link Kube.Affinity} and the selectors under it: node affinity with its node selector
 * terms, pod (anti-)affinity with its label selectors, and the requirements both use. Equal affinities are shared
 * within the request.
 */
final class AffinityDecoders {
    private AffinityDecoders() {
    }

    /** The decoder of an Affinity, with its own decoders for what is under it. */
    static AffinityDecoder create(Values in) {
        RequirementDecoder requirement = new RequirementDecoder(in);
        NodeSelectorTermDecoder term = new NodeSelectorTermDecoder(in, requirement);
        NodeSelectorDecoder selector = new NodeSelectorDecoder(in, term);
        TermsDecoder<Kube.NodeAffinity, Kube.NodeSelector, Kube.PreferredSchedulingTerm> node = new TermsDecoder<>(in,
                Kube.NodeAffinity.class, (d, v, f) -> d.object(v, f, selector), Kube.PreferredSchedulingTerm.class,
                new WeightedDecoder<>(in, Kube.PreferredSchedulingTerm.class, "preference", term,
                        Kube.PreferredSchedulingTerm::new),
                Kube.NodeAffinity::new);
        PodAffinityTermDecoder podTerm = new PodAffinityTermDecoder(in, new LabelSelectorDecoder(in, requirement));
        TermsDecoder<Kube.PodAffinity, List<Kube.PodAffinityTerm>, Kube.WeightedPodAffinityTerm> pod =
                new TermsDecoder<>(in, Kube.PodAffinity.class,
                        (d, v, f) -> d.objects(v, f, Kube.PodAffinityTerm.class, 1, podTerm),
                        Kube.WeightedPodAffinityTerm.class,
                        new WeightedDecoder<>(in, Kube.WeightedPodAffinityTerm.class, "podAffinityTerm", podTerm,
                                Kube.WeightedPodAffinityTerm::new),
                        (required, preferred) -> new Kube.PodAffinity(Values.frozen(required), preferred));
        return new AffinityDecoder(in, node, pod);
    }

    static final class AffinityDecoder extends ObjectDecoder<Kube.Affinity> {
        private final TermsDecoder<Kube.NodeAffinity, ?, ?> nodeAffinityDecoder;
        /** Of podAffinity and of podAntiAffinity, one after the other. */
        private final TermsDecoder<Kube.PodAffinity, ?, ?> podAffinityDecoder;
        private Kube.NodeAffinity nodeAffinity;
        private Kube.PodAffinity podAffinity;
        private Kube.PodAffinity podAntiAffinity;

        AffinityDecoder(Values in, TermsDecoder<Kube.NodeAffinity, ?, ?> nodeAffinity,
                        TermsDecoder<Kube.PodAffinity, ?, ?> podAffinity) {
            super(in, Kube.Affinity.class);
            this.nodeAffinityDecoder = nodeAffinity;
            this.podAffinityDecoder = podAffinity;
        }

        @Override
        void reset() {
            nodeAffinity = null;
            podAffinity = null;
            podAntiAffinity = null;
        }

        @Override
        boolean field(String f, JsonToken v) throws IOException {
            switch (f) {
                case "nodeAffinity" -> nodeAffinity = object(v, f, nodeAffinityDecoder);
                case "podAffinity" -> podAffinity = object(v, f, podAffinityDecoder);
                case "podAntiAffinity" -> podAntiAffinity = object(v, f, podAffinityDecoder);
                default -> {
                    return false;
                }
            }
            return true;
        }

        @Override
        Kube.Affinity build() {
            return in.canonical(new Kube.Affinity(nodeAffinity, podAffinity, podAntiAffinity));
        }
    }

    /** How a {@link TermsDecoder} reads its required field, for record {@code d}. */
    @FunctionalInterface
    interface Required<R> {
        R read(ObjectDecoder<?> d, JsonToken v, String f) throws IOException;
    }

    /**
     * Node affinity or pod (anti-)affinity: what is required during scheduling, read by {@code required}, and the
     * weighted terms preferred; the record made by {@code record} from both.
     */
    static final class TermsDecoder<T, R, P> extends ObjectDecoder<T> {
        private final Required<R> requiredReader;
        private final Class<P> preferredType;
        private final WeightedDecoder<P, ?> preferredDecoder;
        private final BiFunction<R, List<P>, T> record;
        private R required;
        private List<P> preferred;

        TermsDecoder(Values in, Class<T> type, Required<R> required, Class<P> preferredType,
                     WeightedDecoder<P, ?> preferred, BiFunction<R, List<P>, T> record) {
            super(in, type);
            this.requiredReader = required;
            this.preferredType = preferredType;
            this.preferredDecoder = preferred;
            this.record = record;
        }

        @Override
        void reset() {
            required = null;
            preferred = null;
        }

        @Override
        boolean field(String f, JsonToken v) throws IOException {
            switch (f) {
                case "requiredDuringSchedulingIgnoredDuringExecution" -> required = requiredReader.read(this, v, f);
                case "preferredDuringSchedulingIgnoredDuringExecution" -> preferred = objects(v, f, preferredType, 2,
                        preferredDecoder);
                default -> {
                    return false;
                }
            }
            return true;
        }

        @Override
        T build() {
            return record.apply(required, Values.frozen(preferred));
        }
    }

    static final class NodeSelectorDecoder extends ObjectDecoder<Kube.NodeSelector> {
        private final NodeSelectorTermDecoder termDecoder;
        private List<Kube.NodeSelectorTerm> terms;

        NodeSelectorDecoder(Values in, NodeSelectorTermDecoder term) {
            super(in, Kube.NodeSelector.class);
            this.termDecoder = term;
        }

        @Override
        void reset() {
            terms = null;
        }

        @Override
        boolean field(String f, JsonToken v) throws IOException {
            if (!f.equals("nodeSelectorTerms")) {
                return false;
            }
            terms = objects(v, f, Kube.NodeSelectorTerm.class, 1, termDecoder);
            return true;
        }

        @Override
        Kube.NodeSelector build() {
            return new Kube.NodeSelector(Values.frozen(terms));
        }
    }

    /** Of a required node selector's terms and of a preferred term's preference. */
    static final class NodeSelectorTermDecoder extends ObjectDecoder<Kube.NodeSelectorTerm> {
        private final RequirementDecoder requirementDecoder;
        private List<Kube.Requirement> matchExpressions;
        private List<Kube.Requirement> matchFields;

        NodeSelectorTermDecoder(Values in, RequirementDecoder requirement) {
            super(in, Kube.NodeSelectorTerm.class);
            this.requirementDecoder = requirement;
        }

        @Override
        void reset() {
            matchExpressions = null;
            matchFields = null;
        }

        @Override
        boolean field(String f, JsonToken v) throws IOException {
            switch (f) {
                case "matchExpressions" -> matchExpressions = requirements(v, f);
                case "matchFields" -> matchFields = requirements(v, f);
                default -> {
                    return false;
                }
            }
            return true;
        }

        private List<Kube.Requirement> requirements(JsonToken v, String f) throws IOException {
            return objects(v, f, Kube.Requirement.class, 2, requirementDecoder);
        }

        @Override
        Kube.NodeSelectorTerm build() {
            return new Kube.NodeSelectorTerm(Values.frozen(matchExpressions), Values.frozen(matchFields));
        }
    }

    /**
     * A weight and a term: a preferred node affinity term (its preference) or a weighted pod affinity term, made by
     * the record's constructor.
     */
    static final class WeightedDecoder<T, U> extends ObjectDecoder<T> {
        private final String termField;
        private final ObjectDecoder<U> termDecoder;
        private final BiFunction<Integer, U, T> record;
        private Integer weight;
        private U term;

        WeightedDecoder(Values in, Class<T> type, String termField, ObjectDecoder<U> term,
                        BiFunction<Integer, U, T> record) {
            super(in, type);
            this.termField = termField;
            this.termDecoder = term;
            this.record = record;
        }

        @Override
        void reset() {
            weight = null;
            term = null;
        }

        @Override
        boolean field(String f, JsonToken v) throws IOException {
            if (f.equals("weight")) {
                weight = integer(v, f);
            } else if (f.equals(termField)) {
                term = object(v, f, termDecoder);
            } else {
                return false;
            }
            return true;
        }

        @Override
        T build() {
            return record.apply(weight, term);
        }
    }

    /** Of node selector terms and of label selectors: neither is ever read inside the other. */
    static final class RequirementDecoder extends ObjectDecoder<Kube.Requirement> {
        private String key;
        private String operator;
        private List<String> values;

        RequirementDecoder(Values in) {
            super(in, Kube.Requirement.class);
        }

        @Override
        void reset() {
            key = null;
            operator = null;
            values = null;
        }

        @Override
        boolean field(String f, JsonToken v) throws IOException {
            switch (f) {
                case "key" -> key = shared(v, f);
                case "operator" -> operator = shared(v, f);
                case "values" -> values = strings(v, f);
                default -> {
                    return false;
                }
            }
            return true;
        }

        @Override
        Kube.Requirement build() {
            return new Kube.Requirement(key, operator, Values.frozen(values));
        }
    }

    /** Of required terms and of weighted terms' terms. */
    static final class PodAffinityTermDecoder extends ObjectDecoder<Kube.PodAffinityTerm> {
        /** Of labelSelector and of namespaceSelector, one after the other. */
        private final LabelSelectorDecoder selectorDecoder;
        private Kube.LabelSelector labelSelector;
        private List<String> namespaces;
        private Kube.LabelSelector namespaceSelector;
        private String topologyKey;
        private List<String> matchLabelKeys;
        private List<String> mismatchLabelKeys;

        PodAffinityTermDecoder(Values in, LabelSelectorDecoder selector) {
            super(in, Kube.PodAffinityTerm.class);
            this.selectorDecoder = selector;
        }

        @Override
        void reset() {
            labelSelector = null;
            namespaces = null;
            namespaceSelector = null;
            topologyKey = null;
            matchLabelKeys = null;
            mismatchLabelKeys = null;
        }

        @Override
        boolean field(String f, JsonToken v) throws IOException {
            switch (f) {
                case "labelSelector" -> labelSelector = object(v, f, selectorDecoder);
                case "namespaces" -> namespaces = strings(v, f);
                case "namespaceSelector" -> namespaceSelector = object(v, f, selectorDecoder);
                case "topologyKey" -> topologyKey = shared(v, f);
                case "matchLabelKeys" -> matchLabelKeys = strings(v, f);
                case "mismatchLabelKeys" -> mismatchLabelKeys = strings(v, f);
                default -> {
                    return false;
                }
            }
            return true;
        }

        @Override
        Kube.PodAffinityTerm build() {
            return new Kube.PodAffinityTerm(labelSelector, Values.frozen(namespaces), namespaceSelector, topologyKey,
                    Values.frozen(matchLabelKeys), Values.frozen(mismatchLabelKeys));
        }
    }

    static final class LabelSelectorDecoder extends ObjectDecoder<Kube.LabelSelector> {
        private final RequirementDecoder requirementDecoder;
        private Map<String, String> matchLabels;
        private List<Kube.Requirement> matchExpressions;

        LabelSelectorDecoder(Values in, RequirementDecoder requirement) {
            super(in, Kube.LabelSelector.class);
            this.requirementDecoder = requirement;
        }

        @Override
        void reset() {
            matchLabels = null;
            matchExpressions = null;
        }

        @Override
        boolean field(String f, JsonToken v) throws IOException {
            switch (f) {
                case "matchLabels" -> matchLabels = stringMap(v, f);
                case "matchExpressions" -> matchExpressions = objects(v, f, Kube.Requirement.class, 2,
                        requirementDecoder);
                default -> {
                    return false;
                }
            }
            return true;
        }

        @Override
        Kube.LabelSelector build() {
            return new Kube.LabelSelector(matchLabels, Values.frozen(matchExpressions));
        }
    }
}
