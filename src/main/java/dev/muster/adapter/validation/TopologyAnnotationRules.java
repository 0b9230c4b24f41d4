package dev.muster.adapter.validation;

import dev.muster.adapter.kube.GangShape;
import dev.muster.adapter.kube.Kube;
import dev.muster.core.model.PlacementStrategy;
import dev.muster.core.model.SliceSpec;

import java.util.Map;

/**
 * A PodGroup's topology annotations that have a grammar of their own: {@value PlacementStrategy#ANNOTATION} (one of
 * the supported strategies, {@code FieldValueNotSupported} otherwise) and {@value SliceSpec#ANNOTATION} (its grammar,
 * label keys that are qualified names, on a gang only, with a topology to sit in, and a {@code minCount} that is a
 * multiple of the outermost slice size: Kueue's rule that slices divide the pod set, applied to the members the gang
 * must place whole; each {@code FieldValueInvalid}). Causes are at
 * {@code snapshot.podGroups[i].metadata.annotations[<annotation>]}.
 */
final class TopologyAnnotationRules {
    /** Muster's topology levels annotation: a topology for slices when the spec has none. */
    static final String LEVELS = dev.muster.core.model.TopologyAnnotations.LEVELS;

    private TopologyAnnotationRules() {
    }

    static void check(GangShape shape, Map<String, String> annotations, Kube.PodGroupSpec s, FieldPath p, Causes c) {
        if (annotations == null) {
            return;
        }
        String strategy = annotations.get(PlacementStrategy.ANNOTATION);
        if (strategy != null && !PlacementStrategy.SUPPORTED.contains(strategy)) {
            c.notSupported(p.at(".metadata.annotations[" + PlacementStrategy.ANNOTATION + "]"), strategy,
                    PlacementStrategy.SUPPORTED);
        }
        String slices = annotations.get(SliceSpec.ANNOTATION);
        if (slices != null) {
            slices(shape, annotations, slices, s, p.at(".metadata.annotations[" + SliceSpec.ANNOTATION + "]"), c);
        }
    }

    private static void slices(GangShape shape, Map<String, String> annotations, String value, Kube.PodGroupSpec s,
                               String field, Causes c) {
        SliceSpec spec;
        try {
            spec = SliceSpec.parse(value);
        } catch (SliceSpec.Invalid e) {
            c.invalid(field, value, e.getMessage());
            return;
        }
        for (SliceSpec.Layer l : spec.layers()) {
            if (!Names.isQualifiedName(l.key())) {
                c.invalid(field, value, "level \"" + l.key() + "\" " + Names.QUALIFIED_NAME_MESSAGE);
                return;
            }
        }
        Integer minCount = minCount(shape, s);
        if (minCount != null && minCount < 0) {
            // a gang whose minCount is itself invalid: that field's cause says so
        } else if (minCount == null) {
            c.invalid(field, value, "slices apply to gang PodGroups only: " + (shape.isThirdParty()
                    ? "spec.minMember must be at least 1" : "spec.schedulingPolicy must be `gang`"));
        } else if (minCount % spec.outerSize() != 0) {
            c.invalid(field, value, "the gang's minCount " + minCount + " must be a multiple of the outermost slice "
                    + "size " + spec.outerSize() + ": a gang is placed in whole slices");
        }
        boolean specTopology = (!shape.isThirdParty() && s.schedulingConstraints() != null
                && s.schedulingConstraints().topology() != null && !s.schedulingConstraints().topology().isEmpty())
                || s.networkTopology() != null;
        String levels = annotations.get(LEVELS);
        if (!specTopology && (levels == null || levels.isBlank())) {
            c.invalid(field, value, "slices sit inside the group's topology domain: set "
                    + (shape.isThirdParty() ? "spec.networkTopology (Volcano) or " : "spec.schedulingConstraints.topology or ")
                    + "the " + LEVELS + " annotation");
        }
    }

    /**
     * The gang's minCount (minMember for Volcano and coscheduling), null when the group is not a gang, -1 for a gang
     * whose minCount is missing or below 1 (reported at that field).
     */
    private static Integer minCount(GangShape shape, Kube.PodGroupSpec s) {
        if (shape.isThirdParty()) {
            return s.minMember() != null && s.minMember() >= 1 ? s.minMember() : null;
        }
        Kube.SchedulingPolicy policy = s.schedulingPolicy();
        if (policy == null || policy.gang() == null) {
            return null;
        }
        if (policy.gang().minCount() == null || policy.gang().minCount() < 1) {
            return -1;
        }
        return policy.gang().minCount();
    }
}
