package dev.muster.adapter.kube;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * What the Job controller (gate {@code WorkloadWithJob}) would create for a batch/v1 Job: whether the Job is a gang
 * candidate, and the names of the Workload, its single pod group template and the PodGroup.
 *
 * <p>A Job qualifies when {@code parallelism > 1}, {@code completionMode: Indexed}, {@code completions ==
 * parallelism} and its pod template names no {@code schedulingGroup}; the gang's {@code minCount} is
 * {@code parallelism}. Names: the Workload is {@code <job>-<hash(job uid)>}, its template {@code <job>-pgt-0}, the
 * PodGroup {@code <workload>-<template>-<hash(workload + template)>}, each hash the FNV-32a sum of its input written
 * in decimal and mapped onto the controller's safe alphabet, prefixes cut so a name fits 253 characters (63 for the
 * template).
 */
public final class JobGangs {
    /** The labels the Job controller puts on its pods (newer and legacy keys). */
    public static final String CONTROLLER_UID_LABEL = "batch.kubernetes.io/controller-uid";
    public static final String LEGACY_CONTROLLER_UID_LABEL = "controller-uid";
    public static final String JOB_NAME_LABEL = "batch.kubernetes.io/job-name";
    public static final String LEGACY_JOB_NAME_LABEL = "job-name";

    private static final String SAFE = "bcdfghjklmnpqrstvwxz2456789";
    private static final int MAX_NAME = 253;
    private static final int MAX_LABEL = 63;

    private JobGangs() {
    }

    /**
     * The verdict for one Job.
     *
     * @param qualifies the Job is one the controller makes a gang for
     * @param reason    why (or why not), in a sentence
     * @param minCount  the gang's minCount ({@code parallelism}); 0 when it does not qualify
     */
    public record Verdict(boolean qualifies, String reason, int minCount, String workloadName, String templateName,
                          String podGroupName) {
    }

    /** The verdict for {@code job} (its metadata and spec must be present). */
    public static Verdict verdict(Kube.Job job) {
        Kube.JobSpec s = job.spec();
        if (s == null) {
            return new Verdict(false, "the Job has no spec", 0, null, null, null);
        }
        Integer parallelism = s.parallelism();
        if (parallelism == null || parallelism <= 1) {
            return new Verdict(false, "spec.parallelism is " + (parallelism == null ? "unset (1)" : parallelism)
                    + "; a gang needs more than 1", 0, null, null, null);
        }
        if (!"Indexed".equals(s.completionMode())) {
            return new Verdict(false, "spec.completionMode is " + (s.completionMode() == null ? "unset (NonIndexed)"
                    : s.completionMode()) + "; a gang needs Indexed", 0, null, null, null);
        }
        if (s.completions() == null || !s.completions().equals(parallelism)) {
            return new Verdict(false, "spec.completions (" + (s.completions() == null ? "unset" : s.completions())
                    + ") differs from spec.parallelism (" + parallelism + ")", 0, null, null, null);
        }
        if (s.template() != null && s.template().spec() != null && s.template().spec().schedulingGroup() != null) {
            return new Verdict(false, "the pod template already names a schedulingGroup", 0, null, null, null);
        }
        String jobName = job.metadata().name();
        String uid = job.metadata().uid() == null ? "" : job.metadata().uid();
        String workload = withHash(jobName, hash(uid), MAX_NAME);
        String template = cut(jobName, MAX_LABEL - "-pgt-0".length()) + "-pgt-0";
        String podGroup = withHash(workload + "-" + template, hash(workload + template), MAX_NAME);
        return new Verdict(true, "parallelism " + parallelism + " > 1, completionMode Indexed, completions == "
                + "parallelism and no schedulingGroup in the pod template: a gang of minCount " + parallelism,
                parallelism, workload, template, podGroup);
    }

    /** Whether {@code pod} was created by {@code job}: by the controller-uid label, else by the job-name label. */
    public static boolean controls(Kube.Job job, Map<String, String> podLabels) {
        if (podLabels == null || podLabels.isEmpty()) {
            return false;
        }
        String uid = job.metadata().uid();
        String podUid = podLabels.get(CONTROLLER_UID_LABEL);
        if (podUid == null) {
            podUid = podLabels.get(LEGACY_CONTROLLER_UID_LABEL);
        }
        if (uid != null && !uid.isEmpty() && podUid != null) {
            return uid.equals(podUid);
        }
        String name = podLabels.get(JOB_NAME_LABEL);
        if (name == null) {
            name = podLabels.get(LEGACY_JOB_NAME_LABEL);
        }
        return job.metadata().name().equals(name);
    }

    /** A Workload in the Job's namespace whose {@code spec.controllerRef} names the Job, or null. */
    public static Kube.Workload existingWorkload(Kube.Job job, List<Kube.Workload> workloads) {
        if (workloads == null) {
            return null;
        }
        String ns = job.metadata().namespaceOrDefault();
        for (Kube.Workload w : workloads) {
            if (w == null || w.metadata() == null || w.spec() == null || w.spec().controllerRef() == null
                    || !ns.equals(w.metadata().namespaceOrDefault())) {
                continue;
            }
            Kube.TypedLocalObjectReference ref = w.spec().controllerRef();
            if ("Job".equals(ref.kind()) && job.metadata().name().equals(ref.name())
                    && (ref.apiGroup() == null || ref.apiGroup().isEmpty() || "batch".equals(ref.apiGroup()))) {
                return w;
            }
        }
        return null;
    }

    static String hash(String s) {
        int h = 0x811c9dc5;
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= 0x01000193;
        }
        String digits = Integer.toUnsignedString(h);
        StringBuilder out = new StringBuilder(digits.length());
        for (int i = 0; i < digits.length(); i++) {
            out.append(SAFE.charAt(digits.charAt(i) % SAFE.length()));
        }
        return out.toString();
    }

    private static String withHash(String prefix, String hash, int max) {
        return cut(prefix, max - hash.length() - 1) + "-" + hash;
    }

    private static String cut(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max);
    }
}
