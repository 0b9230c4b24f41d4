package dev.muster.core.snapshot;

import dev.muster.core.framework.NodeField;
import dev.muster.core.framework.NodeInfo;

import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Each compiled node's look over a set of {@link NodeField}s: the values of those fields, what a node's verdicts for a
 * node-local pod depend on besides the labels placement symmetry compares itself and what signing plugins' node keys
 * stand for. The fields are what the profile's plugins declare they read
 * ({@link dev.muster.core.framework.FrameworkRuntime#lookedNodeFields()}); with {@link NodeField#NAME} among them no
 * two nodes look alike. Nodes that look alike share one look object, hashed once. A pure function of the snapshot's
 * nodes and the fields, worked out once per field set (lazily, or ahead by whoever compiles the snapshot) and shared by
 * every decision run on it; a run works out the look of a node it changed again ({@link #look(NodeInfo, int, Set)}),
 * equal to a compiled node's when they look alike.
 */
public final class NodeLooks {
    private final Set<NodeField> fields;
    private final Look[] looks;

    private NodeLooks(Set<NodeField> fields, Look[] looks) {
        this.fields = fields;
        this.looks = looks;
    }

    static NodeLooks of(NodeInfo[] nodes, int resources, Set<NodeField> fields) {
        Set<NodeField> set = fields.isEmpty() ? Collections.emptySet()
                : Collections.unmodifiableSet(EnumSet.copyOf(fields));
        Map<Look, Look> distinct = new HashMap<>();
        Look[] looks = new Look[nodes.length];
        for (int i = 0; i < nodes.length; i++) {
            looks[i] = distinct.computeIfAbsent(look(nodes[i], resources, set), l -> l);
        }
        return new NodeLooks(set, looks);
    }

    /** The fields these looks compare. */
    public Set<NodeField> fields() {
        return fields;
    }

    /** Compiled node {@code node}'s look (one object for nodes that look alike). */
    public Look look(int node) {
        return looks[node];
    }

    /** A node's look over {@code fields}, with {@code resources} the snapshot's resource count. */
    public static Look look(NodeInfo n, int resources, Set<NodeField> fields) {
        int width = 0;
        int objects = 0;
        for (NodeField f : fields) {
            int w = f.width(resources);
            width += w;
            objects += w == 0 ? 1 : 0;
        }
        long[] values = new long[width];
        Object[] others = new Object[objects];
        int at = 0;
        int o = 0;
        for (NodeField f : fields) {
            int w = f.width(resources);
            if (w == 0) {
                others[o++] = f.value(n);
            } else {
                f.write(n, resources, values, at);
                at += w;
            }
        }
        return new Look(values, others, Arrays.hashCode(values) * 31 + Arrays.hashCode(others));
    }

    /** One look: the numeric fields' values, then the other fields' values, in field order; hashed once. */
    public record Look(long[] values, Object[] objects, int hash) {
        @Override
        public boolean equals(Object o) {
            return o == this || o instanceof Look l && l.hash == hash && Arrays.equals(values, l.values)
                    && Arrays.equals(objects, l.objects);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }
}
