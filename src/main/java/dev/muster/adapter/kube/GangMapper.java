package dev.muster.adapter.kube;

import dev.muster.core.model.Condition;
import dev.muster.core.model.DisruptionMode;
import dev.muster.core.model.GroupRef;
import dev.muster.core.model.PodGroup;
import dev.muster.core.model.ResourceList;
import dev.muster.core.model.SchedulingPolicy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Maps every accepted gang shape onto the one PodGroup the engine decides ({@link GangShape}):
 * <ul>
 *   <li>{@code scheduling.k8s.io} v1alpha2 / v1alpha3 / v1beta1 PodGroups as they are (v1beta1's struct
 *   {@code disruptionMode}: {@code single} = Pod, {@code all} = PodGroup);</li>
 *   <li>Volcano and coscheduling PodGroups: {@code minMember} = gang minCount (0 or absent: basic),
 *   {@code minResources} (plus {@code pods: minMember}) = the free capacity the cluster must hold; Volcano's
 *   {@code networkTopology} = HyperNode tiers as topology levels ({@link VolcanoTopology});</li>
 *   <li>v1alpha1 Workloads: one group per (Workload, {@code podGroups[].name}, {@code podGroupReplicaKey}) named by
 *   pods' {@code spec.workloadRef}, named {@code <workload>/<podGroup>[/<replicaKey>]};</li>
 *   <li>Jobs the controller would make a gang for, when neither their Workload nor their PodGroup exists: the
 *   PodGroup it would create ({@link JobGangs}).</li>
 * </ul>
 * A pod joins its group through {@code spec.schedulingGroup}, {@code spec.workloadRef}, Volcano's annotation,
 * coscheduling's label or its Job (validation allows at most one of the first four). PodGroups referring to a
 * Workload template get warnings when the Workload or template is missing or the policy differs.
 * One per compilation; built before the pods are mapped.
 */
final class GangMapper {
    private final List<Kube.PodGroup> podGroups;
    private final HyperNodeTiers.Result tiers;
    /** v1alpha1 Workloads by namespace/name. */
    private final Map<String, Kube.Workload> embedded = new HashMap<>();
    /** Workload templates (v1alpha2 and later) by namespace/workload/template. */
    private final Map<String, Kube.PodGroupTemplate> templates = new HashMap<>();
    private final Map<String, Kube.Workload> workloads = new HashMap<>();
    /** Jobs whose gang is derived here, by namespace. */
    private final Map<String, List<Kube.Job>> jobs = new HashMap<>();
    private final Map<Kube.Job, JobGangs.Verdict> verdicts = new HashMap<>();
    /** v1alpha1 groups named by pods, in first-seen order. */
    private final Map<GroupRef, Kube.PodWorkloadRef> named = new java.util.LinkedHashMap<>();
    private final Map<GroupRef, Kube.Job> jobGroups = new java.util.LinkedHashMap<>();
    /** Where the members of a group with per-role minimums carry their role, by namespace/name. */
    private final Map<String, RoleSource> roleSources = new HashMap<>();
    private String lastRoleNamespace;
    private String lastRoleGroup;
    private RoleSource lastRoleSource;

    /** A member's role: its value of pod label {@code key}, or of pod annotation {@code key}. */
    private record RoleSource(String key, boolean annotation) {
    }

    GangMapper(RequestDocument.Snapshot s) {
        this(s, HyperNodeTiers.of(s.hyperNodes(), s.nodes()));
    }

    /** @param tiers the snapshot's HyperNode tiers, for Volcano's {@code networkTopology} */
    GangMapper(RequestDocument.Snapshot s, HyperNodeTiers.Result tiers) {
        this.tiers = tiers;
        this.podGroups = s.podGroups() == null ? List.of() : s.podGroups();
        for (Kube.PodGroup g : podGroups) {
            RoleSource source = roleSource(g);
            if (source != null) {
                roleSources.put(g.metadata().namespaceOrDefault() + "/" + g.metadata().name(), source);
            }
        }
        if (s.workloads() != null) {
            for (Kube.Workload w : s.workloads()) {
                String key = w.metadata().namespaceOrDefault() + "/" + w.metadata().name();
                if (GangShape.ofWorkload(w) == GangShape.K8S_V1ALPHA1) {
                    embedded.put(key, w);
                    continue;
                }
                workloads.put(key, w);
                if (w.spec().podGroupTemplates() != null) {
                    for (Kube.PodGroupTemplate t : w.spec().podGroupTemplates()) {
                        templates.put(key + "/" + t.name(), t);
                    }
                }
            }
        }
        if (s.jobs() != null) {
            for (Kube.Job j : s.jobs()) {
                JobGangs.Verdict v = JobGangs.verdict(j);
                if (!v.qualifies() || JobGangs.existingWorkload(j, s.workloads()) != null
                        || hasPodGroup(j.metadata().namespaceOrDefault(), v.podGroupName())) {
                    continue;
                }
                verdicts.put(j, v);
                jobs.computeIfAbsent(j.metadata().namespaceOrDefault(), k -> new ArrayList<>(2)).add(j);
            }
        }
    }

