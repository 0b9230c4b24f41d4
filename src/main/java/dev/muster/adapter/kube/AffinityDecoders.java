package dev.muster.adapter.kube;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * The decoders of a pod's {@link Kube.Affinity} and the selectors under it: node affinity with its node selector
 * terms, pod (anti-)affinity with its label selectors, and the requirements both use. Equal affinities are shared
 * within the request.
 */
final class AffinityDecoders extends RecordReader {
    // each read made once per request, so that reading allocates none
    private final FieldReader.ObjectBody<Kube.NodeAffinity> nodeAffinity = this::nodeAffinity;
    private final FieldReader.ObjectBody<Kube.PodAffinity> podAffinity = this::podAffinity;
    private final FieldReader.ObjectBody<Kube.NodeSelector> nodeSelector = this::nodeSelector;
    private final FieldReader.ObjectBody<Kube.NodeSelectorTerm> nodeSelectorTerm = this::nodeSelectorTerm;
    private final FieldReader.ObjectBody<Kube.PreferredSchedulingTerm> preferredTerm = this::preferredTerm;
    private final FieldReader.ObjectBody<Kube.Requirement> requirement = this::requirement;
    private final FieldReader.ObjectBody<Kube.PodAffinityTerm> podAffinityTerm = this::podAffinityTerm;
    private final FieldReader.ObjectBody<Kube.WeightedPodAffinityTerm> weightedTerm = this::weightedTerm;
    private final FieldReader.ObjectBody<Kube.LabelSelector> labelSelector = this::labelSelector;

    AffinityDecoders(FieldReader in) {
        super(in);
    }

    Kube.Affinity affinity() throws IOException {
        Class<?> r = Kube.Affinity.class;
        Kube.NodeAffinity node = null;
        Kube.PodAffinity pod = null;
        Kube.PodAffinity podAnti = null;
        for (String f = in.first(); f != null; f = in.next()) {
            switch (f) {
                case "nodeAffinity" -> node = object(f, r, nodeAffinity);
                case "podAffinity" -> pod = object(f, r, podAffinity);
                case "podAntiAffinity" -> podAnti = object(f, r, podAffinity);
                default -> in.skip();
            }
        }
        return in.canonical(new Kube.Affinity(node, pod, podAnti));
    }

    private Kube.NodeAffinity nodeAffinity() throws IOException {
        Class<?> r = Kube.NodeAffinity.class;
        Kube.NodeSelector required = null;
        List<Kube.PreferredSchedulingTerm> preferred = null;
        for (String f = in.first(); f != null; f = in.next()) {
            switch (f) {
                case "requiredDuringSchedulingIgnoredDuringExecution" -> required = object(f, r, nodeSelector);
                case "preferredDuringSchedulingIgnoredDuringExecution" -> preferred = objects(f, r,
                        Kube.PreferredSchedulingTerm.class, 2, preferredTerm);
                default -> in.skip();
            }
        }
        return new Kube.NodeAffinity(required, FieldReader.frozen(preferred));
    }

    private Kube.NodeSelector nodeSelector() throws IOException {
        List<Kube.NodeSelectorTerm> terms = null;
        for (String f = in.first(); f != null; f = in.next()) {
            if (f.equals("nodeSelectorTerms")) {
                terms = objects(f, Kube.NodeSelector.class, Kube.NodeSelectorTerm.class, 1, nodeSelectorTerm);
            } else {
                in.skip();
            }
        }
        return new Kube.NodeSelector(FieldReader.frozen(terms));
    }

    private Kube.NodeSelectorTerm nodeSelectorTerm() throws IOException {
        Class<?> r = Kube.NodeSelectorTerm.class;
        List<Kube.Requirement> matchExpressions = null;
        List<Kube.Requirement> matchFields = null;
        for (String f = in.first(); f != null; f = in.next()) {
            switch (f) {
                case "matchExpressions" -> matchExpressions = objects(f, r, Kube.Requirement.class, 2, requirement);
                case "matchFields" -> matchFields = objects(f, r, Kube.Requirement.class, 2, requirement);
                default -> in.skip();
            }
        }
        return new Kube.NodeSelectorTerm(FieldReader.frozen(matchExpressions), FieldReader.frozen(matchFields));
    }

