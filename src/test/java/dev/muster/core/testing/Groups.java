package dev.muster.core.testing;

import dev.muster.core.model.Condition;
import dev.muster.core.model.DisruptionMode;
import dev.muster.core.model.GroupRef;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodGroup;
import dev.muster.core.model.ResourceList;
import dev.muster.core.model.SchedulingPolicy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds PodGroups for tests ({@code gang("train", 4).topology("rack").build()}) and edits pods into groups
 * ({@code Groups.member(pod, "train")}).
 */
public final class Groups {
    private final String name;
    private String namespace = "default";
    private SchedulingPolicy policy;
    private final List<String> topology = new ArrayList<>();
    private Integer priority;
    private long created = 1_700_000_000L;
    private final List<Condition> conditions = new ArrayList<>();
    private final Map<String, String> annotations = new LinkedHashMap<>();
    private DisruptionMode disruptionMode = DisruptionMode.Pod;
    private final Map<String, Integer> minPerRole = new LinkedHashMap<>();
    private ResourceList minResources;

    private Groups(String name, SchedulingPolicy policy) {
        this.name = name;
        this.policy = policy;
    }

    public static Groups gang(String name, int minCount) {
        return new Groups(name, SchedulingPolicy.gang(minCount));
    }

    public static Groups basic(String name) {
        return new Groups(name, SchedulingPolicy.BASIC);
    }

    public Groups namespace(String ns) {
        this.namespace = ns;
        return this;
    }

    public Groups topology(String key) {
        topology.add(key);
        return this;
    }

    public Groups priority(int p) {
        this.priority = p;
        return this;
    }

    public Groups created(long epochSeconds) {
        this.created = epochSeconds;
        return this;
    }

    public Groups annotation(String key, String value) {
        annotations.put(key, value);
        return this;
    }

    public Groups condition(String type, String status, String reason, String message) {
        conditions.add(new Condition(type, status, reason, message, 1L, "2026-01-01T00:00:00Z"));
        return this;
    }

    public Groups disruptionMode(DisruptionMode mode) {
        this.disruptionMode = mode;
        return this;
    }

    /** A per-role minimum: at least {@code min} members of role {@code role} bound or placed. */
    public Groups minPerRole(String role, int min) {
        minPerRole.put(role, min);
        return this;
    }

    /** Coscheduling's minResources: the free capacity summed over the cluster must hold these amounts. */
    public Groups minResources(Map<String, Long> amounts) {
        this.minResources = ResourceList.of(amounts);
        return this;
    }

    public PodGroup build() {
        return new PodGroup(new GroupRef(namespace, name), "uid-" + name, 1, created, policy, topology, List.of(),
                disruptionMode, null, priority, conditions, annotations, null, minResources, null, minPerRole);
    }

    /** The pod, as a member of group {@code group} in its namespace. */
    public static Pod member(Pod p, String group) {
        return with(p, group, p.priority(), p.schedulingGates(), p.creationEpochSec());
    }

    public static Pod withPriority(Pod p, int priority) {
        return with(p, p.podGroupName(), priority, p.schedulingGates(), p.creationEpochSec());
    }

    public static Pod gated(Pod p, String... gates) {
        return with(p, p.podGroupName(), p.priority(), List.of(gates), p.creationEpochSec());
    }

    public static Pod created(Pod p, long epochSeconds) {
        return with(p, p.podGroupName(), p.priority(), p.schedulingGates(), epochSeconds);
    }

    private static Pod with(Pod p, String group, Integer priority, List<String> gates, long created) {
        return new Pod(p.ref(), p.uid(), p.labels(), created, p.nodeName(), p.phase(), p.schedulerName(),
                p.requests(), priority, p.priorityClassName(), p.preemptionPolicy(), p.nodeSelector(), p.affinity(),
                p.tolerations(), p.hostPorts(), p.topologySpreadConstraints(), gates, group, p.resourceClaims(),
                p.nominatedNodeName(), p.terminating(), p.resourceClaimStatuses(), p.role());
    }

    /** The pod with role {@code role} in its group (for per-role minimums). */
    public static Pod withRole(Pod p, String role) {
        return new Pod(p.ref(), p.uid(), p.labels(), p.creationEpochSec(), p.nodeName(), p.phase(), p.schedulerName(),
                p.requests(), p.priority(), p.priorityClassName(), p.preemptionPolicy(), p.nodeSelector(),
                p.affinity(), p.tolerations(), p.hostPorts(), p.topologySpreadConstraints(), p.schedulingGates(),
                p.podGroupName(), p.resourceClaims(), p.nominatedNodeName(), p.terminating(),
                p.resourceClaimStatuses(), role);
    }
}
