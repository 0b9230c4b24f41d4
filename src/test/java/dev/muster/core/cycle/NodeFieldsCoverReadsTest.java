package dev.muster.core.cycle;

import dev.muster.core.framework.FrameworkRuntime;
import dev.muster.core.framework.NodeField;
import dev.muster.core.framework.NodeInfo;
import dev.muster.core.framework.Plugin;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.framework.Profile;
import dev.muster.core.framework.Status;
import dev.muster.core.model.ClusterState;
import dev.muster.core.model.NodeSelectorRequirement;
import dev.muster.core.model.NodeSelectorTerm;
import dev.muster.core.model.Pod;
import dev.muster.core.plugins.InTreePlugins;
import dev.muster.core.snapshot.NodeLooks;
import dev.muster.core.snapshot.SnapshotOverlay;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Node looks decide which nodes placement symmetry treats as interchangeable, so they must cover everything Filter
 * and Score read of a node: the fields the plugins declare ({@code Plugin.nodeFields}). Here nodes of random
 * clusters (ClusterGen's) are changed one way at a time ({@link NodeChanges}: a label, a taint, cordoning,
 * allocatable, the pods there, their requests, ports, labels and terms, the name), the fields that changed are
 * found by comparing the node's look over each field alone, and probe pods are evaluated before and after under each
 * in-tree plugin alone.
 * <ul>
 *   <li>A plugin that declares none of the changed fields must give every node the same verdict and score total.</li>
 *   <li>The other way round, every field a plugin declares is needed: some change of that field alone (of the
 *       fields it declares) changes the changed node's verdict or score total under the plugin, on some generated
 *       cluster, or it is listed with the reason no generated cluster shows it.</li>
 *   <li>And the looks the default profile derives: for a pod placement symmetry would take (every signing plugin
 *       calls it symmetric; no pod has pod (anti-)affinity, it has no spread constraints), a change that leaves the
 *       look, the labels the pod selects nodes by and the signing plugins' node keys as they were leaves every
 *       verdict and score total as it was.</li>
 * </ul>
 */
class NodeFieldsCoverReadsTest {
    /** Generated clusters tried: enough for every declared field to be shown needed (NodeAffinity's name the last). */
    private static final long SEEDS = 60;
    /** Nodes changed per cluster. */
    private static final int NODES_CHANGED = 3;
    /**
     * Declarations (plugin/field) that generated clusters cannot show to matter, and why.
     * {@link #everyFieldAPluginDeclaresIsNeeded} fails when one of them is shown after all, so the list only shrinks.
     */
    private static final String GANG_ONLY = "read only for a group with minResources, and the probes are in none "
            + "(GangSchedulingPluginTest.capacityCheckReadsTheDeclaredNodeFields shows each)";
    private static final Map<String, String> NOT_SHOWN = Map.ofEntries(
            Map.entry("NodeName/NAME", "a pod being placed names no node"),
            Map.entry("DynamicResources/NAME", "ClusterGen has no ResourceSlices or claims"),
            Map.entry("DynamicResources/LABELS", "ClusterGen has no ResourceSlices or claims"),
            Map.entry("DynamicResources/ALLOCATABLE", "ClusterGen has no DeviceClass that serves an extended resource"),
            Map.entry("GangScheduling/ALLOCATABLE", GANG_ONLY),
            Map.entry("GangScheduling/REQUESTED", GANG_ONLY),
            Map.entry("GangScheduling/POD_COUNT", GANG_ONLY),
            Map.entry("GangScheduling/PODS", GANG_ONLY),
            Map.entry("TopologySlices/NAME", "read only for a group with slices or Balanced; the probes are in none"),
            Map.entry("TopologySlices/LABELS", "read only for a group with slices or Balanced; the probes are in none"),
            Map.entry("TopologySlices/ALLOCATABLE", "read only for a group with slices or Balanced"),
            Map.entry("TopologySlices/REQUESTED", "read only for a group with slices or Balanced"),
            Map.entry("TopologySlices/POD_COUNT", "read only for a group with slices or Balanced"),
            Map.entry("TopologySlices/PODS", "read only for a group with slices or Balanced"));

    private static final String DEFAULT = "default profile";

    /** What the comparisons over every seed found. */
    private static final List<String> unexpected = new ArrayList<>();
    private static final Set<String> shown = new TreeSet<>();
    private static final Set<String> declared = new TreeSet<>();
    private static final Map<String, Integer> comparedByPlugin = new TreeMap<>();
    private static final Map<NodeField, Integer> changesByField = new TreeMap<>();
    private static int lookComparisons;