    private boolean hasPodGroup(String ns, String name) {
        for (Kube.PodGroup g : podGroups) {
            if (name.equals(g.metadata().name()) && ns.equals(g.metadata().namespaceOrDefault())) {
                return true;
            }
        }
        return false;
    }

    /** The name of the group {@code p} joins in its namespace, or null. */
    String memberName(Kube.Pod p, Kube.ObjectMeta m, Map<String, String> labels) {
        Kube.PodSpec spec = p.spec();
        if (spec != null && spec.schedulingGroup() != null && spec.schedulingGroup().podGroupName() != null
                && !spec.schedulingGroup().podGroupName().isEmpty()) {
            return spec.schedulingGroup().podGroupName();
        }
        if (spec != null && spec.workloadRef() != null) {
            Kube.PodWorkloadRef w = spec.workloadRef();
            String name = workloadGroupName(w);
            named.putIfAbsent(new GroupRef(m.namespaceOrDefault(), name), w);
            return name;
        }
        if (m.annotations() != null) {
            String v = m.annotations().get(GangShape.VOLCANO_GROUP_ANNOTATION);
            if (v != null && !v.isEmpty()) {
                return v;
            }
        }
        String v = labels.get(GangShape.COSCHEDULING_GROUP_LABEL);
        if (v != null && !v.isEmpty()) {
            return v;
        }
        if (!jobs.isEmpty() && !labels.isEmpty()) {
            List<Kube.Job> candidates = jobs.get(m.namespaceOrDefault());
            if (candidates != null) {
                for (Kube.Job j : candidates) {
                    if (JobGangs.controls(j, labels)) {
                        String name = verdicts.get(j).podGroupName();
                        jobGroups.putIfAbsent(new GroupRef(m.namespaceOrDefault(), name), j);
                        return name;
                    }
                }
            }
        }
        return null;
    }

    private static RoleSource roleSource(Kube.PodGroup g) {
        RoleMinimums.Spec spec = RoleMinimums.of(g.metadata().annotations());
        if (spec != null) {
            return new RoleSource(spec.labelKey(), false);
        }
        if (GangShape.ofPodGroup(g) == GangShape.VOLCANO && g.spec() != null
                && !taskMinimums(g.spec().minTaskMember()).isEmpty()) {
            return new RoleSource(GangShape.VOLCANO_TASK_ANNOTATION, true);
        }
        return null;
    }

    /** Volcano's {@code minTaskMember} without the tasks that need no member. */
    private static Map<String, Integer> taskMinimums(Map<String, Integer> minTaskMember) {
        if (minTaskMember == null || minTaskMember.isEmpty()) {
            return Map.of();
        }
        Map<String, Integer> out = new TreeMap<>();
        for (Map.Entry<String, Integer> e : minTaskMember.entrySet()) {
            if (e.getValue() != null && e.getValue() > 0) {
                out.put(e.getKey(), e.getValue());
            }
        }
        return out;
    }

    /**
     * The role of a member of group {@code group} in its namespace, for that group's per-role minimums: the pod's
     * value of the label the group's {@value RoleMinimums#ANNOTATION} names, or of Volcano's task annotation; null
     * when the group has no role minimums or the pod has no such value.
     */
    String role(String group, Kube.ObjectMeta m, Map<String, String> labels) {
        if (group == null || roleSources.isEmpty()) {
            return null;
        }
        String ns = m.namespaceOrDefault();
        RoleSource source;
        if (group.equals(lastRoleGroup) && ns.equals(lastRoleNamespace)) {
            source = lastRoleSource; // consecutive members of one group: one lookup
        } else {
            source = roleSources.get(ns + "/" + group);
            lastRoleNamespace = ns;
            lastRoleGroup = group;
            lastRoleSource = source;
        }
        if (source == null) {
            return null;
        }
        Map<String, String> from = source.annotation() ? m.annotations() : labels;
        return from == null ? null : from.get(source.key());
    }

