package dev.muster.core.model;

/**
 * The PodGroup annotations of Muster's topology extensions (the v1alpha2 API is unchanged), defined once: the
 * placement plugins read them, validation checks them and the gang-API mappers write them.
 */
public final class TopologyAnnotations {
    /** Comma-separated node label keys, tightest first; the tightest level with a feasible domain wins. */
    public static final String LEVELS = "muster.dev/topology-levels";
    /** {@code Preferred}: soft topology (the fewest domains that hold the group, then every node). */
    public static final String MODE = "muster.dev/topology-mode";
    /** {@code BestFit} or {@code Balanced} ({@link PlacementStrategy}). */
    public static final String STRATEGY = "muster.dev/placement-strategy";
    /** {@code <label key>=<size>[,<inner label key>=<size>]} ({@link SliceSpec}). */
    public static final String SLICES = "muster.dev/slices";
    /** {@code <label key>: <role>=<n>[,<role>=<n>...]}: per-role minimums of a gang. */
    public static final String MIN_PER_ROLE = "muster.dev/min-per-role";

    private TopologyAnnotations() {
    }
}
