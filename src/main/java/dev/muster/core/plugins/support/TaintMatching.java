package dev.muster.core.plugins.support;

import dev.muster.core.model.Taint;
import dev.muster.core.model.TaintEffect;
import dev.muster.core.model.Toleration;

import java.util.List;

/** Taint/toleration checks as kube-scheduler's component helpers define them. */
public final class TaintMatching {
    private TaintMatching() {
    }

    /** Whether any toleration tolerates the taint ({@code TolerationsTolerateTaint}). */
    public static boolean tolerated(List<Toleration> tolerations, Taint taint) {
        for (int i = 0, n = tolerations.size(); i < n; i++) {
            if (tolerations.get(i).tolerates(taint)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The first taint, in node order, with effect NoSchedule or NoExecute that no toleration tolerates, or null
     * ({@code FindMatchingUntoleratedTaint} with the do-not-schedule filter).
     */
    public static Taint firstUntoleratedDoNotSchedule(List<Taint> taints, List<Toleration> tolerations) {
        for (int i = 0, n = taints.size(); i < n; i++) {
            Taint t = taints.get(i);
            if (t.effect() == TaintEffect.PreferNoSchedule) {
                continue;
            }
            if (!tolerated(tolerations, t)) {
                return t;
            }
        }
        return null;
    }
}
