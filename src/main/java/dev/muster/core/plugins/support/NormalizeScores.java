package dev.muster.core.plugins.support;

import dev.muster.core.framework.ScorePlugin;

/** kube-scheduler's score normalizations, shared by the score plugins that use them. */
public final class NormalizeScores {
    private NormalizeScores() {
    }

    /**
     * Upstream {@code DefaultNormalizeScore}: scales scores so the highest becomes {@link ScorePlugin#MAX_SCORE}
     * ({@code score * 100 / max}, integer division). With {@code reverse}, the result is subtracted from 100, so
     * the lowest raw score ranks best. When every score is 0, all become 0, or 100 when reversed.
     */
    public static void defaultNormalize(long[] scores, boolean reverse) {
        long max = 0;
        for (long s : scores) {
            if (s > max) {
                max = s;
            }
        }
        if (max == 0) {
            if (reverse) {
                java.util.Arrays.fill(scores, ScorePlugin.MAX_SCORE);
            }
            return;
        }
        for (int i = 0; i < scores.length; i++) {
            long s = ScorePlugin.MAX_SCORE * scores[i] / max;
            scores[i] = reverse ? ScorePlugin.MAX_SCORE - s : s;
        }
    }
}