    @BeforeAll
    static void compareEveryChangeUnderEveryPlugin() {
        Map<String, FrameworkRuntime> runtimes = new TreeMap<>();
        readers().forEach((name, profile) -> {
            FrameworkRuntime runtime = new FrameworkRuntime(profile);
            runtimes.put(name, runtime);
            for (NodeField f : plugin(profile).nodeFields()) {
                declared.add(name + "/" + f);
            }
        });
        FrameworkRuntime defaults = new FrameworkRuntime(InTreePlugins.defaultProfile());
        for (long seed = 1; seed <= SEEDS; seed++) {
            NodeChanges changes = new NodeChanges(seed, NODES_CHANGED);
            Side base = new Side(changes.base, changes.probes);
            Map<String, List<Evaluation>> before = new TreeMap<>();
            runtimes.forEach((name, runtime) -> before.put(name, base.evaluateAll(runtime)));
            List<Evaluation> defaultBefore = base.evaluateAll(defaults);
            for (NodeChanges.Change change : changes.changes) {
                Side after = new Side(change.after(), changes.probes);
                if (after.overlay.resources().size() != base.overlay.resources().size()) {
                    continue; // a change that adds a resource shifts every vector: not one field's change
                }
                Set<NodeField> changed = changedFields(base, after, change);
                changed.forEach(f -> changesByField.merge(f, 1, Integer::sum));
                String what = "seed " + seed + ", " + change.what() + " on " + change.node();
                for (Map.Entry<String, FrameworkRuntime> e : runtimes.entrySet()) {
                    String name = e.getKey();
                    Set<NodeField> reads = EnumSet.noneOf(NodeField.class);
                    reads.addAll(plugin(e.getValue().profile()).nodeFields());
                    reads.retainAll(changed);
                    List<Evaluation> after1 = after.evaluateAll(e.getValue());
                    for (int k = 0; k < changes.probes.size(); k++) {
                        Evaluation a = before.get(name).get(k);
                        Evaluation b = after1.get(k);
                        if (reads.isEmpty()) {
                            comparedByPlugin.merge(name, 1, Integer::sum);
                            if (!sameEverywhere(base, a, after, b, change)) {
                                unexpected.add(name + ", " + what + " (changed " + changed + "), probe "
                                        + changes.probes.get(k).ref() + ": verdicts or scores changed");
                            }
                        } else if (reads.size() == 1 && !sameOnNode(base, a, after, b, change)) {
                            shown.add(name + "/" + reads.iterator().next());
                        }
                    }
                }
                compareLooks(defaults, base, defaultBefore, after, change, changed, what);
            }
        }
    }

    @Test
    void aPluginGivesEqualVerdictsAndScoresWhenNoFieldItDeclaresChanged() {
        assertThat(unexpected).as("changes of fields a plugin does not declare that changed its verdicts").isEmpty();
        assertThat(comparedByPlugin).as("evaluations compared per plugin").containsOnlyKeys(readers().keySet())
                .allSatisfy((name, n) -> assertThat(n).as(name).isGreaterThan(500));
        assertThat(changesByField).as("changes per field").containsOnlyKeys(NodeField.ALL)
                .allSatisfy((f, n) -> assertThat(n).as(f.name()).isGreaterThan(20));
    }

    @Test
    void everyFieldAPluginDeclaresIsNeeded() {
        assertThat(declared).as("declarations tried").containsAll(NOT_SHOWN.keySet());
        for (String what : declared) {
            assertThat(shown.contains(what)).as(what + (NOT_SHOWN.containsKey(what)
                            ? " is shown after all: take it out of NOT_SHOWN"
                            : ": no change of this field alone changes a verdict or score on any generated cluster"))
                    .isEqualTo(!NOT_SHOWN.containsKey(what));
        }
    }

    @Test
    void theDefaultProfilesLooksCoverWhatItReadsForPodsPlacementSymmetryTakes() {
        assertThat(lookComparisons).as("changes outside the default profile's looks compared").isGreaterThan(200);
    }

    /**
     * The default profile: for a probe placement symmetry would take before and after, a change outside the look, the
     * labels the probe selects nodes by and the node keys must change no verdict or score total.
     */
    private static void compareLooks(FrameworkRuntime defaults, Side base, List<Evaluation> before, Side after,
                                     NodeChanges.Change change, Set<NodeField> changed, String what) {
        Set<NodeField> looked = EnumSet.noneOf(NodeField.class);
        looked.addAll(defaults.lookedNodeFields());
        looked.retainAll(changed);
        if (!looked.isEmpty() || base.all.podsWithAffinity() > 0 || after.all.podsWithAffinity() > 0) {
            return;
        }
        NodeInfo a = base.overlay.node(base.overlay.nodeIndex(change.node()));
        NodeInfo b = after.overlay.node(after.overlay.nodeIndex(change.renamedTo()));
        if (!Objects.equals(defaults.runNodeKey(a, base.all), defaults.runNodeKey(b, after.all))) {
            return;
        }
        List<Evaluation> afterAll = after.evaluateAll(defaults);
        for (int k = 0; k < before.size(); k++) {
            PodInfo pa = base.probes.get(k);
            PodInfo pb = after.probes.get(k);
            if (!symmetric(defaults, pa, base.all) || !symmetric(defaults, pb, after.all)
                    || !selected(pa.pod(), a).equals(selected(pa.pod(), b))) {
                continue;
            }
            lookComparisons++;
            if (!sameEverywhere(base, before.get(k), after, afterAll.get(k), change)) {
                unexpected.add(DEFAULT + ", " + what + " (changed " + changed + ", outside its looks), probe "
                        + pa.ref() + ": verdicts or scores changed");
            }
        }
    }