    private Kube.PreferredSchedulingTerm preferredTerm() throws IOException {
        Class<?> r = Kube.PreferredSchedulingTerm.class;
        Integer weight = null;
        Kube.NodeSelectorTerm preference = null;
        for (String f = in.first(); f != null; f = in.next()) {
            switch (f) {
                case "weight" -> weight = integer(f, r);
                case "preference" -> preference = object(f, r, nodeSelectorTerm);
                default -> in.skip();
            }
        }
        return new Kube.PreferredSchedulingTerm(weight, preference);
    }

    private Kube.Requirement requirement() throws IOException {
        Class<?> r = Kube.Requirement.class;
        String key = null;
        String operator = null;
        List<String> values = null;
        for (String f = in.first(); f != null; f = in.next()) {
            switch (f) {
                case "key" -> key = shared(f, r);
                case "operator" -> operator = shared(f, r);
                case "values" -> values = strings(f, r);
                default -> in.skip();
            }
        }
        return new Kube.Requirement(key, operator, FieldReader.frozen(values));
    }

    private Kube.PodAffinity podAffinity() throws IOException {
        Class<?> r = Kube.PodAffinity.class;
        List<Kube.PodAffinityTerm> required = null;
        List<Kube.WeightedPodAffinityTerm> preferred = null;
        for (String f = in.first(); f != null; f = in.next()) {
            switch (f) {
                case "requiredDuringSchedulingIgnoredDuringExecution" -> required = objects(f, r,
                        Kube.PodAffinityTerm.class, 1, podAffinityTerm);
                case "preferredDuringSchedulingIgnoredDuringExecution" -> preferred = objects(f, r,
                        Kube.WeightedPodAffinityTerm.class, 2, weightedTerm);
                default -> in.skip();
            }
        }
        return new Kube.PodAffinity(FieldReader.frozen(required), FieldReader.frozen(preferred));
    }

    private Kube.WeightedPodAffinityTerm weightedTerm() throws IOException {
        Class<?> r = Kube.WeightedPodAffinityTerm.class;
        Integer weight = null;
        Kube.PodAffinityTerm term = null;
        for (String f = in.first(); f != null; f = in.next()) {
            switch (f) {
                case "weight" -> weight = integer(f, r);
                case "podAffinityTerm" -> term = object(f, r, podAffinityTerm);
                default -> in.skip();
            }
        }
        return new Kube.WeightedPodAffinityTerm(weight, term);
    }

    private Kube.PodAffinityTerm podAffinityTerm() throws IOException {
        Class<?> r = Kube.PodAffinityTerm.class;
        Kube.LabelSelector selector = null;
        List<String> namespaces = null;
        Kube.LabelSelector namespaceSelector = null;
        String topologyKey = null;
        List<String> matchLabelKeys = null;
        List<String> mismatchLabelKeys = null;
        for (String f = in.first(); f != null; f = in.next()) {
            switch (f) {
                case "labelSelector" -> selector = object(f, r, labelSelector);
                case "namespaces" -> namespaces = strings(f, r);
                case "namespaceSelector" -> namespaceSelector = object(f, r, labelSelector);
                case "topologyKey" -> topologyKey = shared(f, r);
                case "matchLabelKeys" -> matchLabelKeys = strings(f, r);
                case "mismatchLabelKeys" -> mismatchLabelKeys = strings(f, r);
                default -> in.skip();
            }
        }
        return new Kube.PodAffinityTerm(selector, FieldReader.frozen(namespaces), namespaceSelector, topologyKey,
                FieldReader.frozen(matchLabelKeys), FieldReader.frozen(mismatchLabelKeys));
    }

    private Kube.LabelSelector labelSelector() throws IOException {
        Class<?> r = Kube.LabelSelector.class;
        Map<String, String> matchLabels = null;
        List<Kube.Requirement> matchExpressions = null;
        for (String f = in.first(); f != null; f = in.next()) {
            switch (f) {
                case "matchLabels" -> matchLabels = stringMap(f, r);
                case "matchExpressions" -> matchExpressions = objects(f, r, Kube.Requirement.class, 2, requirement);
                default -> in.skip();
            }
        }
        return new Kube.LabelSelector(matchLabels, FieldReader.frozen(matchExpressions));
    }
}
