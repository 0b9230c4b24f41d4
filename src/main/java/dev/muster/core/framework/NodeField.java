package dev.muster.core.framework;

import dev.muster.core.model.Affinity;
import dev.muster.core.model.Pod;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A part of a node, as a decision run sees it ({@link NodeInfo}), that a plugin may read. A plugin names the ones its
 * PreFilter, Filter, PreScore and Score read ({@link Plugin#nodeFields()}); a node's look, which decides when two
 * nodes are interchangeable for placement symmetry, compares the union over the profile (see
 * {@link FrameworkRuntime#lookedNodeFields()}), the node-side counterpart of {@link PodField}.
 * <p>
 * A field's value is either numbers ({@link #width} of them, written by {@link #write}) or one object compared with
 * {@code equals} ({@link #value}); a look holds the values of its fields.
 */
public enum NodeField {
    /** The node's name, and so which node it is (its position in the snapshot). No two nodes share it. */
    NAME {
        @Override
        public Object value(NodeInfo n) {
            return n.name();
        }
    },
    LABELS {
        @Override
        public Object value(NodeInfo n) {
            return n.node().labels();
        }
    },
    TAINTS {
        @Override
        public Object value(NodeInfo n) {
            return n.node().taints();
        }
    },
    /** {@code spec.unschedulable}: the node is cordoned. */
    UNSCHEDULABLE {
        @Override
        public int width(int resources) {
            return 1;
        }

        @Override
        public void write(NodeInfo n, int resources, long[] out, int at) {
            out[at] = n.node().unschedulable() ? 1 : 0;
        }
    },
    /** Every resource's allocatable amount, and the number of pods allowed (allocatable {@code pods}). */
    ALLOCATABLE {
        @Override
        public int width(int resources) {
            return resources + 1;
        }

        @Override
        public void write(NodeInfo n, int resources, long[] out, int at) {
            for (int r = 0; r < resources; r++) {
                out[at + r] = n.allocatable(r);
            }
            out[at + resources] = n.allowedPodNumber();
        }
    },
    /** What the pods there request, summed per resource, and the non-zero cpu and memory sums scoring reads. */
    REQUESTED {
        @Override
        public int width(int resources) {
            return resources + 2;
        }

        @Override
        public void write(NodeInfo n, int resources, long[] out, int at) {
            for (int r = 0; r < resources; r++) {
                out[at + r] = n.requested(r);
            }
            out[at + resources] = n.nonZeroCpu();
            out[at + resources + 1] = n.nonZeroMemory();
        }
    },
    /** How many pods are bound or assumed there. */
    POD_COUNT {
        @Override
        public int width(int resources) {
            return 1;
        }

        @Override
        public void write(NodeInfo n, int resources, long[] out, int at) {
            out[at] = n.podCount();
        }
    },
    /** The host ports the pods there hold, in the order they were added. */
    USED_PORTS {
        @Override
        public Object value(NodeInfo n) {
            return n.usedPorts().isEmpty() ? List.of() : List.copyOf(n.usedPorts());
        }
    },
    /**
     * The pods there as other pods' terms and spread constraints see them: each one's namespace, labels, pod
     * (anti-)affinity terms and whether it is terminating, in the order they were added. The node's "pods with
     * affinity" flags summarise these terms.
     */
    PODS {
        @Override
        public Object value(NodeInfo n) {
            List<PodInfo> pods = n.pods();
            if (pods.isEmpty()) {
                return List.of();
            }
            List<Seen> out = new ArrayList<>(pods.size());
            for (PodInfo p : pods) {
                Pod pod = p.pod();
                out.add(new Seen(pod.ref().namespace(), pod.labels(), pod.affinity(), pod.terminating()));
            }
            return out;
        }
    };

    /** Every field: what a plugin that declares nothing is taken to read. Every node then looks like itself only. */
    public static final Set<NodeField> ALL = Collections.unmodifiableSet(EnumSet.allOf(NodeField.class));

    /** How many numbers this field's value is, on a snapshot of {@code resources} resources (0: an object). */
    public int width(int resources) {
        return 0;
    }

    /** Writes this field's numbers of the node into {@code out} from {@code at}. */
    public void write(NodeInfo n, int resources, long[] out, int at) {
    }

    /** This field's value of the node when it is an object (compared with {@code equals}), else null. */
    public Object value(NodeInfo n) {
        return null;
    }

    /** What {@link #PODS} compares of one pod on the node. */
    private record Seen(String namespace, Map<String, String> labels, Affinity affinity, boolean terminating) {
    }
}
