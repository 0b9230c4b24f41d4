package dev.muster.adapter.kube;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Set;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The pods a Job's controller would create for a new Job: {@code parallelism} pods (at most {@code completions};
 * none while suspended) from its template, named {@code <job>-<index>} for an Indexed Job, else {@code <job>-<n>}
 * with {@code n} from 0, labelled as the controller labels them ({@code batch.kubernetes.io/job-name},
 * {@code batch.kubernetes.io/controller-uid} when the Job has a uid, and the completion index of an Indexed Job).
 * A cluster choice's workload may send a Job without its pods; these stand for them.
 */
public final class JobPods {
    /** The label and annotation an Indexed Job's pods carry. */
    public static final String COMPLETION_INDEX = "batch.kubernetes.io/job-completion-index";

    private JobPods() {
    }

    /** How many pods the controller starts with: {@code parallelism} (default 1), at most {@code completions}. */
    public static int count(Kube.Job job) {
        Kube.JobSpec s = job.spec();
        if (s == null || Boolean.TRUE.equals(s.suspend())) {
            return 0;
        }
        int n = s.parallelism() == null ? 1 : s.parallelism();
        if (s.completions() != null) {
            n = Math.min(n, s.completions());
        }
        return Math.max(n, 0);
    }

    /** The pods of {@code job}, in index order. */
    public static List<Kube.Pod> of(Kube.Job job) {
        int n = count(job);
        Kube.ObjectMeta jm = job.metadata();
        Kube.JobTemplate t = job.spec() == null ? null : job.spec().template();
        Kube.ObjectMeta tm = t == null ? null : t.metadata();
        boolean indexed = "Indexed".equals(job.spec() == null ? null : job.spec().completionMode());
        List<Kube.Pod> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Map<String, String> labels = new LinkedHashMap<>();
            if (tm != null && tm.labels() != null) {
                labels.putAll(tm.labels());
            }
            labels.put(JobGangs.JOB_NAME_LABEL, jm.name());
            labels.put(JobGangs.LEGACY_JOB_NAME_LABEL, jm.name());
            if (jm.uid() != null && !jm.uid().isEmpty()) {
                labels.put(JobGangs.CONTROLLER_UID_LABEL, jm.uid());
                labels.put(JobGangs.LEGACY_CONTROLLER_UID_LABEL, jm.uid());
            }
            Map<String, String> annotations = tm == null || tm.annotations() == null ? new HashMap<>()
                    : new HashMap<>(tm.annotations());
            if (indexed) {
                labels.put(COMPLETION_INDEX, Integer.toString(i));
                annotations.put(COMPLETION_INDEX, Integer.toString(i));
            }
            Kube.ObjectMeta meta = new Kube.ObjectMeta(jm.name() + "-" + i, jm.namespace(), null, labels,
                    annotations.isEmpty() ? null : annotations, jm.creationTimestamp(), null, null);
            out.add(new Kube.Pod("v1", "Pod", meta, t == null ? null : t.spec(),
                    new Kube.PodStatus("Pending", null, null)));
        }
        return out;
    }

    /**
     * {@code pods} with, for each Job none of whose pods is among them, the pods its controller would create,
     * after the pods given (Jobs in their order).
     */
    public static List<Kube.Pod> withJobPods(List<Kube.Pod> pods, List<Kube.Job> jobs) {
        if (jobs == null || jobs.isEmpty()) {
            return pods;
        }
        Owners owners = Owners.of(pods);
        List<Kube.Pod> out = pods == null ? new ArrayList<>() : new ArrayList<>(pods);
        for (Kube.Job j : jobs) {
            if (j != null && !owners.owns(j)) {
                out.addAll(of(j));
            }
        }
        return out;
    }

    /** Whether any of {@code pods} is the Job's (in its namespace, labelled as its controller labels them). */
    public static boolean hasPods(Kube.Job job, List<Kube.Pod> pods) {
        return Owners.of(pods).owns(job);
    }

    /**
     * Which Jobs some of a list of pods belong to, by their labels, indexed once so that matching Jobs to pods costs
     * one look-up per Job rather than a pass over the pods: the answer of {@link JobGangs#controls} for some pod.
     */
    public static final class Owners {
        /** namespace + controller uid label, of pods that carry one. */
        private final Set<String> byUid = new HashSet<>();
        /** namespace + job-name label, of pods without a controller uid label. */
        private final Set<String> byNameOnly = new HashSet<>();
        /** namespace + job-name label, of pods with a controller uid label (they match a Job without a uid). */
        private final Set<String> byNameWithUid = new HashSet<>();

        public static Owners of(List<Kube.Pod> pods) {
            Owners o = new Owners();
            if (pods != null) {
                for (Kube.Pod p : pods) {
                    Kube.ObjectMeta m = p == null ? null : p.metadata();
                    if (m == null || m.labels() == null || m.labels().isEmpty()) {
                        continue;
                    }
                    String ns = m.namespaceOrDefault() + "\u0000";
                    Map<String, String> l = m.labels();
                    String uid = l.get(JobGangs.CONTROLLER_UID_LABEL);
                    if (uid == null) {
                        uid = l.get(JobGangs.LEGACY_CONTROLLER_UID_LABEL);
                    }
                    String name = l.get(JobGangs.JOB_NAME_LABEL);
                    if (name == null) {
                        name = l.get(JobGangs.LEGACY_JOB_NAME_LABEL);
                    }
                    if (uid != null) {
                        o.byUid.add(ns + uid);
                        if (name != null) {
                            o.byNameWithUid.add(ns + name);
                        }
                    } else if (name != null) {
                        o.byNameOnly.add(ns + name);
                    }
                }
            }
            return o;
        }

        /** Whether some pod of the list is the Job's. */
        public boolean owns(Kube.Job job) {
            Kube.ObjectMeta m = job.metadata();
            if (m == null) {
                return false;
            }
            String ns = m.namespaceOrDefault() + "\u0000";
            String uid = m.uid();
            if (uid != null && !uid.isEmpty()) {
                return byUid.contains(ns + uid) || (m.name() != null && byNameOnly.contains(ns + m.name()));
            }
            return m.name() != null && (byNameOnly.contains(ns + m.name()) || byNameWithUid.contains(ns + m.name()));
        }
    }
}
