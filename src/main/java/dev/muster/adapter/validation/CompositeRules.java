package dev.muster.adapter.validation;

import dev.muster.adapter.kube.GangShape;
import dev.muster.adapter.kube.Kube;
import dev.muster.adapter.kube.RequestDocument;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static dev.muster.adapter.validation.FieldRules.PREEMPTION_POLICIES;
import static dev.muster.adapter.validation.FieldRules.enumOptional;
import static dev.muster.adapter.validation.FieldRules.labelKey;
import static dev.muster.adapter.validation.FieldRules.longName;
import static dev.muster.adapter.validation.FieldRules.shortName;

/**
 * {@code snapshot.compositePodGroups} ({@code scheduling.k8s.io/v1alpha3} CompositePodGroup): each object's fields,
 * then the trees they form with the PodGroups that name them: a parent that is not in the list, a cycle, a tree
 * deeper than {@value #MAX_DEPTH} levels, or a {@code minGroupCount} above the composite's children is a cause on the
 * field that says it.
 */
final class CompositeRules implements ObjectFamily {
    static final String API_VERSION = GangShape.K8S_V1ALPHA3.apiVersion();
    private static final int MAX_DEPTH = 4;
    private static final int MAX_TOPOLOGY = 1;
    private static final long MAX_USER_PRIORITY = 1_000_000_000L;
    private static final ObjectLists.Kind<Kube.CompositePodGroup> COMPOSITES = new ObjectLists.Kind<>(
            ".compositePodGroups", "must be a CompositePodGroup object", true, Kube.CompositePodGroup::metadata);

    @Override
    public void validate(RequestDocument.Snapshot s, ValidationLimits limits, FieldPath p, Causes c) {
        List<Kube.CompositePodGroup> list = s.compositePodGroups();
        ObjectLists.check(COMPOSITES, list, limits.maxPodGroups(), p, CompositeRules::composite, c);
        if (list != null && list.size() <= limits.maxPodGroups()) {
            trees(list, s.podGroups(), p, c);
        }
    }

    /** {@code p} is the composite's path. */
    private static void composite(Kube.CompositePodGroup g, FieldPath p, Causes c) {
        if (!API_VERSION.equals(g.apiVersion())) {
            c.notSupported(p.at(".apiVersion"), g.apiVersion(), List.of(API_VERSION));
            return;
        }
        PodGroupRules.kind(g.kind(), "CompositePodGroup", p, c);
        Kube.CompositePodGroupSpec s = g.spec();
        if (s == null) {
            c.required(p.at(".spec"), "a CompositePodGroup needs a spec with a schedulingPolicy");
            return;
        }
        p.field(".spec");
        Kube.CompositeSchedulingPolicy policy = s.schedulingPolicy();
        if (policy == null) {
            c.required(p.at(".schedulingPolicy"), "exactly one of `basic`, `gang` must be set");
        } else if (policy.basic() == null && policy.gang() == null) {
            c.invalid(p.at(".schedulingPolicy"), "", "must specify one of: `basic`, `gang`");
        } else if (policy.basic() != null && policy.gang() != null) {
            c.invalid(p.at(".schedulingPolicy"), "{`basic`, `gang`}", "must specify exactly one of: `basic`, `gang`");
        } else if (policy.gang() != null) {
            Integer min = policy.gang().minGroupCount();
            if (min == null || min == 0) {
                c.required(p.at(".schedulingPolicy.gang.minGroupCount"), "");
            } else if (min < 1) {
                c.invalid(p.at(".schedulingPolicy.gang.minGroupCount"), min, "must be greater than or equal to 1");
            }
        }
        if (s.schedulingConstraints() != null && s.schedulingConstraints().topology() != null) {
            List<Kube.TopologyConstraint> topo = s.schedulingConstraints().topology();
            if (topo.size() > MAX_TOPOLOGY) {
                c.tooMany(p.at(".schedulingConstraints.topology"), topo.size(), MAX_TOPOLOGY);
            }
            p.field(".schedulingConstraints.topology");
            for (int i = 0; i < topo.size(); i++) {
                Kube.TopologyConstraint t = topo.get(i);
                labelKey(t == null ? null : t.key(), p.index(i), ".key", c);
                p.pop();
            }
            p.pop();
        }
        if (s.workloadRef() != null) {
            longName(s.workloadRef().workloadName(), p, ".workloadRef.workloadName", true, c);
            shortName(s.workloadRef().templateName(), p, ".workloadRef.templateName", true, c);
        }
        longName(s.parentCompositePodGroupName(), p, ".parentCompositePodGroupName", false, c);
        PodGroupRules.disruptionMode(GangShape.K8S_V1ALPHA3, s.disruptionMode(), p, c);
        enumOptional(s.preemptionPolicy(), p, ".preemptionPolicy", PREEMPTION_POLICIES, c);
        if (s.priorityClassName() != null && !s.priorityClassName().isEmpty()) {
            longName(s.priorityClassName(), p, ".priorityClassName", false, c);
        }
        if (s.priority() != null && s.priority() > MAX_USER_PRIORITY) {
            c.invalid(p.at(".priority"), s.priority(), "must be less than or equal to " + MAX_USER_PRIORITY);
        }
        p.pop();
    }

