package dev.muster.core.model;

import java.util.List;

/**
 * PodGroup annotation {@value #ANNOTATION}: how a group's members are spread over the domains that hold it, beyond
 * upstream's scores. {@value #BEST_FIT} ranks feasible placements by the capacity they would strand;
 * {@value #BALANCED} spreads the members evenly over the fewest domains that hold them (Kueue's balanced placement).
 */
public final class PlacementStrategy {
    public static final String ANNOTATION = TopologyAnnotations.STRATEGY;
    public static final String BEST_FIT = "BestFit";
    public static final String BALANCED = "Balanced";
    /** Every supported value, in name order. */
    public static final List<String> SUPPORTED = List.of(BALANCED, BEST_FIT);

    private PlacementStrategy() {
    }

    /** Whether {@code group} asks for {@code strategy} (case-insensitive, as the annotation has always been read). */
    public static boolean asks(PodGroup group, String strategy) {
        return strategy.equalsIgnoreCase(group.annotations().get(ANNOTATION));
    }
}
