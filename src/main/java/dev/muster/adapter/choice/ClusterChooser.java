package dev.muster.adapter.choice;

import dev.muster.adapter.cel.CelSelectors;
import dev.muster.adapter.clusterview.WatchedClusterVersion;
import dev.muster.adapter.clusterview.NamedClusterViews;
import dev.muster.adapter.kube.ChoiceDocument;
import dev.muster.adapter.kube.JobPods;
import dev.muster.adapter.kube.KubeMapper;
import dev.muster.adapter.kube.RequestDocument;
import dev.muster.adapter.validation.Causes;
import dev.muster.core.choice.ChoiceRanking;
import dev.muster.core.choice.ClusterChoice;
import dev.muster.core.choice.ClusterChoices;
import dev.muster.core.decision.DecisionEngine;
import dev.muster.core.decision.DecisionOptions;
import dev.muster.core.dra.DraObjects;
import dev.muster.core.model.ClusterState;
import dev.muster.core.model.GroupRef;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodGroup;
import dev.muster.core.snapshot.ClusterSnapshot;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.BooleanSupplier;

/**
 * {@code POST /v1/cluster-choices} and gRPC {@code ChooseCluster} after validation: the workload compiled once (a
 * Job without its pods stands for the pods its controller would create), added to every cluster (a snapshot given
 * inline, or a watched cluster's current view, whose compiled state is reused for everything but the workload),
 * decided there as {@code /v1/decisions} decides, the clusters in parallel, and ranked.
 */
public final class ClusterChooser {
    private final DecisionEngine engine;
    private final NamedClusterViews views;
    private final Executor executor;
    private final int threads;
    private final int maxCauses;

    /**
     * @param threads most clusters decided at once by one call (the calling thread and {@code threads - 1} from
     *                {@code executor})
     */
    public ClusterChooser(DecisionEngine engine, NamedClusterViews views, Executor executor, int threads,
                          int maxCauses) {
        this.engine = engine;
        this.views = views;
        this.executor = executor;
        this.threads = Math.max(1, threads);
        this.maxCauses = maxCauses;
    }

    /** Whether the service watches a cluster of that name (what validation accepts without a snapshot). */
    public boolean watches(String name) {
        return views.watches(name);
    }

    /**
     * The ranked choices of a validated request.
     *
     * @throws ViewsNotSyncedException a watched cluster named has not loaded yet
     * @throws ChoiceRejectedException the workload's objects already exist in a watched cluster
     */
    public List<ClusterChoice> choose(ChoiceDocument doc, BooleanSupplier stop) {
        return choose(doc, stop, false);
    }

    /**
     * As {@link #choose(ChoiceDocument, BooleanSupplier)}, taking the document's inline snapshots: each is dropped
     * from the document when the call starts and let go once its cluster is compiled, so the decoded objects of a
     * cluster decided early are garbage while later ones are decided (the document then names those clusters
     * without their snapshots). For a surface that has no further use for the document (REST).
     */
    public List<ClusterChoice> chooseTaking(ChoiceDocument doc, BooleanSupplier stop) {
        return choose(doc, stop, true);
    }

