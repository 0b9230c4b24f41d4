package dev.muster.core.plugins.interpodaffinity;

import dev.muster.core.framework.NodeInfo;
import dev.muster.core.framework.PodIndex;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.model.Affinity;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodAffinityTerm;
import dev.muster.core.model.WeightedPodAffinityTerm;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The (anti-)affinity terms of the pods on nodes, one entry per distinct term (kind, term, weight, resolved
 * namespaces) with the number of pods carrying it in each topology domain of its key. What PreFilter needs of
 * existing pods' required anti-affinity and PreScore of their affinity terms is then one pass over the entries
 * whose term matches the incoming pod, instead of a walk over every pod of the cluster: thousands of pods of one
 * Deployment share one entry. Entries are found through the first {@code matchLabels} pair of their selector, so
 * only entries that can match the pod's labels are tried.
 */
final class ExistingTerms implements PodIndex {
    static final int REQUIRED_AFFINITY = 0;
    static final int REQUIRED_ANTI_AFFINITY = 1;
    static final int PREFERRED_AFFINITY = 2;
    static final int PREFERRED_ANTI_AFFINITY = 3;

    /** One distinct term and where its pods are. */
    static final class Entry {
        final ResolvedTerm term;
        final int kind;
        final int weight;
        /** The owner's namespace when the term names none (it then selects in that namespace), else null. */
        final String ownerNamespace;
        /** Domain value of the term's topology key → pods carrying the term in that domain (may drop to 0). */
        final Map<String, long[]> byValue = new LinkedHashMap<>();

        Entry(ResolvedTerm term, int kind, int weight, String ownerNamespace) {
            this.term = term;
            this.kind = kind;
            this.weight = weight;
            this.ownerNamespace = ownerNamespace;
        }
    }

    /** Identity of a term: the owner's namespace matters only when the term names no namespaces. */
    private record Key(int kind, PodAffinityTerm term, int weight, String ownerNamespace) {
    }

    private final Map<Key, Entry> entries = new HashMap<>();
    /**
     * The entry last found for a term object: pods compiled from equal specs share their term objects, so the
     * 50,000 pods of a few Deployments find their entries without hashing a term each.
     */
    private final Map<PodAffinityTerm, Entry> byInstance = new IdentityHashMap<>();
    /** Term objects remembered at most (pods whose terms are not shared would only fill the table). */
    private static final int MAX_INSTANCES = 1 << 16;
    private final Map<String, Map<String, List<Entry>>> byFirstLabel = new HashMap<>();
    private final List<Entry> withoutMatchLabels = new ArrayList<>();

    @Override
    public void added(PodInfo pod, NodeInfo node) {
        apply(pod.pod(), node, 1);
    }

    @Override
    public void removed(PodInfo pod, NodeInfo node) {
        apply(pod.pod(), node, -1);
    }

    private void apply(Pod pod, NodeInfo node, int delta) {
        Affinity a = pod.affinity();
        if (!a.hasPodAffinity()) {
            return;
        }
        Map<String, String> labels = node.node().labels();
        for (PodAffinityTerm t : a.requiredPodAffinity()) {
            count(REQUIRED_AFFINITY, t, InterPodAffinityPlugin.HARD_POD_AFFINITY_WEIGHT, pod, labels, delta);
        }
        for (PodAffinityTerm t : a.requiredPodAntiAffinity()) {
            count(REQUIRED_ANTI_AFFINITY, t, 0, pod, labels, delta);
        }
        for (WeightedPodAffinityTerm t : a.preferredPodAffinity()) {
            count(PREFERRED_AFFINITY, t.term(), t.weight(), pod, labels, delta);
        }
        for (WeightedPodAffinityTerm t : a.preferredPodAntiAffinity()) {
            count(PREFERRED_ANTI_AFFINITY, t.term(), t.weight(), pod, labels, delta);
        }
    }

    private void count(int kind, PodAffinityTerm t, int weight, Pod owner, Map<String, String> labels, int delta) {
        String value = labels.get(t.topologyKey());
        if (value == null) {
            return; // a node without the key is in no domain of it: the term counts nowhere
        }
        boolean ownNamespace = t.namespaces().isEmpty() && t.namespaceSelector() == null;
        String namespace = ownNamespace ? owner.ref().namespace() : null;
        Entry e = byInstance.get(t);
        if (e == null || e.kind != kind || e.weight != weight || !Objects.equals(e.ownerNamespace, namespace)) {
            Key key = new Key(kind, t, weight, namespace);
            e = entries.get(key);
            if (e == null) {
                e = new Entry(ResolvedTerm.of(owner, t, weight), kind, weight, namespace);
                entries.put(key, e);
                register(e);
            }
            if (byInstance.size() < MAX_INSTANCES) {
                byInstance.put(t, e);
            }
        }
        e.byValue.computeIfAbsent(value, v -> new long[1])[0] += delta;
    }

    private void register(Entry e) {
        if (e.term.selector() == null) {
            return; // matches no pod
        }
        Map<String, String> ml = e.term.selector().matchLabels();
        if (ml.isEmpty()) {
            withoutMatchLabels.add(e);
            return;
        }
        Map.Entry<String, String> first = ml.entrySet().iterator().next();
        byFirstLabel.computeIfAbsent(first.getKey(), k -> new HashMap<>())
                .computeIfAbsent(first.getValue(), v -> new ArrayList<>()).add(e);
    }

    /** Every entry of {@code kind} whose term matches {@code pod}, each once. */
    void forEachMatching(Pod pod, int kind, Consumer<Entry> sink) {
        for (Map.Entry<String, String> label : pod.labels().entrySet()) {
            Map<String, List<Entry>> values = byFirstLabel.get(label.getKey());
            List<Entry> candidates = values == null ? null : values.get(label.getValue());
            if (candidates != null) {
                visit(candidates, pod, kind, sink);
            }
        }
        visit(withoutMatchLabels, pod, kind, sink);
    }

    private static void visit(List<Entry> candidates, Pod pod, int kind, Consumer<Entry> sink) {
        for (int i = 0, n = candidates.size(); i < n; i++) {
            Entry e = candidates.get(i);
            if (e.kind == kind && e.term.matches(pod)) {
                sink.accept(e);
            }
        }
    }
}
