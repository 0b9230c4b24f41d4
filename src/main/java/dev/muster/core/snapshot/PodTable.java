package dev.muster.core.snapshot;

import dev.muster.core.model.Pod;

import java.util.Arrays;

/**
 * What a snapshot keeps per pod ordinal beside the {@code PodInfo}: the pod object as the state listed it, the node
 * it counts on, and the traits the snapshot's indexes are built from. A derived snapshot ({@link IncrementalCompile})
 * reuses an entry by comparing the listed object alone, and rebuilds its indexes from these arrays, so an unchanged
 * pod object is not read again: on a million pods, reading each one costs a cache miss per pod and dominates a
 * derivation.
 */
final class PodTable {
    /** The pod names a PodGroup. */
    static final byte GROUP = 1;
    /** Not bound, not terminal, with scheduling gates. */
    static final byte GATED_PENDING = 2;
    /** Pod affinity or anti-affinity terms of any kind. */
    static final byte AFFINITY = 4;
    /** Required pod anti-affinity terms. */
    static final byte REQUIRED_ANTI = 8;
    /** ResourceClaims or extended requests served by devices. */
    static final byte DEVICES = 16;
    /** Not bound, not terminal (gated or not, being deleted or not): a pod the response accounts for. */
    static final byte PENDING = 32;

    Pod[] listed;
    int[] nodeOf;
    byte[] traits;

    PodTable(int capacity) {
        listed = new Pod[capacity];
        nodeOf = new int[capacity];
        traits = new byte[capacity];
        Arrays.fill(nodeOf, -1);
    }

    /** A copy of {@code other}'s entries with room for {@code capacity} ordinals. */
    PodTable(PodTable other, int capacity) {
        int n = Math.max(capacity, other.listed.length);
        listed = Arrays.copyOf(other.listed, n);
        nodeOf = Arrays.copyOf(other.nodeOf, n);
        traits = Arrays.copyOf(other.traits, n);
        Arrays.fill(nodeOf, other.nodeOf.length, n, -1);
    }

    /** Records a pod entry: the object listed, the pod as compiled (served requests only), its node or -1. */
    void put(int ordinal, Pod listed, Pod compiled, int node) {
        if (ordinal >= this.listed.length) {
            int n = Math.max(ordinal + 1, this.listed.length + (this.listed.length >> 1) + 16);
            this.listed = Arrays.copyOf(this.listed, n);
            int old = nodeOf.length;
            nodeOf = Arrays.copyOf(nodeOf, n);
            Arrays.fill(nodeOf, old, n, -1);
            traits = Arrays.copyOf(traits, n);
        }
        this.listed[ordinal] = listed;
        nodeOf[ordinal] = node;
        traits[ordinal] = traitsOf(compiled);
    }

    /** Forgets an entry whose pod left the state. */
    void clear(int ordinal) {
        listed[ordinal] = null;
        nodeOf[ordinal] = -1;
        traits[ordinal] = 0;
    }

    boolean has(int ordinal, byte trait) {
        return (traits[ordinal] & trait) != 0;
    }

    private static byte traitsOf(Pod p) {
        int t = 0;
        if (p.groupRef() != null) {
            t |= GROUP;
        }
        if (!p.isBound() && !p.isTerminal()) {
            t |= p.isGated() ? GATED_PENDING | PENDING : PENDING;
        }
        if (p.affinity().hasPodAffinity()) {
            t |= AFFINITY;
        }
        if (!p.affinity().requiredPodAntiAffinity().isEmpty()) {
            t |= REQUIRED_ANTI;
        }
        if (p.usesDevices()) {
            t |= DEVICES;
        }
        return (byte) t;
    }
}
