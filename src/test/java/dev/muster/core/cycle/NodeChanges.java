package dev.muster.core.cycle;

import dev.muster.core.model.ClusterState;
import dev.muster.core.model.HostPort;
import dev.muster.core.model.Node;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodRef;
import dev.muster.core.model.ResourceList;
import dev.muster.core.model.Taint;
import dev.muster.core.model.TaintEffect;
import dev.muster.core.properties.ClusterGen;
import dev.muster.core.testing.PodCopies;
import dev.muster.core.testing.Pods;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

import static dev.muster.core.testing.Pods.affinityTerm;
import static dev.muster.core.testing.Pods.labels;

/**
 * A generated cluster with probe pods (pending pods of ClusterGen, one per group, out of their groups), and copies of
 * it in which one node is changed one way: what the test that holds node looks to the plugins' reads compares. Every
 * change keeps the cluster valid (a node's pods still name it, requests stay within the cluster's resources).
 */
final class NodeChanges {
    /** One node of the base cluster changed one way; {@code renamedTo} is its name after (its name unless renamed). */
    record Change(String what, String node, String renamedTo, ClusterState after) {
    }

    final ClusterState base;
    final List<Pod> probes = new ArrayList<>();
    final List<Change> changes = new ArrayList<>();

    /**
     * @param nodes how many nodes, picked at random, are each changed in every way that applies to them
     */
    NodeChanges(long seed, int nodes) {
        ClusterState c = ClusterGen.cluster(seed);
        SplittableRandom r = new SplittableRandom(seed * 7919);
        List<Pod> pods = new ArrayList<>();
        Set<String> groups = new HashSet<>();
        int next = 0;
        for (Pod p : c.pods()) {
            if (p.isBound()) {
                pods.add(p);
            } else if (!p.isGated() && groups.add(String.valueOf(p.podGroupName()))) {
                String name = "probe-" + probes.size();
                Pod probe = PodCopies.with(p, Map.of("ref", new PodRef(p.ref().namespace(), name), "podGroupName",
                        PodCopies.NONE, "uid", "uid-" + name));
                probes.add(probe);
                if (seed % 2 == 1) {
                    // a bound copy too, so what counts other pods (spreading, inter-pod terms) has pods to count
                    String copy = name + "-bound";
                    pods.add(PodCopies.with(probe, Map.of("ref", new PodRef(p.ref().namespace(), copy), "uid",
                            "uid-" + copy, "nodeName", c.nodes().get(next++ % c.nodes().size()).name())));
                }
            }
        }
        pods.addAll(probes);
        base = new ClusterState(c.nodes(), pods, c.podGroups(), c.priorityClasses(), c.podDisruptionBudgets(),
                c.compositePodGroups());
        List<Node> picked = new ArrayList<>(c.nodes());
        for (int i = picked.size() - 1; i > 0; i--) {
            int j = r.nextInt(i + 1);
            Node t = picked.get(i);
            picked.set(i, picked.get(j));
            picked.set(j, t);
        }
        for (Node n : picked.subList(0, Math.min(nodes, picked.size()))) {
            addChanges(n, r);
        }
    }

