package dev.muster.adapter.validation;

import dev.muster.adapter.kube.ChoiceDocument;
import dev.muster.adapter.kube.JobPods;
import dev.muster.adapter.kube.Kube;
import dev.muster.adapter.kube.KubeDra;
import dev.muster.adapter.kube.RequestDocument;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The invariants of a {@code POST /v1/cluster-choices} request, every cause at once with its path from the request
 * root: at least one cluster and at most the configured number; each a unique DNS label that carries a snapshot
 * (validated as a decision's, under {@code clusters[i].snapshot}) or names a watched cluster; a workload that names
 * something to place, holds none of a cluster's own kinds and no bound pod (nor a Job that stands for bound pods),
 * stands for no more pods than a snapshot may hold, and whose objects do not already exist in a cluster given inline
 * (a watched cluster's objects are compared when its view is read).
 */
final class ChoiceRules {
    /** The workload's lists that belong to a cluster, with what they hold. */
    private static final Map<String, Function<RequestDocument.Snapshot, List<?>>> CLUSTER_LISTS = Map.of(
            "nodes", RequestDocument.Snapshot::nodes,
            "priorityClasses", RequestDocument.Snapshot::priorityClasses,
            "deviceClasses", RequestDocument.Snapshot::deviceClasses,
            "resourceSlices", RequestDocument.Snapshot::resourceSlices,
            "hyperNodes", RequestDocument.Snapshot::hyperNodes);

    private ChoiceRules() {
    }

    static void validate(ChoiceDocument doc, Predicate<String> watched, int maxClusters, RequestValidator validator,
                         Causes c) {
        List<ChoiceDocument.Cluster> clusters = doc.clusters();
        if (clusters == null || clusters.isEmpty()) {
            c.required("clusters", "at least one cluster to choose among: a name and its snapshot, or the name of a "
                    + "cluster the service watches");
        } else if (clusters.size() > maxClusters) {
            c.tooMany("clusters", clusters.size(), maxClusters);
        } else {
            clusters(clusters, watched, validator, c);
        }
        RequestDocument.Snapshot w = doc.workload();
        if (w == null) {
            c.required("workload", "the objects to place: pods, PodGroups, Workloads, Jobs, claims and templates");
            return;
        }
        Map<String, String> jobPods = workload(w, validator, c);
        if (clusters != null && clusters.size() <= maxClusters) {
            for (int i = 0; i < clusters.size(); i++) {
                ChoiceDocument.Cluster k = clusters.get(i);
                if (k != null && k.snapshot() != null) {
                    collisions(w, jobPods, k.snapshot(), "clusters[" + i + "]"
                            + (k.name() == null ? "" : " (" + k.name() + ")"), c);
                }
            }
        }
    }

    private static void clusters(List<ChoiceDocument.Cluster> clusters, Predicate<String> watched,
                                 RequestValidator validator, Causes c) {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < clusters.size(); i++) {
            ChoiceDocument.Cluster k = clusters.get(i);
            String at = "clusters[" + i + "]";
            if (k == null) {
                c.required(at, "a cluster must be an object with a name and a snapshot, or the name of a watched "
                        + "cluster");
                continue;
            }
            String name = k.name();
            if (name == null || name.isEmpty()) {
                c.required(at + ".name", "every cluster has a name");
            } else if (!Names.isDnsLabel(name)) {
                c.invalid(at + ".name", name, Names.DNS_LABEL_MESSAGE);
            } else if (!seen.add(name)) {
                c.duplicate(at + ".name", name);
            } else if (k.snapshot() == null && !watched.test(name)) {
                c.notFound(at + ".name", name, "no cluster of that name is watched (muster.clusters." + name
                        + ".source) and the entry carries no snapshot");
            }
            if (k.snapshot() != null) {
                validator.validateSnapshot(k.snapshot(), new FieldPath(at + ".snapshot"), c);
            }
        }
    }

    /** The workload's own rules; returns the pods its Jobs stand for (see {@link #jobPods}). */
    private static Map<String, String> workload(RequestDocument.Snapshot w, RequestValidator validator, Causes c) {
        for (String list : List.of("nodes", "priorityClasses", "deviceClasses", "resourceSlices", "hyperNodes")) {
            if (CLUSTER_LISTS.get(list).apply(w) != null) {
                c.forbidden("workload." + list, "a workload holds what is submitted; " + list
                        + " belong to each cluster's snapshot");
            }
        }
        boolean places = nonEmpty(w.pods()) || nonEmpty(w.podGroups()) || nonEmpty(w.jobs())
                || nonEmpty(w.workloads()) || nonEmpty(w.compositePodGroups());
        if (!places) {
            c.required("workload", "names nothing to place: give its pods, PodGroups, Workloads or Jobs");
        }
        RequestDocument.Snapshot alone = new RequestDocument.Snapshot(List.of(), w.pods(), w.podGroups(),
                w.workloads(), null, w.podDisruptionBudgets(), null, null, w.resourceClaims(),
                w.resourceClaimTemplates(), w.jobs(), w.compositePodGroups(), null);
        validator.validateSnapshot(alone, new FieldPath("workload"), c);
        if (w.pods() != null) {
            for (int i = 0; i < w.pods().size(); i++) {
                Kube.Pod p = w.pods().get(i);
                if (p != null && p.spec() != null && p.spec().nodeName() != null && !p.spec().nodeName().isEmpty()) {
                    c.forbidden("workload.pods[" + i + "].spec.nodeName", "a workload's pods are not created yet: "
                            + "a bound pod belongs to a cluster's snapshot");
                }
            }
        }
        if (w.jobs() != null) {
            for (int i = 0; i < w.jobs().size(); i++) {
                Kube.Job j = w.jobs().get(i);
                if (j != null && j.spec() != null && j.spec().template() != null && j.spec().template().spec() != null) {
                    PodRules.templateSpec(j.spec().template().spec(),
                            new FieldPath("workload.jobs[" + i + "].spec.template.spec"), c);
                }
            }
            return jobPods(w, validator.limits().maxPods(), c);
        }
        return Map.of();
    }

    /**
     * The pods the workload's Jobs stand for (those of a Job none of whose pods is given, {@link JobPods}): with the
     * pods given, at most {@code maxPods} ({@code muster.limits.max-pods}, the limit of a snapshot's pods), so that a
     * Job's {@code parallelism} cannot make the service build more pods than a request may send; and not bound, as a
     * workload's pods are not; their names taken by no pod given.
     *
     * @return the pods the Jobs stand for, by namespace/name, with their Job's name's path (those of the Jobs before
     *         the limit)
     */
    private static Map<String, String> jobPods(RequestDocument.Snapshot w, int maxPods, Causes c) {
        Map<String, String> jobPods = new HashMap<>();
        long total = w.pods() == null ? 0 : w.pods().size();
        JobPods.Owners owners = JobPods.Owners.of(w.pods());
        Map<String, String> names = new HashMap<>();
        if (w.pods() != null) {
            for (int i = 0; i < w.pods().size(); i++) {
                Kube.Pod p = w.pods().get(i);
                if (p != null && p.metadata() != null && p.metadata().name() != null) {
                    names.putIfAbsent(p.metadata().namespaceOrDefault() + "/" + p.metadata().name(),
                            "workload.pods[" + i + "]");
                }
            }
        }
        for (int i = 0; i < w.jobs().size(); i++) {
            Kube.Job j = w.jobs().get(i);
            // a Job without a name or a spec has its causes already; one whose pods are given stands for none
            if (j == null || j.metadata() == null || j.metadata().name() == null || j.spec() == null
                    || owners.owns(j)) {
                continue;
            }
            int n = JobPods.count(j);
            total += n;
            String at = "workload.jobs[" + i + "].spec";
            if (total > maxPods) {
                c.invalid(at + ".parallelism", j.spec().parallelism(), "a workload stands for at most " + maxPods
                        + " pods (muster.limits.max-pods): the pods given and those its Jobs' controllers would "
                        + "create, " + total + " with this Job's " + n);
                return jobPods;
            }
            Kube.PodSpec t = j.spec().template() == null ? null : j.spec().template().spec();
            if (n > 0 && t != null && t.nodeName() != null && !t.nodeName().isEmpty()) {
                c.forbidden(at + ".template.spec.nodeName", "a workload's pods are not created yet: the pods this Job "
                        + "stands for would be bound, and a bound pod belongs to a cluster's snapshot");
            }
            String ns = j.metadata().namespaceOrDefault();
            String name = "workload.jobs[" + i + "].metadata.name";
            boolean reported = false;
            for (int k = 0; k < n; k++) {
                String pod = ns + "/" + j.metadata().name() + "-" + k;
                jobPods.putIfAbsent(pod, name);
                String other = names.putIfAbsent(pod, "workload.jobs[" + i + "]");
                if (other != null && !reported) {
                    c.duplicate(name, j.metadata().name(), "the pod " + pod + " this Job stands for is also "
                            + other + "'s");
                    reported = true;
                }
            }
        }
        return jobPods;
    }

    /** Objects of the workload a cluster given inline already has, as a create would find them. */
    private static void collisions(RequestDocument.Snapshot w, Map<String, String> jobPods,
                                   RequestDocument.Snapshot cluster, String where, Causes c) {
        collide(w.pods(), cluster.pods(), Kube.Pod::metadata, "pods", "Pod", where, c);
        collide(w.podGroups(), cluster.podGroups(), Kube.PodGroup::metadata, "podGroups", "PodGroup", where, c);
        collide(w.resourceClaims(), cluster.resourceClaims(), KubeDra.ResourceClaim::metadata, "resourceClaims",
                "ResourceClaim", where, c);
        collide(w.resourceClaimTemplates(), cluster.resourceClaimTemplates(), KubeDra.ResourceClaimTemplate::metadata,
                "resourceClaimTemplates", "ResourceClaimTemplate", where, c);
        collide(w.jobs(), cluster.jobs(), Kube.Job::metadata, "jobs", "Job", where, c);
        if (jobPods != null && !jobPods.isEmpty() && cluster.pods() != null) {
            for (Kube.Pod p : cluster.pods()) {
                String key = p == null ? null : key(p.metadata());
                String at = key == null ? null : jobPods.get(key);
                if (at != null) {
                    c.duplicate(at, key, where + " already has the Pod " + key + " this Job stands for");
                }
            }
        }
    }

    private static <T, M> void collide(List<T> workload, List<T> cluster, Function<T, M> meta, String list,
                                       String kind, String where, Causes c) {
        if (workload == null || workload.isEmpty() || cluster == null || cluster.isEmpty()) {
            return;
        }
        Map<String, Integer> names = new HashMap<>();
        for (int i = 0; i < workload.size(); i++) {
            String key = key(workload.get(i) == null ? null : meta.apply(workload.get(i)));
            if (key != null) {
                names.putIfAbsent(key, i);
            }
        }
        for (T o : cluster) {
            String key = key(o == null ? null : meta.apply(o));
            Integer i = key == null ? null : names.remove(key);
            if (i != null) {
                c.duplicate("workload." + list + "[" + i + "].metadata.name", key,
                        where + " already has the " + kind + " " + key);
            }
        }
    }

    private static String key(Object meta) {
        String ns;
        String name;
        if (meta instanceof Kube.ObjectMeta m) {
            ns = m.namespaceOrDefault();
            name = m.name();
        } else if (meta instanceof KubeDra.ClaimMeta m) {
            ns = m.namespace() == null || m.namespace().isEmpty() ? "default" : m.namespace();
            name = m.name();
        } else {
            return null;
        }
        return name == null ? null : ns + "/" + name;
    }

    private static boolean nonEmpty(List<?> l) {
        return l != null && !l.isEmpty();
    }
}
