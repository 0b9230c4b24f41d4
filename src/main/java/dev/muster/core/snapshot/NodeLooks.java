package dev.muster.core.snapshot;

import dev.muster.core.framework.NodeInfo;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Each compiled node's look numbered: what a node's verdicts for a node-local pod depend on besides its labels and
 * what signing plugins read (allocatable and requested resources, pod counts, schedulability, taints, used host
 * ports, whether its pods carry affinity terms). Nodes that look alike share a number. A pure function of the
 * snapshot's nodes, worked out once (lazily, or ahead by whoever compiles the snapshot) and shared by every decision
 * run on it: a run numbers the nodes it changed among these first ({@link #find}), so numbers compare across the
 * snapshot's nodes and a run's own copies.
 */
public final class NodeLooks {
    private final Map<Look, Integer> ids;
    private final int[] numbers;

    private NodeLooks(Map<Look, Integer> ids, int[] numbers) {
        this.ids = ids;
        this.numbers = numbers;
    }

    static NodeLooks of(NodeInfo[] nodes, int resources) {
        Map<Look, Integer> ids = new HashMap<>();
        int[] numbers = new int[nodes.length];
        for (int i = 0; i < nodes.length; i++) {
            Look look = look(nodes[i], resources);
            Integer id = ids.get(look);
            if (id == null) {
                id = ids.size();
                ids.put(look, id);
            }
            numbers[i] = id;
        }
        return new NodeLooks(ids, numbers);
    }

    /** The number of compiled node {@code node}'s look. */
    public int number(int node) {
        return numbers[node];
    }

    /** The number of a look among the compiled nodes', or -1 when no compiled node looks like that. */
    public int find(Look look) {
        Integer id = ids.get(look);
        return id == null ? -1 : id;
    }

    /** Numbers of compiled nodes are below this; a run numbers the other looks it meets from here. */
    public int count() {
        return ids.size();
    }

    /** A node's look, with {@code resources} the snapshot's resource count. */
    public static Look look(NodeInfo n, int resources) {
        long[] values = new long[2 * resources + 7];
        for (int r = 0; r < resources; r++) {
            values[r] = n.allocatable(r);
            values[resources + r] = n.requested(r);
        }
        int at = 2 * resources;
        values[at++] = n.nonZeroCpu();
        values[at++] = n.nonZeroMemory();
        values[at++] = n.allowedPodNumber();
        values[at++] = n.podCount();
        values[at++] = n.node().unschedulable() ? 1 : 0;
        values[at++] = n.hasPodsWithAffinity() ? 1 : 0;
        values[at] = n.hasPodsWithRequiredAntiAffinity() ? 1 : 0;
        List<?> ports = n.usedPorts().isEmpty() ? List.of() : List.copyOf(n.usedPorts());
        List<?> taints = n.node().taints();
        int hash = (Arrays.hashCode(values) * 31 + taints.hashCode()) * 31 + ports.hashCode();
        return new Look(values, taints, ports, hash);
    }

    /** One look; hashed once. */
    public record Look(long[] values, List<?> taints, List<?> ports, int hash) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Look l && l.hash == hash && Arrays.equals(values, l.values) && taints.equals(l.taints)
                    && ports.equals(l.ports);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }
}
