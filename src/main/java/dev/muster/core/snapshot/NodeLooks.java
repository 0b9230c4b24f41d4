package dev.muster.core.snapshot;

import dev.muster.core.framework.NodeInfo;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Each compiled node's look: what a node's verdicts for a node-local pod depend on besides its labels and what signing
 * plugins read (allocatable and requested resources, pod counts, schedulability, taints, used host ports, whether its
 * pods carry affinity terms). Nodes that look alike share one look object, hashed once. A pure function of the
 * snapshot's nodes, worked out once (lazily, or ahead by whoever compiles the snapshot) and shared by every decision
 * run on it; a run works out the look of a node it changed again ({@link #look(NodeInfo, int)}), equal to a compiled
 * node's when they look alike.
 */
public final class NodeLooks {
    private final Look[] looks;

    private NodeLooks(Look[] looks) {
        this.looks = looks;
    }

    static NodeLooks of(NodeInfo[] nodes, int resources) {
        Map<Look, Look> distinct = new HashMap<>();
        Look[] looks = new Look[nodes.length];
        for (int i = 0; i < nodes.length; i++) {
            looks[i] = distinct.computeIfAbsent(look(nodes[i], resources), l -> l);
        }
        return new NodeLooks(looks);
    }

    /** Compiled node {@code node}'s look (one object for nodes that look alike). */
    public Look look(int node) {
        return looks[node];
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
            return o == this || o instanceof Look l && l.hash == hash && Arrays.equals(values, l.values)
                    && taints.equals(l.taints) && ports.equals(l.ports);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }
}