    /** {@code <workload>/<podGroup>}, with {@code /<replicaKey>} when the pod names a replica. */
    static String workloadGroupName(Kube.PodWorkloadRef w) {
        String key = w.podGroupReplicaKey();
        return w.name() + "/" + w.podGroup() + (key == null || key.isEmpty() ? "" : "/" + key);
    }

    /** Every group: the snapshot's PodGroups, then the v1alpha1 and Job groups pods named (after the pods). */
    List<PodGroup> groups() {
        List<PodGroup> out = new ArrayList<>(podGroups.size() + named.size() + jobGroups.size());
        for (Kube.PodGroup g : podGroups) {
            out.add(podGroup(g));
        }
        for (Map.Entry<GroupRef, Kube.PodWorkloadRef> e : named.entrySet()) {
            PodGroup g = embeddedGroup(e.getKey(), e.getValue());
            if (g != null) {
                out.add(g);
            }
        }
        for (Map.Entry<GroupRef, Kube.Job> e : jobGroups.entrySet()) {
            Kube.Job j = e.getValue();
            out.add(new PodGroup(e.getKey(), "", 0, Timestamps.epochSecondsOrMax(j.metadata().creationTimestamp()),
                    SchedulingPolicy.gang(verdicts.get(j).minCount()), List.of(), List.of(), DisruptionMode.Pod,
                    null, null, List.of(), Map.of()));
        }
        return out;
    }

    private PodGroup embeddedGroup(GroupRef ref, Kube.PodWorkloadRef w) {
        Kube.Workload wl = embedded.get(ref.namespace() + "/" + w.name());
        if (wl == null || wl.spec().podGroups() == null) {
            return null;
        }
        for (Kube.EmbeddedPodGroup g : wl.spec().podGroups()) {
            if (g.name().equals(w.podGroup())) {
                Kube.ObjectMeta m = wl.metadata();
                return new PodGroup(ref, m.uid(), m.generation() == null ? 0 : m.generation(),
                        Timestamps.epochSecondsOrMax(m.creationTimestamp()), policy(g.policy()), List.of(), List.of(),
                        DisruptionMode.Pod, null, null, List.of(), m.annotations());
            }
        }
        return null;
    }

