package dev.muster.core.framework;

import java.util.ArrayList;
import java.util.List;

/**
 * A scheduling profile: the plugins enabled at each extension point, in the order they run, and each score
 * plugin's weight; the equivalent of one KubeSchedulerConfiguration profile. Immutable.
 */
public final class Profile {
    /** A score plugin and its weight (the sum over plugins of weight × normalized score ranks the nodes). */
    public record WeightedScore(ScorePlugin plugin, int weight) {
    }

    private final List<PreEnqueuePlugin> preEnqueue;
    private final List<PreFilterPlugin> preFilter;
    private final List<FilterPlugin> filter;
    private final List<PreScorePlugin> preScore;
    private final List<WeightedScore> score;
    private final List<ReservePlugin> reserve;
    private final List<PermitPlugin> permit;
    private final List<PlacementGeneratePlugin> placementGenerate;
    private final List<WeightedPlacementScore> placementScore;
    private final List<PostFilterPlugin> postFilter;
    private final List<SignPlugin> sign;
    /** The runtime over these plugins, made on first use: a pure function of the profile, shared by every run. */
    private volatile FrameworkRuntime runtime;

    /** A placement score plugin and its weight. */
    public record WeightedPlacementScore(PlacementScorePlugin plugin, int weight) {
    }

    private Profile(Builder b) {
        preEnqueue = List.copyOf(b.preEnqueue);
        preFilter = List.copyOf(b.preFilter);
        filter = List.copyOf(b.filter);
        preScore = List.copyOf(b.preScore);
        score = List.copyOf(b.score);
        reserve = List.copyOf(b.reserve);
        permit = List.copyOf(b.permit);
        placementGenerate = List.copyOf(b.placementGenerate);
        placementScore = List.copyOf(b.placementScore);
        postFilter = List.copyOf(b.postFilter);
        sign = List.copyOf(b.sign);
    }

    /**
     * The runtime that runs this profile's plugins ({@link FrameworkRuntime}), made once and shared by every decision:
     * it is stateless, and making it (the plugin indices, the signed pod fields) would otherwise cost every request.
     */
    public FrameworkRuntime runtime() {
        FrameworkRuntime r = runtime;
        if (r == null) {
            r = new FrameworkRuntime(this); // a race makes an equal one
            runtime = r;
        }
        return r;
    }

    /** Plugins that say whether a pod's evaluation may be kept and refreshed (see {@link SignPlugin}). */
    public List<SignPlugin> sign() {
        return sign;
    }

    public List<PostFilterPlugin> postFilter() {
        return postFilter;
    }

    public List<PlacementGeneratePlugin> placementGenerate() {
        return placementGenerate;
    }

    public List<WeightedPlacementScore> placementScore() {
        return placementScore;
    }

    public List<PreEnqueuePlugin> preEnqueue() {
        return preEnqueue;
    }

    public List<PreFilterPlugin> preFilter() {
        return preFilter;
    }

    public List<FilterPlugin> filter() {
        return filter;
    }

    public List<PreScorePlugin> preScore() {
        return preScore;
    }

    public List<WeightedScore> score() {
        return score;
    }

    public List<ReservePlugin> reserve() {
        return reserve;
    }

    public List<PermitPlugin> permit() {
        return permit;
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Collects plugins. {@link #add(Plugin, int)} registers a plugin at every extension point it implements
     * (upstream's multi-point), in call order; the weight applies to its Score.
     */
    public static final class Builder {
        private final List<PreEnqueuePlugin> preEnqueue = new ArrayList<>();
        private final List<PreFilterPlugin> preFilter = new ArrayList<>();
        private final List<FilterPlugin> filter = new ArrayList<>();
        private final List<PreScorePlugin> preScore = new ArrayList<>();
        private final List<WeightedScore> score = new ArrayList<>();
        private final List<ReservePlugin> reserve = new ArrayList<>();
        private final List<PermitPlugin> permit = new ArrayList<>();
        private final List<PlacementGeneratePlugin> placementGenerate = new ArrayList<>();
        private final List<WeightedPlacementScore> placementScore = new ArrayList<>();
        private final List<PostFilterPlugin> postFilter = new ArrayList<>();
        private final List<SignPlugin> sign = new ArrayList<>();

        public Builder add(Plugin plugin, int scoreWeight) {
            if (plugin instanceof PreEnqueuePlugin p) {
                preEnqueue.add(p);
            }
            if (plugin instanceof PreFilterPlugin p) {
                preFilter.add(p);
            }
            if (plugin instanceof FilterPlugin p) {
                filter.add(p);
            }
            if (plugin instanceof PreScorePlugin p) {
                preScore.add(p);
            }
            if (plugin instanceof ScorePlugin p && scoreWeight > 0) {
                score.add(new WeightedScore(p, scoreWeight));
            }
            if (plugin instanceof ReservePlugin p) {
                reserve.add(p);
            }
            if (plugin instanceof PermitPlugin p) {
                permit.add(p);
            }
            if (plugin instanceof PostFilterPlugin p) {
                postFilter.add(p);
            }
            if (plugin instanceof SignPlugin p) {
                sign.add(p);
            }
            if (plugin instanceof PlacementGeneratePlugin p) {
                placementGenerate.add(p);
            }
            if (plugin instanceof PlacementScorePlugin p && scoreWeight > 0) {
                placementScore.add(new WeightedPlacementScore(p, scoreWeight));
            }
            return this;
        }

        public Builder add(Plugin plugin) {
            return add(plugin, 1);
        }

        public Profile build() {
            return new Profile(this);
        }
    }
}