    private List<ClusterChoice> choose(ChoiceDocument doc, BooleanSupplier stop, boolean take) {
        List<ChoiceDocument.Cluster> clusters = new java.util.ArrayList<>(doc.clusters());
        WatchedClusterVersion[] watched = watchedViews(clusters);
        AtomicReferenceArray<RequestDocument.Snapshot> inline = new AtomicReferenceArray<>(clusters.size());
        for (int i = 0; i < clusters.size(); i++) {
            inline.set(i, clusters.get(i).snapshot());
        }
        RequestDocument.Snapshot w = doc.workload();
        RequestDocument.Snapshot workload = new RequestDocument.Snapshot(null, JobPods.withJobPods(w.pods(), w.jobs()),
                w.podGroups(), w.workloads(), null, w.podDisruptionBudgets(), null, null, w.resourceClaims(),
                w.resourceClaimTemplates(), w.jobs(), w.compositePodGroups(), null);
        ClusterState workloadState = KubeMapper.toClusterState(workload);
        DraObjects workloadDra = KubeMapper.draObjects(workload, CelSelectors.shared()::compile);
        rejectCollisions(clusters, watched, workloadState, w.pods() == null ? 0 : w.pods().size());
        ClusterChoices.Selection selection = ClusterChoices.Selection.of(workloadState);
        DecisionOptions options = KubeMapper.options(doc.options());
        String[] names = new String[clusters.size()];
        for (int i = 0; i < names.length; i++) {
            names[i] = clusters.get(i).name();
        }
        if (take) {
            release(doc.clusters());
            clusters = null;
        }
        List<ClusterChoice> unranked = ClusterChoices.inParallel(names.length, i -> {
            ClusterSnapshot snapshot;
            if (watched[i] != null) {
                WatchedClusterVersion v = watched[i];
                snapshot = ClusterSnapshot.next(v.compiled(), ClusterChoices.merge(v.state(), workloadState),
                        ClusterChoices.merge(v.dra(), workloadDra));
            } else {
                RequestDocument.Snapshot given = take ? inline.getAndSet(i, null) : inline.get(i);
                snapshot = new ClusterSnapshot(ClusterChoices.merge(KubeMapper.toClusterState(given),
                        workloadState), ClusterChoices.merge(KubeMapper.draObjects(given,
                        CelSelectors.shared()::compile), workloadDra));
            }
            return ClusterChoices.decide(engine, names[i], snapshot, selection, options, stop);
        }, executor, threads);
        return ChoiceRanking.rank(unranked);
    }

    /** Drops the snapshots from the document's list when it is one a decoder made (an ArrayList). */
    private static void release(List<ChoiceDocument.Cluster> clusters) {
        if (clusters instanceof java.util.ArrayList<ChoiceDocument.Cluster> decoded) {
            decoded.replaceAll(c -> c == null || c.snapshot() == null ? c : new ChoiceDocument.Cluster(c.name(), null));
        }
    }

    /** The current view of each watched cluster named (null for one given inline), once every one is synced. */
    private WatchedClusterVersion[] watchedViews(List<ChoiceDocument.Cluster> clusters) {
        WatchedClusterVersion[] out = new WatchedClusterVersion[clusters.size()];
        Map<String, List<String>> waiting = new TreeMap<>();
        for (ChoiceDocument.Cluster c : clusters) {
            if (c.snapshot() == null) {
                List<String> pending = views.notSynced(c.name());
                if (!pending.isEmpty()) {
                    waiting.put(c.name(), pending);
                }
            }
        }
        if (!waiting.isEmpty()) {
            throw new ViewsNotSyncedException(waiting);
        }
        for (int i = 0; i < out.length; i++) {
            ChoiceDocument.Cluster c = clusters.get(i);
            if (c.snapshot() == null) {
                out[i] = views.source(c.name()).current();
            }
        }
        return out;
    }

    /** The workload's pods and PodGroups a watched cluster already has, as a create would find them. */
    private void rejectCollisions(List<ChoiceDocument.Cluster> clusters, WatchedClusterVersion[] watched,
                                  ClusterState workload, int podsGiven) {
        Causes causes = new Causes(maxCauses);
        for (int i = 0; i < watched.length; i++) {
            WatchedClusterVersion v = watched[i];
            if (v == null) {
                continue;
            }
            String where = "clusters[" + i + "] (" + clusters.get(i).name() + ")";
            List<Pod> pods = workload.pods();
            for (int k = 0; k < pods.size(); k++) {
                Pod p = pods.get(k);
                if (v.pod(p.ref()) != null) {
                    causes.duplicate(k < podsGiven ? "workload.pods[" + k + "].metadata.name" : "workload.jobs",
                            p.ref().toString(), where + " already has the Pod " + p.ref());
                }
            }
            Set<GroupRef> groups = new HashSet<>();
            for (PodGroup g : v.state().podGroups()) {
                groups.add(g.ref());
            }
            for (PodGroup g : workload.podGroups()) {
                if (groups.contains(g.ref())) {
                    causes.duplicate("workload.podGroups", g.ref().toString(),
                            where + " already has the PodGroup " + g.ref());
                }
            }
        }
        if (!causes.isEmpty()) {
            throw new ChoiceRejectedException(causes);
        }
    }
}
