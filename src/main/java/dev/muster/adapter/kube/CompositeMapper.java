package dev.muster.adapter.kube;

import dev.muster.core.model.CompositePodGroup;
import dev.muster.core.model.DisruptionMode;
import dev.muster.core.model.GroupRef;
import dev.muster.core.model.PodGroup;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * CompositePodGroups ({@code scheduling.k8s.io/v1alpha3}) into the core model, and the link from each child PodGroup
 * ({@code spec.parentCompositePodGroupName}) to its composite.
 */
final class CompositeMapper {
    private CompositeMapper() {
    }

    static List<CompositePodGroup> composites(List<Kube.CompositePodGroup> in) {
        if (in == null || in.isEmpty()) {
            return List.of();
        }
        List<CompositePodGroup> out = new ArrayList<>(in.size());
        for (Kube.CompositePodGroup c : in) {
            Kube.ObjectMeta m = c.metadata();
            Kube.CompositePodGroupSpec spec = c.spec();
            boolean gang = spec.schedulingPolicy() != null && spec.schedulingPolicy().gang() != null;
            int min = gang && spec.schedulingPolicy().gang().minGroupCount() != null
                    ? spec.schedulingPolicy().gang().minGroupCount() : 0;
            List<String> keys = new ArrayList<>();
            if (spec.schedulingConstraints() != null && spec.schedulingConstraints().topology() != null) {
                for (Kube.TopologyConstraint t : spec.schedulingConstraints().topology()) {
                    keys.add(t.key());
                }
            }
            String mode = spec.disruptionMode() == null ? null : spec.disruptionMode().modeName();
            out.add(new CompositePodGroup(new GroupRef(m.namespaceOrDefault(), m.name()),
                    spec.parentCompositePodGroupName(), gang, min, keys,
                    mode == null || mode.isEmpty() ? DisruptionMode.Pod : DisruptionMode.valueOf(mode),
                    spec.priorityClassName(), spec.priority(), Timestamps.epochSecondsOrMax(m.creationTimestamp())));
        }
        return out;
    }

    /**
     * The groups, each Kubernetes PodGroup that names a parent composite carrying that name, and the
     * {@code preemptionPolicy} of the nearest composite above it that sets one: as a composite's priority, it stands
     * for the whole tree below it.
     */
    static List<PodGroup> withParents(List<PodGroup> groups, List<Kube.PodGroup> in,
                                      List<Kube.CompositePodGroup> composites) {
        if (in == null || in.isEmpty()) {
            return groups;
        }
        Map<GroupRef, Kube.CompositePodGroupSpec> specs = new HashMap<>();
        if (composites != null) {
            for (Kube.CompositePodGroup c : composites) {
                if (c != null && c.metadata() != null && c.spec() != null) {
                    specs.putIfAbsent(new GroupRef(c.metadata().namespaceOrDefault(), c.metadata().name()), c.spec());
                }
            }
        }
        Map<GroupRef, String> parents = new HashMap<>();
        for (Kube.PodGroup g : in) {
            if (g.spec() != null && g.spec().parentCompositePodGroupName() != null
                    && !g.spec().parentCompositePodGroupName().isEmpty()) {
                parents.put(new GroupRef(g.metadata().namespaceOrDefault(), g.metadata().name()),
                        g.spec().parentCompositePodGroupName());
            }
        }
        if (parents.isEmpty()) {
            return groups;
        }
        List<PodGroup> out = new ArrayList<>(groups.size());
        for (PodGroup g : groups) {
            String parent = parents.get(g.ref());
            if (parent == null) {
                out.add(g);
                continue;
            }
            PodGroup child = g.withParentComposite(parent);
            String policy = treePolicy(specs, g.ref().namespace(), parent);
            out.add(policy == null ? child : child.withPreemptionPolicy(policy));
        }
        return out;
    }

    /** The preemption policy of the nearest composite from {@code name} up that sets one, or null. */
    private static String treePolicy(Map<GroupRef, Kube.CompositePodGroupSpec> specs, String namespace, String name) {
        for (int depth = 0; name != null && depth < CompositePodGroup.MAX_TREE_DEPTH; depth++) {
            Kube.CompositePodGroupSpec spec = specs.get(new GroupRef(namespace, name));
            if (spec == null) {
                return null;
            }
            if (spec.preemptionPolicy() != null && !spec.preemptionPolicy().isEmpty()) {
                return spec.preemptionPolicy();
            }
            name = spec.parentCompositePodGroupName();
        }
        return null;
    }
}
