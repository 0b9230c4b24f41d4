package dev.muster.core.cycle;

import dev.muster.core.framework.PodInfo;
import dev.muster.core.model.Pod;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Everything about a pod that Filter and Score read. Two pods with equal signatures get the same verdict on every
 * node (upstream's opportunistic-batching signature). A signature is batchable when its verdicts depend only on the
 * node itself: no pod (anti-)affinity terms and no topology spread constraints; then, after a pod is placed,
 * only the node it went to needs evaluating again for the next pod with the same signature.
 */
final class PodSignature {
    private final Pod pod;
    private final long[] request;
    private final int hash;

    PodSignature(PodInfo info) {
        this.pod = info.pod();
        this.request = info.requestVector();
        this.hash = Objects.hash(pod.ref().namespace(), pod.labels(), Arrays.hashCode(request), pod.nodeSelector(),
                pod.affinity(), pod.tolerations(), pod.hostPorts(), pod.topologySpreadConstraints(),
                pod.schedulerName(), pod.resourceClaims());
    }

    /**
     * Whether a kept evaluation can be brought up to date for this signature from the nodes that changed (see
     * {@link PodScheduler}): everything but topology spread constraints, whose global minimum lets one change
     * reach every node, and resource claims.
     */
    boolean refreshable() {
        return pod.topologySpreadConstraints().isEmpty() && pod.resourceClaims().isEmpty();
    }

    boolean batchable() {
        return !pod.affinity().hasPodAffinity() && pod.topologySpreadConstraints().isEmpty()
                && pod.resourceClaims().isEmpty();
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof PodSignature s) || s.hash != hash) {
            return false;
        }
        Pod p = s.pod;
        return Arrays.equals(request, s.request)
                && pod.ref().namespace().equals(p.ref().namespace())
                && pod.labels().equals(p.labels())
                && pod.nodeSelector().equals(p.nodeSelector())
                && pod.affinity().equals(p.affinity())
                && pod.tolerations().equals(p.tolerations())
                && pod.hostPorts().equals(p.hostPorts())
                && pod.topologySpreadConstraints().equals(p.topologySpreadConstraints())
                && pod.schedulerName().equals(p.schedulerName())
                && listEq(pod.resourceClaims(), p.resourceClaims());
    }

    private static boolean listEq(List<?> a, List<?> b) {
        return a.equals(b);
    }

    @Override
    public int hashCode() {
        return hash;
    }
}