    /** Parents exist, no cycles, depth within {@value #MAX_DEPTH}, {@code minGroupCount} within the children. */
    private static void trees(List<Kube.CompositePodGroup> list, List<Kube.PodGroup> groups, FieldPath p, Causes c) {
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < list.size(); i++) {
            Kube.CompositePodGroup g = list.get(i);
            if (g != null && g.metadata() != null && g.metadata().name() != null) {
                index.putIfAbsent(key(g.metadata().namespaceOrDefault(), g.metadata().name()), i);
            }
        }
        int[] children = new int[list.size()];
        if (groups != null) {
            for (Kube.PodGroup g : groups) {
                String parent = g == null || g.spec() == null ? null : g.spec().parentCompositePodGroupName();
                Integer at = parent == null || g.metadata() == null ? null
                        : index.get(key(g.metadata().namespaceOrDefault(), parent));
                if (at != null) {
                    children[at]++;
                }
            }
        }
        for (int i = 0; i < list.size(); i++) {
            Kube.CompositePodGroup g = list.get(i);
            String parent = parentOf(g);
            if (parent == null) {
                continue;
            }
            Integer at = index.get(key(g.metadata().namespaceOrDefault(), parent));
            String field = p.at(".compositePodGroups[" + i + "].spec.parentCompositePodGroupName");
            if (at == null) {
                c.invalid(field, parent, "must name a CompositePodGroup of snapshot.compositePodGroups in the same "
                        + "namespace");
                continue;
            }
            children[at]++;
            int depth = 1;
            int walk = at;
            boolean cycle = walk == i;
            while (!cycle && depth <= MAX_DEPTH) {
                String up = parentOf(list.get(walk));
                Integer next = up == null ? null : index.get(key(g.metadata().namespaceOrDefault(), up));
                if (next == null) {
                    break;
                }
                walk = next;
                depth++;
                cycle = walk == i;
            }
            if (cycle) {
                c.invalid(field, parent, "must not form a cycle of CompositePodGroups");
            } else if (depth + 1 > MAX_DEPTH) {
                c.invalid(field, parent, "must not make a CompositePodGroup tree deeper than " + MAX_DEPTH
                        + " levels");
            }
        }
        for (int i = 0; i < list.size(); i++) {
            Kube.CompositePodGroup g = list.get(i);
            Integer min = g == null || g.spec() == null || g.spec().schedulingPolicy() == null
                    || g.spec().schedulingPolicy().gang() == null || g.spec().schedulingPolicy().basic() != null ? null
                    : g.spec().schedulingPolicy().gang().minGroupCount();
            if (min != null && min > children[i]) {
                c.invalid(p.at(".compositePodGroups[" + i + "].spec.schedulingPolicy.gang.minGroupCount"), min,
                        "must be less than or equal to the number of child groups (" + children[i] + ")");
            }
        }
    }

    private static String parentOf(Kube.CompositePodGroup g) {
        if (g == null || g.metadata() == null || g.spec() == null) {
            return null;
        }
        String parent = g.spec().parentCompositePodGroupName();
        return parent == null || parent.isEmpty() ? null : parent;
    }

    private static String key(String namespace, String name) {
        return namespace + "/" + name;
    }
}
