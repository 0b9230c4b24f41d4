package dev.muster.core.cycle;

import dev.muster.core.framework.PodInfo;
import dev.muster.core.model.Pod;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Everything about a pod that Filter and Score read: the fields every profile's plugins read, plus what signing
 * plugins say they read beyond them ({@link dev.muster.core.framework.SignPlugin#podKey}: a pod's labels only when
 * some affinity term or spread constraint can see them, its claims' specs). Two pods with equal signatures get the
 * same verdict on every node (upstream's opportunistic-batching signature).
 * <p>
 * A pod with resource claims is refreshable when the plugins that sign pods say its verdicts are node-local (claims
 * of its own from templates, devices only on nodes' own slices): every pod with an equal signature then needs the
 * same devices, and a node's verdict changes only when a member lands on or leaves that node.
 */
final class PodSignature {
    private final Pod pod;
    private final long[] request;
    private final int hash;
    private final boolean nodeLocal;
    private final Object pluginKey;

    /**
     * @param nodeLocal what the plugins that sign pods say (see {@link dev.muster.core.framework.SignPlugin})
     * @param pluginKey what they read of the pod beyond the fields below, or null
     */
    PodSignature(PodInfo info, boolean nodeLocal, Object pluginKey) {
        this.pod = info.pod();
        this.nodeLocal = nodeLocal;
        this.pluginKey = pluginKey;
        this.request = info.requestVector();
        this.hash = Objects.hash(pod.ref().namespace(), Arrays.hashCode(request), pod.nodeSelector(),
                pod.affinity(), pod.tolerations(), pod.hostPorts(), pod.topologySpreadConstraints(),
                pod.schedulerName(), pod.resourceClaims(), pod.extendedRequests(),
                pod.extendedResourceClaim(), pluginKey);
    }

    /**
     * Whether a kept evaluation can be brought up to date for this signature from the nodes that changed (see
     * {@link PodScheduler}): everything but topology spread constraints, whose global minimum lets one change
     * reach every node, and what a signing plugin calls not node-local (shared resource claims).
     */
    boolean refreshable() {
        return pod.topologySpreadConstraints().isEmpty() && nodeLocal;
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
        return nodeLocal == s.nodeLocal && Arrays.equals(request, s.request)
                && pod.ref().namespace().equals(p.ref().namespace())
                && pod.nodeSelector().equals(p.nodeSelector())
                && pod.affinity().equals(p.affinity())
                && pod.tolerations().equals(p.tolerations())
                && pod.hostPorts().equals(p.hostPorts())
                && pod.topologySpreadConstraints().equals(p.topologySpreadConstraints())
                && pod.schedulerName().equals(p.schedulerName())
                && listEq(pod.resourceClaims(), p.resourceClaims())
                && pod.extendedRequests().equals(p.extendedRequests())
                && Objects.equals(pod.extendedResourceClaim(), p.extendedResourceClaim())
                && Objects.equals(pluginKey, s.pluginKey);
    }

    private static boolean listEq(List<?> a, List<?> b) {
        return a.equals(b);
    }

    @Override
    public int hashCode() {
        return hash;
    }
}