    /** What placement symmetry asks of a member before it compares nodes by their looks. */
    private static boolean symmetric(FrameworkRuntime runtime, PodInfo p, Placement all) {
        return !p.pod().affinity().hasPodAffinity() && p.pod().topologySpreadConstraints().isEmpty()
                && runtime.runSymmetric(p, all);
    }

    /** The node's labels under the keys the pod selects nodes by, as placement symmetry compares them. */
    private static Map<String, String> selected(Pod pod, NodeInfo node) {
        Set<String> keys = new TreeSet<>(pod.nodeSelector().keySet());
        for (NodeSelectorTerm t : pod.affinity().nodeTerms()) {
            for (NodeSelectorRequirement r : t.matchExpressions()) {
                keys.add(r.key());
            }
        }
        Map<String, String> out = new TreeMap<>();
        for (String k : keys) {
            String v = node.node().labels().get(k);
            if (v != null) {
                out.put(k, v);
            }
        }
        return out;
    }

    /** The fields whose values differ between the changed node before and after, each compared alone. */
    private static Set<NodeField> changedFields(Side base, Side after, NodeChanges.Change change) {
        NodeInfo a = base.overlay.node(base.overlay.nodeIndex(change.node()));
        NodeInfo b = after.overlay.node(after.overlay.nodeIndex(change.renamedTo()));
        int resources = base.overlay.resources().size();
        Set<NodeField> out = EnumSet.noneOf(NodeField.class);
        for (NodeField f : NodeField.values()) {
            Set<NodeField> alone = EnumSet.of(f);
            if (!NodeLooks.look(a, resources, alone).equals(NodeLooks.look(b, resources, alone))) {
                out.add(f);
            }
        }
        return out;
    }

    /** Whether every node (the changed one by its new name) has the same verdict and score total. */
    private static boolean sameEverywhere(Side base, Evaluation a, Side after, Evaluation b,
                                          NodeChanges.Change change) {
        for (int i = 0; i < base.overlay.nodeCount(); i++) {
            String name = base.overlay.node(i).name();
            int j = after.overlay.nodeIndex(name.equals(change.node()) ? change.renamedTo() : name);
            if (!a.sameAt(i, b, j)) {
                return false;
            }
        }
        return true;
    }

    private static boolean sameOnNode(Side base, Evaluation a, Side after, Evaluation b, NodeChanges.Change change) {
        return a.sameAt(base.overlay.nodeIndex(change.node()), b, after.overlay.nodeIndex(change.renamedTo()));
    }

    /** One cluster compiled, with its probes. */
    private static final class Side {
        final SnapshotOverlay overlay;
        final Placement all;
        final List<PodInfo> probes = new ArrayList<>();

        Side(ClusterState state, List<Pod> probes) {
            overlay = new SnapshotOverlay(state);
            all = Placement.allNodes(overlay);
            for (Pod p : probes) {
                this.probes.add(overlay.pod(p.ref()));
            }
        }

        List<Evaluation> evaluateAll(FrameworkRuntime runtime) {
            List<Evaluation> out = new ArrayList<>(probes.size());
            for (PodInfo p : probes) {
                PodScheduler scheduler = new PodScheduler(runtime, overlay, null, Integer.MAX_VALUE, false);
                scheduler.schedule(p, all);
                out.add(new Evaluation(scheduler.lastVerdicts(), scheduler.lastTotals()));
            }
            return out;
        }
    }

    /** A probe's verdict (null: feasible) and weighted score total per node (totals null: none feasible). */
    private record Evaluation(Status[] verdicts, long[] totals) {
        boolean sameAt(int i, Evaluation o, int j) {
            if (!Objects.equals(verdicts[i], o.verdicts[j])) {
                return false;
            }
            return verdicts[i] != null || totals == null || o.totals == null || totals[i] == o.totals[j];
        }
    }

    /** A profile of each in-tree plugin alone that reads pods at PreFilter, Filter, PreScore or Score, by name. */
    private static Map<String, Profile> readers() {
        Map<String, Profile> out = new TreeMap<>();
        for (InTreePlugins.Entry e : InTreePlugins.entries()) {
            Plugin plugin = e.factory().get();
            Profile alone = Profile.builder().add(plugin, Math.max(1, e.defaultWeight())).build();
            if (!alone.preFilter().isEmpty() || !alone.filter().isEmpty() || !alone.preScore().isEmpty()
                    || !alone.score().isEmpty()) {
                out.put(e.name(), alone);
            }
        }
        return out;
    }

    private static Plugin plugin(Profile alone) {
        List<Plugin> all = new ArrayList<>(alone.preFilter());
        all.addAll(alone.filter());
        all.addAll(alone.preScore());
        alone.score().forEach(s -> all.add(s.plugin()));
        return all.get(0);
    }
}
