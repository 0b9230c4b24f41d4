package dev.muster.core.cycle;

import dev.muster.core.framework.FrameworkRuntime;
import dev.muster.core.framework.Plugin;
import dev.muster.core.framework.PodField;
import dev.muster.core.framework.PodFields;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.framework.Profile;
import dev.muster.core.framework.SignPlugin;
import dev.muster.core.framework.Status;
import dev.muster.core.model.ClusterState;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodRef;
import dev.muster.core.plugins.InTreePlugins;
import dev.muster.core.properties.ClusterGen;
import dev.muster.core.snapshot.SnapshotOverlay;
import dev.muster.core.testing.PodCopies;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The pod signature decides when one pod's evaluation stands for another's, so it must cover everything Filter and
 * Score read of a pod: the fields the plugins declare ({@code Plugin.podFields}), and what signing plugins read
 * through their keys ({@code SignPlugin.podKey}). Here every field of random pending pods (ClusterGen's clusters) is
 * changed in turn; whenever the two pods' signatures stay equal, every node's verdict and weighted score total must
 * be equal too. A plugin that starts reading a pod field it does not declare fails this test for the first cluster
 * where that field matters. The other way round, every declared field is shown to be needed (without it, some pair
 * of pods gets one signature and different verdicts), or listed with the reason no generated cluster shows it.
 */
class SignatureCoversReadsTest {
    /**
     * Generated clusters the per-plugin tests try, every other one with its pending members bound as well: enough
     * for each plainly declared field to matter somewhere (PodTopologySpread's tolerations take the most, only with
     * a constraint that honours taints on a cluster with tainted nodes).
     */
    private static final long SEEDS = 150;
    /**
     * Declarations (plugin/field) that generated clusters cannot show to matter, and why.
     * {@link #everyFieldAPluginDeclaresPlainlyIsNeeded} fails when one of them is shown after all, so the list only
     * shrinks.
     */
    private static final Map<String, String> NOT_SHOWN = Map.of(
            "NodeName/NODE_NAME", "a pod being placed names no node",
            "NodeResourcesFit/EXTENDED_REQUESTS", "ClusterGen has no DeviceClass that serves an extended resource",
            "DynamicResources/RESOURCE_CLAIMS", "ClusterGen has no resource claims",
            "DynamicResources/EXTENDED_REQUESTS", "ClusterGen has no DeviceClass that serves an extended resource",
            "DynamicResources/EXTENDED_RESOURCE_CLAIM", "ClusterGen has no resource claims",
            "TopologySlices/REQUESTS", "read only for a group with slices or Balanced; the probes are in no group");

    @Test
    void equalSignaturesGetEqualVerdictsAndScoresOnEveryNode() throws Exception {
        int compared = 0;
        int differing = 0;
        Map<String, Integer> comparedByField = new HashMap<>();
        for (long seed = 1; seed <= 30; seed++) {
            ClusterState cluster = ClusterGen.cluster(seed);
            List<Pod> bases = new ArrayList<>();
            for (Pod p : cluster.pods()) {
                if (!p.isBound() && !p.isGated() && bases.size() < 3) {
                    bases.add(p);
                }
            }
            for (Pod base : bases) {
                Pod a = PodCopies.with(base, Map.of("ref", new PodRef(base.ref().namespace(), "probe-a"), "podGroupName",
                        PodCopies.NONE, "uid", "uid-probe-a"));
                for (Map.Entry<String, Object> m : SignatureProbes.mutations(a).entrySet()) {
                    Pod b = PodCopies.with(a, Map.of(m.getKey(), m.getValue()));
                    if (!m.getKey().equals("ref")) {
                        b = PodCopies.with(b, Map.of("ref", new PodRef(a.ref().namespace(), "probe-b")));
                    }
                    Boolean same = sameEvaluation(cluster, a, b, "seed " + seed + ", " + base.ref() + ", field "
                            + m.getKey());
                    if (same == null) {
                        differing++;
                    } else {
                        compared++;
                        comparedByField.merge(m.getKey(), 1, Integer::sum);
                    }
                }
            }
        }
        assertThat(compared).as("pairs with equal signatures compared").isGreaterThan(100);
        assertThat(differing).as("pairs whose signatures differ (the signature does see some fields)").isPositive();
        assertThat(comparedByField).as("fields compared").containsKeys("labels", "priority", "creationEpochSec", "ref");
    }

    /**
     * The default profile's plugins declare what the signature compared when it kept its own list of fields: the
     * namespace, requests, node selector, affinity, tolerations, host ports, spread constraints, claim entries,
     * extended requests and their claim, with the scheduler name the framework adds. NodeName also declares the node
     * name, which no pod being placed has.
     */
    @Test
    void theDefaultProfileSignsTheFieldsTheSignatureAlwaysCompared() {
        FrameworkRuntime runtime = new FrameworkRuntime(InTreePlugins.defaultProfile());
        assertThat(runtime.signedPodFields().fields()).containsExactlyInAnyOrder(PodField.NAMESPACE,
                PodField.REQUESTS, PodField.NODE_SELECTOR, PodField.AFFINITY, PodField.TOLERATIONS,
                PodField.HOST_PORTS, PodField.TOPOLOGY_SPREAD, PodField.SCHEDULER_NAME, PodField.RESOURCE_CLAIMS,
                PodField.EXTENDED_REQUESTS, PodField.EXTENDED_RESOURCE_CLAIM, PodField.NODE_NAME);
    }

    /**
     * Each in-tree plugin alone, and the default profile, over pods that differ in one field, simple or not (another
     * pod's value): whenever the signatures are equal, so are the verdicts and scores. A plugin that reads a field it
     * does not declare fails here, even when another plugin of the default profile declares that field.
     */
    @Test
    void eachPluginReadsOnlyWhatItDeclares() {
        Map<String, Profile> profiles = readers();
        profiles.put("default profile", InTreePlugins.defaultProfile());
        Map<String, Integer> compared = new TreeMap<>();
        for (long seed = 1; seed <= SEEDS; seed++) {
            SignatureProbes probes = new SignatureProbes(seed, seed % 2 == 1);
            profiles.forEach((name, profile) -> {
                FrameworkRuntime runtime = new FrameworkRuntime(profile);
                for (SignatureProbes.Probe p : probes.probes) {
                    PodSignature sa = probes.signature(runtime, null, p.pod());
                    SignatureProbes.Evaluation ea = null;
                    for (SignatureProbes.Variant v : p.variants()) {
                        if (!sa.equals(probes.signature(runtime, null, v.pod()))) {
                            continue;
                        }
                        ea = ea == null ? probes.evaluate(runtime, p.pod()) : ea;
                        SignatureProbes.Evaluation eb = probes.evaluate(runtime, v.pod());
                        assertThat(eb.verdicts()).as("%s, seed %d, %s, field %s: verdicts per node", name,
                                probes.seed, p.pod(), v.field()).isEqualTo(ea.verdicts());
                        assertThat(eb.totals()).as("%s, seed %d, %s, field %s: score totals per node", name,
                                probes.seed, p.pod(), v.field()).isEqualTo(ea.totals());
                        compared.merge(name, 1, Integer::sum);
                    }
                }
            });
        }
        assertThat(compared).as("pairs with equal signatures compared per profile").containsOnlyKeys(profiles.keySet())
                .allSatisfy((name, n) -> assertThat(n).as(name).isGreaterThan(100));
    }

    /**
     * Every field a plugin declares plainly is needed: in a profile of that plugin alone, a signature that leaves the
     * field out lets two pods that differ only there share a signature while their verdicts or scores differ, on
     * some generated cluster. Fields a plugin keys ({@code podKeyFields}) are its key's business.
     */
    @Test
    void everyFieldAPluginDeclaresPlainlyIsNeeded() {
        Map<String, PodFields> without = new TreeMap<>();
        Map<String, FrameworkRuntime> runtimes = new TreeMap<>();
        readers().forEach((name, profile) -> {
            FrameworkRuntime runtime = new FrameworkRuntime(profile);
            Plugin plugin = plugin(profile);
            Set<PodField> keyed = plugin instanceof SignPlugin sp ? sp.podKeyFields() : Set.of();
            for (PodField f : plugin.podFields()) {
                if (!keyed.contains(f)) {
                    Set<PodField> fields = EnumSet.copyOf(runtime.signedPodFields().fields());
                    fields.remove(f);
                    without.put(name + "/" + f, PodFields.of(fields));
                    runtimes.put(name + "/" + f, runtime);
                }
            }
        });
        assertThat(without).as("declarations tried").containsKeys(NOT_SHOWN.keySet().toArray(new String[0]));
        Set<String> shown = new TreeSet<>();
        for (long seed = 1; seed <= SEEDS && shown.size() < without.size(); seed++) {
            SignatureProbes probes = new SignatureProbes(seed, seed % 2 == 1);
            without.forEach((what, fields) -> {
                if (!shown.contains(what) && differs(probes, runtimes.get(what), fields, what.split("/")[1])) {
                    shown.add(what);
                }
            });
        }
        for (String what : without.keySet()) {
            assertThat(shown.contains(what)).as(what + (NOT_SHOWN.containsKey(what)
                            ? " is shown after all: take it out of NOT_SHOWN"
                            : ": leaving it out changes no verdict or score on any generated cluster"))
                    .isEqualTo(!NOT_SHOWN.containsKey(what));
        }
    }

    /** Whether a copy with another value of {@code field} gets its probe's signature over {@code fields} only. */
    private static boolean differs(SignatureProbes probes, FrameworkRuntime runtime, PodFields fields, String field) {
        for (SignatureProbes.Probe p : probes.probes) {
            PodSignature sa = probes.signature(runtime, fields, p.pod());
            for (SignatureProbes.Variant v : p.variants()) {
                if (v.field().equals(field) && sa.equals(probes.signature(runtime, fields, v.pod()))
                        && !probes.evaluate(runtime, v.pod()).sameAs(probes.evaluate(runtime, p.pod()))) {
                    return true;
                }
            }
        }
        return false;
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

    /** Null when the signatures differ; else asserts both evaluations equal and returns true. */
    private static Boolean sameEvaluation(ClusterState cluster, Pod a, Pod b, String what) {
        List<Pod> pods = new ArrayList<>();
        for (Pod p : cluster.pods()) {
            if (p.isBound()) {
                pods.add(p);
            }
        }
        pods.add(a);
        pods.add(b);
        ClusterState state = new ClusterState(cluster.nodes(), pods, cluster.podGroups(), cluster.priorityClasses(),
                cluster.podDisruptionBudgets(), cluster.compositePodGroups());
        SnapshotOverlay overlay = new SnapshotOverlay(state);
        FrameworkRuntime runtime = new FrameworkRuntime(InTreePlugins.defaultProfile());
        Placement all = Placement.allNodes(overlay);
        PodInfo ia = overlay.pod(a.ref());
        PodInfo ib = overlay.pod(b.ref());
        if (!PodSignature.of(runtime, ia, all, true).equals(PodSignature.of(runtime, ib, all, true))) {
            return null;
        }
        PodScheduler scheduler = new PodScheduler(runtime, overlay, null, Integer.MAX_VALUE, false);
        scheduler.schedule(ia, all);
        Status[] va = scheduler.lastVerdicts();
        long[] ta = scheduler.lastTotals();
        scheduler.schedule(ib, all);
        assertThat(scheduler.lastVerdicts()).as(what + ": verdicts per node").isEqualTo(va);
        assertThat(scheduler.lastTotals()).as(what + ": score totals per node").isEqualTo(ta);
        return true;
    }
}
