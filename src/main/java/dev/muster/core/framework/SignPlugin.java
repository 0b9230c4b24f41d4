package dev.muster.core.framework;

import java.util.Set;

/**
 * Says whether a pod's evaluation may be kept and brought up to date from the nodes that changed (upstream's
 * opportunistic batching, where plugins sign pods). A plugin implements it when its Filter or Score can depend on
 * more than the node the verdict is about: it answers true when, for this pod, they depend only on that node's own
 * state and on what every pod with an equal signature shares, so that after a member lands on a node only that node
 * needs evaluating again. A plugin that does not implement it is taken to answer true; the scheduler knows the
 * spreading and inter-pod rules itself.
 */
public interface SignPlugin extends Plugin {
    boolean nodeLocal(PodInfo pod, ClusterView cluster);

    /**
     * Whether, for a pod this plugin calls node-local, its Filter and Score read of a node only what
     * {@link #nodeKey} stands for and what node looks compare (the profile's declared {@link #nodeFields}, less each
     * plugin's {@link #nodeKeyFields}), never which node it is (its name): then two nodes that look alike give the pod
     * equal verdicts, and candidate placements made of such nodes are interchangeable. True unless the plugin says
     * otherwise.
     */
    default boolean symmetric(PodInfo pod, ClusterView cluster) {
        return true;
    }

    /**
     * Whether, as far as this plugin can tell, pods with equal signatures are interchangeable and independent: placing
     * them one after another, each on its best node, places as many as any other order and choice would (so a gang of
     * such members needs no search beyond the greedy pass). True unless the plugin says otherwise.
     */
    default boolean interchangeable(PodInfo pod, ClusterView cluster) {
        return true;
    }

    /**
     * What this plugin reads of a node-local pod in its {@link #podKeyFields}, as a value with {@code equals}: two
     * node-local pods whose other signed fields are equal and whose keys are equal get equal verdicts and scores on
     * every node. Null when, for this pod, those fields decide nothing (null equals null).
     */
    default Object podKey(PodInfo pod, ClusterView cluster) {
        return null;
    }

    /**
     * The fields among {@link #podFields()} that this plugin reads only in ways {@link #podKey} stands for, for every
     * pod it calls node-local: the signature then leaves them out unless another plugin reads them plainly, so pods
     * that differ only there share evaluations while the key is equal (InterPodAffinity's labels, read only when some
     * term can see them). A field read only for pods the plugin does not call node-local, which are never refreshed,
     * may be named here with a null key. Empty unless the plugin says otherwise.
     */
    default Set<PodField> podKeyFields() {
        return Set.of();
    }

    /**
     * What this plugin's Filter and Score read of a node beyond the fields node looks compare, as a value with
     * {@code equals} (DynamicResources: the state of the node's devices): two nodes that look alike and whose keys are
     * equal give a node-local pod equal verdicts and scores. Null when the plugin reads nothing more.
     */
    default Object nodeKey(NodeInfo node, ClusterView cluster) {
        return null;
    }

    /**
     * The fields among {@link #nodeFields()} that never tell two nodes apart for a pod this plugin calls node-local
     * and {@linkplain #symmetric symmetric}: read for such a pod only through {@link #nodeKey}, or only into a
     * PreFilter verdict every node shares, or not at all (read only for other pods); labels may also be read under
     * the keys the pod selects nodes by, which placement symmetry compares for each group's members itself. Node looks
     * then leave them out unless another plugin reads them plainly. Empty unless the plugin says otherwise.
     */
    default Set<NodeField> nodeKeyFields() {
        return Set.of();
    }
}
