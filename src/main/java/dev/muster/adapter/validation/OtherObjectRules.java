package dev.muster.adapter.validation;

import dev.muster.adapter.kube.Kube;
import dev.muster.adapter.kube.RequestDocument;

import static dev.muster.adapter.validation.FieldRules.PREEMPTION_POLICIES;
import static dev.muster.adapter.validation.FieldRules.enumOptional;
import static dev.muster.adapter.validation.FieldRules.labelSelector;

/**
 * The remaining snapshot lists: {@code priorityClasses} and {@code podDisruptionBudgets}.
 */
final class OtherObjectRules implements ObjectFamily {
    private static final ObjectLists.Kind<Kube.PriorityClass> PRIORITY_CLASSES = new ObjectLists.Kind<>(
            ".priorityClasses", "must be a PriorityClass object", false, Kube.PriorityClass::metadata);
    private static final ObjectLists.Kind<Kube.PodDisruptionBudget> PDBS = new ObjectLists.Kind<>(
            ".podDisruptionBudgets", "must be a PodDisruptionBudget object", true, Kube.PodDisruptionBudget::metadata);

    @Override
    public void validate(RequestDocument.Snapshot s, ValidationLimits limits, FieldPath p, Causes c) {
        int max = limits.maxObjects();
        ObjectLists.check(PRIORITY_CLASSES, s.priorityClasses(), max, p, OtherObjectRules::priorityClass, c);
        ObjectLists.check(PDBS, s.podDisruptionBudgets(), max, p, OtherObjectRules::pdb, c);
    }

    private static void priorityClass(Kube.PriorityClass pc, FieldPath p, Causes c) {
        if (pc.value() == null) {
            c.required(p.at(".value"), "a PriorityClass needs a value");
        }
        enumOptional(pc.preemptionPolicy(), p, ".preemptionPolicy", PREEMPTION_POLICIES, c);
    }

    private static void pdb(Kube.PodDisruptionBudget b, FieldPath p, Causes c) {
        if (b.spec() != null) {
            labelSelector(b.spec().selector(), p, ".spec.selector", c);
        }
    }
}
