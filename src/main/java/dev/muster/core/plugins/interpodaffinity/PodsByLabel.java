package dev.muster.core.plugins.interpodaffinity;

import dev.muster.core.framework.NodeInfo;
import dev.muster.core.framework.PodIndex;
import dev.muster.core.framework.PodInfo;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * The pods on nodes by label pair, so the incoming pod's own (anti-)affinity terms are matched against the pods
 * that carry their selector's first {@code matchLabels} pair instead of every pod of the cluster. A term without
 * {@code matchLabels} still has to look at every pod.
 */
final class PodsByLabel implements PodIndex {
    private final Map<String, Map<String, LinkedHashMap<PodInfo, NodeInfo>>> byLabel = new HashMap<>();
    private final LinkedHashMap<PodInfo, NodeInfo> all = new LinkedHashMap<>();

    @Override
    public void added(PodInfo pod, NodeInfo node) {
        all.put(pod, node);
        for (Map.Entry<String, String> l : pod.pod().labels().entrySet()) {
            byLabel.computeIfAbsent(l.getKey(), k -> new HashMap<>())
                    .computeIfAbsent(l.getValue(), v -> new LinkedHashMap<>()).put(pod, node);
        }
    }

    @Override
    public void removed(PodInfo pod, NodeInfo node) {
        all.remove(pod);
        for (Map.Entry<String, String> l : pod.pod().labels().entrySet()) {
            Map<String, LinkedHashMap<PodInfo, NodeInfo>> values = byLabel.get(l.getKey());
            LinkedHashMap<PodInfo, NodeInfo> pods = values == null ? null : values.get(l.getValue());
            if (pods != null) {
                pods.remove(pod);
            }
        }
    }

    /**
     * Every pod on a node that may match {@code term} (a superset: the caller still matches), with its node: the
     * pods carrying the selector's first matchLabels pair, or all pods when the selector has none.
     */
    void forEachCandidate(ResolvedTerm term, BiConsumer<PodInfo, NodeInfo> sink) {
        if (term.selector() == null) {
            return; // a null selector matches no pod
        }
        Map<String, String> ml = term.selector().matchLabels();
        Map<PodInfo, NodeInfo> candidates;
        if (ml.isEmpty()) {
            candidates = all;
        } else {
            Map.Entry<String, String> first = ml.entrySet().iterator().next();
            Map<String, LinkedHashMap<PodInfo, NodeInfo>> values = byLabel.get(first.getKey());
            candidates = values == null ? null : values.get(first.getValue());
        }
        if (candidates != null) {
            candidates.forEach(sink);
        }
    }
}
