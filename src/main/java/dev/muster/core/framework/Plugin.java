package dev.muster.core.framework;

import java.util.Set;

/**
 * A scheduling plugin. A plugin implements the extension points it needs; its {@link #name()} is the upstream
 * plugin name (for example {@code NodeResourcesFit}) and is the key a profile uses.
 */
public interface Plugin {
    String name();

    /**
     * The fields of the incoming pod that this plugin's PreFilter, Filter, PreScore and Score read, whatever they read
     * them for (a Skip, a verdict, a score, state for a later point). The runtime compares pods by the union of these
     * over the profile's plugins at those points, so that an evaluation kept for one pod is reused only for pods those
     * plugins cannot tell apart; a field missing here lets a pod get another pod's verdicts. Fields whose reads the
     * plugin's {@link SignPlugin#podKey} stands for are named here too, and again in {@link SignPlugin#podKeyFields}.
     * <p>
     * The default, for a plugin that declares nothing, is every field ({@link PodField#ALL}): no two pods are then
     * alike, and the profile reuses no evaluation (as upstream turns signatures off for a profile with a plugin that
     * does not sign). Plugins at no other extension point are not asked.
     */
    default Set<PodField> podFields() {
        return PodField.ALL;
    }

    /**
     * The fields of a node that this plugin's PreFilter, Filter, PreScore and Score read, of the node a verdict is
     * about or of any other, whatever they read them for. Node looks compare the union of these over the profile's
     * plugins at those points, so that placement symmetry treats two nodes as interchangeable only when those plugins
     * cannot tell them apart; a field missing here lets a node stand for one that gets other verdicts. Fields a
     * signing plugin reads only in ways its {@link SignPlugin#nodeKeyFields} account for are named here too.
     * <p>
     * The default, for a plugin that declares nothing, is every field ({@link NodeField#ALL}): the name among them,
     * no two nodes then look alike and placement symmetry finds nothing to share. Plugins at no other extension point
     * are not asked.
     */
    default Set<NodeField> nodeFields() {
        return NodeField.ALL;
    }
}
