package dev.muster.adapter.validation;

/**
 * List-length limits of a request ({@code muster.limits.*}); beyond them a list is {@code FieldValueTooMany}.
 *
 * @param maxObjects    limit for every other snapshot list (workloads, priority classes, PDBs, DRA objects)
 * @param maxCauses     causes reported in one answer (the rest are counted in the Status message)
 * @param maxHyperNodes limit for {@code snapshot.hyperNodes}
 */
public record ValidationLimits(int maxNodes, int maxPods, int maxPodGroups, int maxObjects, int maxCauses,
                               int maxHyperNodes) {
    public static final int DEFAULT_MAX_HYPER_NODES = 10_000;
    public static final ValidationLimits DEFAULT = new ValidationLimits(20_000, 200_000, 20_000, 100_000, 1_000,
            DEFAULT_MAX_HYPER_NODES);

    /** Limits with the default {@code maxHyperNodes}. */
    public ValidationLimits(int maxNodes, int maxPods, int maxPodGroups, int maxObjects, int maxCauses) {
        this(maxNodes, maxPods, maxPodGroups, maxObjects, maxCauses, DEFAULT_MAX_HYPER_NODES);
    }
}
