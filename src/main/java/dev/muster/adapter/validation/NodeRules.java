package dev.muster.adapter.validation;

import dev.muster.adapter.kube.Kube;
import dev.muster.adapter.kube.RequestDocument;

import java.util.List;

import static dev.muster.adapter.validation.FieldRules.TAINT_EFFECTS;
import static dev.muster.adapter.validation.FieldRules.enumRequired;
import static dev.muster.adapter.validation.FieldRules.labelKey;
import static dev.muster.adapter.validation.FieldRules.quantities;

/** {@code snapshot.nodes}: required; taints with a key and a known effect; quantities that parse. */
final class NodeRules implements ObjectFamily {
    private static final ObjectLists.Kind<Kube.Node> NODES =
            new ObjectLists.Kind<>(".nodes", "must be a Node object", false, Kube.Node::metadata);

    @Override
    public void validate(RequestDocument.Snapshot s, ValidationLimits limits, FieldPath p, Causes c) {
        if (s.nodes() == null) {
            c.required(p.at(".nodes"), "the snapshot must list the cluster's nodes");
            return;
        }
        ObjectLists.check(NODES, s.nodes(), limits.maxNodes(), p, NodeRules::node, c);
    }

    /** {@code p} is the node's path. */
    private static void node(Kube.Node n, FieldPath p, Causes c) {
        if (n.spec() != null && n.spec().taints() != null) {
            List<Kube.Taint> taints = n.spec().taints();
            p.field(".spec.taints");
            for (int t = 0; t < taints.size(); t++) {
                Kube.Taint taint = taints.get(t);
                p.index(t);
                if (taint == null) {
                    c.required(p.at(""), "must be a taint");
                } else {
                    labelKey(taint.key(), p, ".key", c);
                    enumRequired(taint.effect(), p, ".effect", TAINT_EFFECTS, c);
                }
                p.pop();
            }
            p.pop();
        }
        if (n.status() != null) {
            quantities(n.status().allocatable(), p, ".status.allocatable", c);
            quantities(n.status().capacity(), p, ".status.capacity", c);
        }
    }
}
