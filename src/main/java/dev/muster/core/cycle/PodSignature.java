package dev.muster.core.cycle;

import dev.muster.core.framework.ClusterView;
import dev.muster.core.framework.FrameworkRuntime;
import dev.muster.core.framework.PodFields;
import dev.muster.core.framework.PodInfo;

import java.util.Objects;

/**
 * Everything about a pod that Filter and Score read: the pod fields the profile's plugins declare they read
 * ({@link FrameworkRuntime#signedPodFields()}, derived once per runtime from each plugin's
 * {@link dev.muster.core.framework.Plugin#podFields}), plus what signing plugins read through their keys
 * ({@link dev.muster.core.framework.SignPlugin#podKey}: a pod's labels only when some affinity term or spread
 * constraint can see them, its claims' specs, the group of a gang with minResources). Two pods with equal signatures
 * get the same verdict on every node (upstream's opportunistic-batching signature). Nothing here names a field: a
 * plugin that reads a new one declares it, and the signature compares it.
 * <p>
 * A pod with resource claims is refreshable when the plugins that sign pods say its verdicts are node-local (claims
 * of its own from templates, devices only on nodes' own slices): every pod with an equal signature then needs the
 * same devices, and a node's verdict changes only when a member lands on or leaves that node.
 */
final class PodSignature {
    private final PodFields fields;
    private final PodInfo info;
    private final int hash;
    private final boolean nodeLocal;
    private final Object pluginKey;

    /**
     * @param fields    the pod fields compared (a runtime's {@link FrameworkRuntime#signedPodFields()})
     * @param nodeLocal what the plugins that sign pods say (see {@link dev.muster.core.framework.SignPlugin})
     * @param pluginKey what they read of the pod through their keys, or null
     */
    PodSignature(PodFields fields, PodInfo info, boolean nodeLocal, Object pluginKey) {
        this.fields = fields;
        this.info = info;
        this.nodeLocal = nodeLocal;
        this.pluginKey = pluginKey;
        this.hash = 31 * fields.hash(info) + Objects.hashCode(pluginKey);
    }

    /**
     * The signature a pod's evaluation is kept under: node-local only with batching on and when every signing plugin
     * says so, and only then with the plugins' keys (a pod that is not node-local is never refreshed).
     */
    static PodSignature of(FrameworkRuntime runtime, PodInfo pod, ClusterView placement, boolean batching) {
        boolean nodeLocal = batching && runtime.runSign(pod, placement);
        return new PodSignature(runtime.signedPodFields(), pod, nodeLocal,
                nodeLocal ? runtime.runPodKey(pod, placement) : null);
    }

    /**
     * Whether a kept evaluation can be brought up to date for this signature from the nodes that changed (see
     * {@link SpeedupEvaluationReuse}): everything but topology spread constraints, whose global minimum lets one change
     * reach every node, and what a signing plugin calls not node-local (shared resource claims).
     */
    boolean refreshable() {
        return info.pod().topologySpreadConstraints().isEmpty() && nodeLocal;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof PodSignature s) || s.hash != hash) {
            return false;
        }
        return nodeLocal == s.nodeLocal && fields == s.fields && fields.same(info, s.info)
                && Objects.equals(pluginKey, s.pluginKey);
    }

    @Override
    public int hashCode() {
        return hash;
    }
}
