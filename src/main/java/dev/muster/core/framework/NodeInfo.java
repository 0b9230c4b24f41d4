package dev.muster.core.framework;

import dev.muster.core.model.HostPort;
import dev.muster.core.model.Node;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A node and what is on it during one decision run: the pods bound or assumed there and the sums of their
 * requests. Mutated only by the run's overlay (assume/forget) in the sequential parts of a cycle; Filter and Score
 * plugins read it (possibly from several threads) and never change it.
 */
public final class NodeInfo {
    private final int index;
    private final Node node;
    private final long[] allocatable;
    private final long allowedPodNumber;
    private final long[] requested;
    private long nonZeroCpu;
    private long nonZeroMemory;
    private final List<PodInfo> pods = new ArrayList<>();
    private final List<HostPort> usedPorts = new ArrayList<>();
    private int podsWithAffinity;
    private int podsWithRequiredAntiAffinity;

    public NodeInfo(int index, Node node, long[] allocatable, long allowedPodNumber) {
        this.index = index;
        this.node = node;
        this.allocatable = allocatable;
        this.allowedPodNumber = allowedPodNumber;
        this.requested = new long[allocatable.length];
    }

    /**
     * A node with the same pods, for a decision run to change without touching this one (a snapshot's compiled table
     * is copied into each run's overlay).
     */
    public NodeInfo copy() {
        NodeInfo c = new NodeInfo(index, node, allocatable, allowedPodNumber);
        System.arraycopy(requested, 0, c.requested, 0, requested.length);
        c.nonZeroCpu = nonZeroCpu;
        c.nonZeroMemory = nonZeroMemory;
        c.pods.addAll(pods);
        c.usedPorts.addAll(usedPorts);
        c.podsWithAffinity = podsWithAffinity;
        c.podsWithRequiredAntiAffinity = podsWithRequiredAntiAffinity;
        return c;
    }

    public int index() {
        return index;
    }

    public Node node() {
        return node;
    }

    public String name() {
        return node.name();
    }

    public long allocatable(int resource) {
        return allocatable[resource];
    }

    public long requested(int resource) {
        return requested[resource];
    }

    public long allowedPodNumber() {
        return allowedPodNumber;
    }

    public int podCount() {
        return pods.size();
    }

    public long nonZeroCpu() {
        return nonZeroCpu;
    }

    public long nonZeroMemory() {
        return nonZeroMemory;
    }

    /** Pods bound or assumed on this node, in the order they were added. */
    public List<PodInfo> pods() {
        return Collections.unmodifiableList(pods);
    }

    public List<HostPort> usedPorts() {
        return Collections.unmodifiableList(usedPorts);
    }

    /** Whether any pod here has pod affinity or anti-affinity terms (lets InterPodAffinity skip empty nodes). */
    public boolean hasPodsWithAffinity() {
        return podsWithAffinity > 0;
    }

    public boolean hasPodsWithRequiredAntiAffinity() {
        return podsWithRequiredAntiAffinity > 0;
    }

    /** Adds a bound or assumed pod. Only the snapshot and its overlay call this. */
    public void add(PodInfo pod) {
        pods.add(pod);
        long[] r = pod.requestVector();
        for (int i = 0; i < r.length; i++) {
            requested[i] += r[i];
        }
        nonZeroCpu += pod.nonZeroCpu();
        nonZeroMemory += pod.nonZeroMemory();
        usedPorts.addAll(pod.pod().hostPorts());
        if (pod.pod().affinity().hasPodAffinity()) {
            podsWithAffinity++;
        }
        if (!pod.pod().affinity().requiredPodAntiAffinity().isEmpty()) {
            podsWithRequiredAntiAffinity++;
        }
    }

    /** Removes a pod added before. Only the snapshot and its overlay call this. */
    public void remove(PodInfo pod) {
        int at = pods.lastIndexOf(pod);
        if (at < 0) {
            throw new IllegalStateException("pod " + pod + " is not on node " + name());
        }
        pods.remove(at);
        long[] r = pod.requestVector();
        for (int i = 0; i < r.length; i++) {
            requested[i] -= r[i];
        }
        nonZeroCpu -= pod.nonZeroCpu();
        nonZeroMemory -= pod.nonZeroMemory();
        for (HostPort p : pod.pod().hostPorts()) {
            usedPorts.remove(p);
        }
        if (pod.pod().affinity().hasPodAffinity()) {
            podsWithAffinity--;
        }
        if (!pod.pod().affinity().requiredPodAntiAffinity().isEmpty()) {
            podsWithRequiredAntiAffinity--;
        }
    }

    @Override
    public String toString() {
        return node.name();
    }
}