    /** One PodGroup of the snapshot, by its shape. */
    PodGroup podGroup(Kube.PodGroup g) {
        Kube.ObjectMeta m = g.metadata();
        Kube.PodGroupSpec spec = g.spec();
        GangShape shape = GangShape.ofPodGroup(g);
        GroupRef ref = new GroupRef(m.namespaceOrDefault(), m.name());
        long generation = m.generation() == null ? 0 : m.generation();
        long created = Timestamps.epochSecondsOrMax(m.creationTimestamp());
        List<Condition> conditions = conditions(g.status());
        RoleMinimums.Spec roles = RoleMinimums.of(m.annotations());
        Map<String, Integer> minPerRole = roles == null ? null : roles.minimums();
        if (shape != null && shape.isThirdParty()) {
            int min = spec.minMember() == null ? 0 : spec.minMember();
            if (shape == GangShape.VOLCANO && minPerRole == null) {
                minPerRole = taskMinimums(spec.minTaskMember());
            }
            ResourceList minResources = null;
            if (spec.minResources() != null) {
                Map<String, Qty> amounts = new TreeMap<>(spec.minResources());
                amounts.put(ResourceList.PODS, Qty.of(Integer.toString(min)));
                minResources = EffectiveRequests.ofAmounts(amounts);
            }
            SchedulingPolicy policy = min >= 1 ? SchedulingPolicy.gang(min) : SchedulingPolicy.BASIC;
            if (min < 1 && minPerRole != null && !minPerRole.isEmpty()) {
                // Volcano: with no minMember, the task minimums alone make the gang (their sum is its minimum).
                policy = SchedulingPolicy.gang(sum(minPerRole));
            }
            List<String> keys = List.of();
            Map<String, String> annotations = m.annotations();
            if (shape == GangShape.VOLCANO && spec.networkTopology() != null) {
                VolcanoTopology.Mapped t = VolcanoTopology.map(spec.networkTopology(), annotations, tiers);
                keys = t.topologyKeys();
                annotations = t.annotations();
            }
            return new PodGroup(ref, m.uid(), generation, created, policy, keys, List.of(),
                    DisruptionMode.Pod, shape == GangShape.VOLCANO ? spec.priorityClassName() : null, null,
                    conditions, annotations, null, minResources, List.of(), minPerRole);
        }
        SchedulingPolicy policy = policy(spec.schedulingPolicy());
        List<String> keys = List.of();
        if (spec.schedulingConstraints() != null && spec.schedulingConstraints().topology() != null
                && !spec.schedulingConstraints().topology().isEmpty()) {
            List<Kube.TopologyConstraint> topo = spec.schedulingConstraints().topology();
            keys = new ArrayList<>(topo.size());
            for (Kube.TopologyConstraint t : topo) {
                keys.add(t.key());
            }
        }
        String modeName = spec.disruptionMode() == null ? null : spec.disruptionMode().modeName();
        DisruptionMode mode = modeName == null || modeName.isEmpty() ? DisruptionMode.Pod
                : DisruptionMode.valueOf(modeName);
        return new PodGroup(ref, m.uid(), generation, created, policy, keys, KubeMapper.podClaims(spec.resourceClaims()),
                mode, spec.priorityClassName(), spec.priority(), conditions, m.annotations(),
                KubeMapper.claimStatuses(g.status() == null ? null : g.status().resourceClaimStatuses()), null,
                warnings(ref, spec, policy), minPerRole).withPreemptionPolicy(spec.preemptionPolicy());
    }

    private static int sum(Map<String, Integer> minimums) {
        long total = 0;
        for (int v : minimums.values()) {
            total += v;
        }
        return (int) Math.min(Integer.MAX_VALUE, total);
    }

    /** The template link: upstream admission checks it; a decision only reports what does not hold. */
    private List<String> warnings(GroupRef ref, Kube.PodGroupSpec spec, SchedulingPolicy policy) {
        String workload = null;
        String template = null;
        String field = null;
        if (spec.workloadRef() != null) {
            workload = spec.workloadRef().workloadName();
            template = spec.workloadRef().templateName();
            field = "spec.workloadRef";
        } else if (spec.podGroupTemplateRef() != null && spec.podGroupTemplateRef().workload() != null) {
            workload = spec.podGroupTemplateRef().workload().workloadName();
            template = spec.podGroupTemplateRef().workload().podGroupTemplateName();
            field = "spec.podGroupTemplateRef.workload";
        }
        if (workload == null) {
            return List.of();
        }
        String key = ref.namespace() + "/" + workload;
        if (!workloads.containsKey(key)) {
            return List.of(field + " names Workload \"" + workload + "\", which is not in the snapshot");
        }
        Kube.PodGroupTemplate t = templates.get(key + "/" + template);
        if (t == null) {
            return List.of(field + " names template \"" + template + "\", which Workload \"" + workload
                    + "\" does not have");
        }
        SchedulingPolicy declared = policy(t.schedulingPolicy());
        if (!declared.equals(policy)) {
            return List.of("spec.schedulingPolicy (" + describe(policy) + ") differs from template \"" + template
                    + "\" of Workload \"" + workload + "\" (" + describe(declared) + ")");
        }
        return List.of();
    }

    private static String describe(SchedulingPolicy p) {
        return p.isGang() ? "gang minCount " + p.minCount() : "basic";
    }

    static SchedulingPolicy policy(Kube.SchedulingPolicy p) {
        if (p != null && p.gang() != null) {
            return SchedulingPolicy.gang(p.gang().minCount());
        }
        return SchedulingPolicy.BASIC;
    }

    private static List<Condition> conditions(Kube.PodGroupStatus status) {
        if (status == null || status.conditions() == null || status.conditions().isEmpty()) {
            return List.of();
        }
        List<Condition> out = new ArrayList<>(status.conditions().size());
        for (Kube.Condition c : status.conditions()) {
            out.add(new Condition(c.type(), c.status(), c.reason(), c.message(), c.observedGeneration(),
                    c.lastTransitionTime()));
        }
        return out;
    }
}