    private void addChanges(Node n, SplittableRandom r) {
        String name = n.name();
        String renamed = name + "-renamed";
        List<Pod> renamedPods = new ArrayList<>();
        for (Pod p : base.pods()) {
            renamedPods.add(name.equals(p.nodeName()) ? PodCopies.with(p, Map.of("nodeName", renamed)) : p);
        }
        changes.add(new Change("rename", name, renamed, with(new Node(renamed, n.uid(), n.labels(), n.taints(),
                n.unschedulable(), n.allocatable()), name, renamedPods)));

        node(n, "label added", withLabel(n, "example.com/mutated", "yes"));
        String zone = n.labels().get(ClusterGen.ZONE);
        int nextZone = ((zone == null ? 0 : zone.charAt(1) - '0') + 1) % 3; // ClusterGen's zones are z0..z2
        node(n, "zone changed", withLabel(n, ClusterGen.ZONE, "z" + nextZone));
        String gen = n.labels().get(ClusterGen.GEN);
        int nextGen = gen == null ? 2 : Integer.parseInt(gen) % 4 + 1;
        node(n, "generation changed", withLabel(n, ClusterGen.GEN, Integer.toString(nextGen)));
        for (String key : List.of(ClusterGen.ZONE, ClusterGen.RACK, ClusterGen.GEN, ClusterGen.HOST)) {
            if (n.labels().containsKey(key)) {
                Map<String, String> labels = new TreeMap<>(n.labels());
                labels.remove(key);
                node(n, "label " + key + " removed", new Node(name, n.uid(), labels, n.taints(), n.unschedulable(),
                        n.allocatable()));
            }
        }

        Taint[] taints = {new Taint("dedicated", "infra", TaintEffect.NoSchedule),
                new Taint("gpu", "true", TaintEffect.NoExecute),
                new Taint("spot", "true", TaintEffect.PreferNoSchedule),
                new Taint("example.com/mutated", "", TaintEffect.NoSchedule)};
        for (Taint t : List.of(taints[r.nextInt(taints.length)], taints[2])) {
            if (!n.taints().contains(t)) {
                List<Taint> more = new ArrayList<>(n.taints());
                more.add(t);
                node(n, "taint " + t.key() + " added", new Node(name, n.uid(), n.labels(), more, n.unschedulable(),
                        n.allocatable()));
            }
        }
        if (!n.taints().isEmpty()) {
            node(n, "taints removed", new Node(name, n.uid(), n.labels(), List.of(), n.unschedulable(),
                    n.allocatable()));
        }
        node(n, "cordon flipped", new Node(name, n.uid(), n.labels(), n.taints(), !n.unschedulable(),
                n.allocatable()));

        node(n, "allocatable shrunk", withAllocatable(n, v -> Math.max(1, v / 4)));
        node(n, "allocatable grown", withAllocatable(n, v -> v * 4));
        long onNode = base.pods().stream().filter(p -> name.equals(p.nodeName()) && holds(p)).count();
        Map<String, Long> slots = new HashMap<>(n.allocatable().amounts());
        slots.put(ResourceList.PODS, onNode == slots.getOrDefault(ResourceList.PODS, 0L) ? onNode + 1 : onNode);
        node(n, "pod slots changed", new Node(name, n.uid(), n.labels(), n.taints(), n.unschedulable(),
                ResourceList.of(slots)));

        Pod probe = probes.isEmpty() ? null : probes.get(r.nextInt(probes.size()));
        pod(n, "empty pod added", Pods.pod("added").namespace("other").on(name).requests("cpu", "0")
                .requests("memory", "0").build());
        if (probe != null) {
            pod(n, "pod like a probe added", PodCopies.with(probe, Map.of("ref", new PodRef(probe.ref().namespace(),
                    "added"), "uid", "uid-added", "nodeName", name)));
        }
        Pod held = null;
        for (Pod p : base.pods()) {
            if (name.equals(p.nodeName()) && holds(p)) {
                held = p;
                break;
            }
        }
        if (held == null) {
            return;
        }
        ResourceList req = held.requests();
        Map<String, Long> more = new HashMap<>(req.amounts());
        more.put(ResourceList.CPU, req.get(ResourceList.CPU) * 4 + 100);
        more.put(ResourceList.MEMORY, req.get(ResourceList.MEMORY) * 4 + (1 << 20));
        changed(held, "requests grown", Map.of("requests", ResourceList.of(more)));
        List<HostPort> ports = List.of(new HostPort("", "TCP", 7000), new HostPort("", "TCP", 8080));
        changed(held, "ports changed", Map.of("hostPorts", held.hostPorts().equals(ports) ? List.of() : ports));
        Map<String, String> labels = new HashMap<>(held.labels());
        if (probe != null && !probe.labels().isEmpty()) {
            labels.putAll(probe.labels());
        }
        labels.put("app", "web".equals(labels.get("app")) ? "db" : "web");
        changed(held, "pod labels changed", Map.of("labels", labels));
        changed(held, "pod terminating flipped", Map.of("terminating", !held.terminating()));
        String group = probe == null ? "g0" : String.valueOf(probe.labels().getOrDefault("grp", "g0"));
        changed(held, "pod anti-affinity added", Map.of("affinity", Pods.pod("x")
                .podAntiAffinity(affinityTerm(labels("grp", group), ClusterGen.HOST)).build().affinity()));
    }

    /** Whether the pod holds what it requests (not Succeeded or Failed). */
    private static boolean holds(Pod p) {
        return !"Succeeded".equals(p.phase()) && !"Failed".equals(p.phase());
    }

    private static Node withLabel(Node n, String key, String value) {
        Map<String, String> labels = new TreeMap<>(n.labels());
        labels.put(key, value);
        return new Node(n.name(), n.uid(), labels, n.taints(), n.unschedulable(), n.allocatable());
    }

    /** The node with its cpu and memory allocatable changed. */
    private static Node withAllocatable(Node n, UnaryOperator<Long> change) {
        Map<String, Long> amounts = new HashMap<>(n.allocatable().amounts());
        amounts.put(ResourceList.CPU, change.apply(amounts.getOrDefault(ResourceList.CPU, 0L)));
        amounts.put(ResourceList.MEMORY, change.apply(amounts.getOrDefault(ResourceList.MEMORY, 0L)));
        return new Node(n.name(), n.uid(), n.labels(), n.taints(), n.unschedulable(), ResourceList.of(amounts));
    }

    private void node(Node before, String what, Node after) {
        changes.add(new Change(what, before.name(), before.name(), with(after, before.name(), base.pods())));
    }

    private void pod(Node n, String what, Pod added) {
        List<Pod> pods = new ArrayList<>(base.pods());
        pods.add(added);
        changes.add(new Change(what, n.name(), n.name(), new ClusterState(base.nodes(), pods, base.podGroups(),
                base.priorityClasses(), base.podDisruptionBudgets(), base.compositePodGroups())));
    }

    private void changed(Pod held, String what, Map<String, Object> change) {
        List<Pod> pods = new ArrayList<>();
        for (Pod p : base.pods()) {
            pods.add(p == held ? PodCopies.with(p, change) : p);
        }
        changes.add(new Change(what, held.nodeName(), held.nodeName(), new ClusterState(base.nodes(), pods,
                base.podGroups(), base.priorityClasses(), base.podDisruptionBudgets(), base.compositePodGroups())));
    }

    /** The base cluster with node {@code replaced} replaced by {@code node}, and these pods. */
    private ClusterState with(Node node, String replaced, List<Pod> pods) {
        List<Node> nodes = new ArrayList<>();
        for (Node n : base.nodes()) {
            nodes.add(n.name().equals(replaced) ? node : n);
        }
        return new ClusterState(nodes, pods, base.podGroups(), base.priorityClasses(), base.podDisruptionBudgets(),
                base.compositePodGroups());
    }
}
