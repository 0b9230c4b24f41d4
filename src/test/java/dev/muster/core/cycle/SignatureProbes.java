package dev.muster.core.cycle;

import dev.muster.core.framework.FrameworkRuntime;
import dev.muster.core.framework.PodField;
import dev.muster.core.framework.PodFields;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.framework.Status;
import dev.muster.core.model.ClusterState;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodRef;
import dev.muster.core.properties.ClusterGen;
import dev.muster.core.snapshot.SnapshotOverlay;
import dev.muster.core.testing.PodCopies;

import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Pending pods of a generated cluster (one per group, out of their groups), each with copies that differ from it in
 * one field, all in one overlay: what the tests that hold pod signatures to the plugins' reads compare. A copy's field
 * gets a changed value ({@link #mutations}, simple types only) or another pod's value of it (donated: any type).
 */
final class SignatureProbes {
    /** Fields whose change takes a pod out of scheduling or binds it: not a question of signatures. */
    static final Set<String> NOT_MUTATED = Set.of("nodeName", "phase", "terminating", "schedulingGates",
            "podGroupName");
    /** Other pods' values tried per field and probe. */
    private static final int DONORS = 2;

    /** A copy of a probe: {@code field} names the component changed, or the {@link PodField} donated. */
    record Variant(String field, PodInfo pod) {
    }

    record Probe(PodInfo pod, List<Variant> variants) {
    }

    /** A pod's verdict (null: feasible) and score total on every node. */
    record Evaluation(Status[] verdicts, long[] totals) {
        boolean sameAs(Evaluation o) {
            return Arrays.equals(verdicts, o.verdicts) && Arrays.equals(totals, o.totals);
        }
    }

    final long seed;
    final List<Probe> probes = new ArrayList<>();
    private final SnapshotOverlay overlay;
    private final Placement all;

    /**
     * @param membersBound also bind a copy of every pending member, round robin over the nodes (capacity aside), so
     *                     that what counts other pods (spreading, inter-pod terms) has members in every domain
     */
    SignatureProbes(long seed, boolean membersBound) {
        this.seed = seed;
        ClusterState c = ClusterGen.cluster(seed);
        List<Pod> pods = new ArrayList<>();
        List<Pod> bases = new ArrayList<>();
        Set<String> groups = new HashSet<>();
        int next = 0;
        for (Pod p : c.pods()) {
            if (p.isBound()) {
                pods.add(p);
            } else if (!p.isGated()) {
                if (groups.add(String.valueOf(p.podGroupName()))) {
                    bases.add(p);
                }
                if (membersBound) {
                    pods.add(PodCopies.with(p, Map.of("ref", new PodRef(p.ref().namespace(), p.ref().name() + "-bound"),
                            "nodeName", c.nodes().get(next++ % c.nodes().size()).name(), "uid", p.uid() + "-bound")));
                }
            }
        }
        Map<PodRef, List<Map.Entry<String, PodRef>>> variantRefs = new LinkedHashMap<>();
        for (int k = 0; k < bases.size(); k++) {
            Pod base = bases.get(k);
            String name = "probe-" + k;
            Pod a = PodCopies.with(base, Map.of("ref", new PodRef(base.ref().namespace(), name), "podGroupName",
                    PodCopies.NONE, "uid", "uid-" + name));
            pods.add(a);
            List<Map.Entry<String, PodRef>> refs = new ArrayList<>();
            int v = 0;
            for (Map.Entry<String, Object> m : mutations(a).entrySet()) {
                Pod b = PodCopies.with(a, Map.of(m.getKey(), m.getValue()));
                b = renamed(b, m.getKey().equals("ref") ? b.ref().namespace() : a.ref().namespace(), name + "-" + v++);
                pods.add(b);
                refs.add(Map.entry(m.getKey(), b.ref()));
            }
            for (PodField f : PodField.values()) {
                for (Pod b : donated(c, a, f)) {
                    b = renamed(b, b.ref().namespace(), name + "-" + v++);
                    pods.add(b);
                    refs.add(Map.entry(f.name(), b.ref()));
                }
            }
            variantRefs.put(a.ref(), refs);
        }
        overlay = new SnapshotOverlay(new ClusterState(c.nodes(), pods, c.podGroups(), c.priorityClasses(),
                c.podDisruptionBudgets(), c.compositePodGroups()));
        all = Placement.allNodes(overlay);
        variantRefs.forEach((a, refs) -> {
            List<Variant> variants = new ArrayList<>();
            for (Map.Entry<String, PodRef> r : refs) {
                variants.add(new Variant(r.getKey(), overlay.pod(r.getValue())));
            }
            probes.add(new Probe(overlay.pod(a), variants));
        });
    }

    private static Pod renamed(Pod p, String namespace, String name) {
        return PodCopies.with(p, Map.of("ref", new PodRef(namespace, name), "uid", "uid-" + name));
    }

    /** The pod's signature under the runtime with batching on, over {@code fields} (the runtime's when null). */
    PodSignature signature(FrameworkRuntime runtime, PodFields fields, PodInfo pod) {
        if (fields == null) {
            return PodSignature.of(runtime, pod, all, true);
        }
        boolean nodeLocal = runtime.runSign(pod, all);
        return new PodSignature(fields, pod, nodeLocal, nodeLocal ? runtime.runPodKey(pod, all) : null);
    }

    /** The pod evaluated in full under the runtime. */
    Evaluation evaluate(FrameworkRuntime runtime, PodInfo pod) {
        PodScheduler scheduler = new PodScheduler(runtime, overlay, null, Integer.MAX_VALUE, false);
        scheduler.schedule(pod, all);
        return new Evaluation(scheduler.lastVerdicts(), scheduler.lastTotals());
    }

    /** One changed value per field of a simple type (strings, numbers, string maps). */
    static Map<String, Object> mutations(Pod p) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (RecordComponent c : Pod.class.getRecordComponents()) {
            String n = c.getName();
            if (NOT_MUTATED.contains(n)) {
                continue;
            }
            Object v = component(p, n);
            Class<?> t = c.getType();
            if (t == String.class) {
                out.put(n, v == null ? "mutated" : v + "-mutated");
            } else if (t == Integer.class) {
                out.put(n, v == null ? 1000 : (Integer) v + 1000);
            } else if (t == long.class) {
                out.put(n, (Long) v + 1000);
            } else if (t == PodRef.class) {
                out.put(n, new PodRef(((PodRef) v).namespace(), "probe-renamed"));
            } else if (t == Map.class) {
                @SuppressWarnings("unchecked")
                Map<String, String> m = v == null ? new HashMap<>() : new HashMap<>((Map<String, String>) v);
                if (n.equals("labels") && m.containsKey("app")) {
                    m.put("app", m.get("app").equals("web") ? "db" : "web");
                } else {
                    m.put("example.com/mutated", "yes");
                }
                out.put(n, m);
            }
        }
        return out;
    }

    /** Copies of {@code a}, each with field {@code f} from another pod of the cluster that has another value there. */
    private static List<Pod> donated(ClusterState cluster, Pod a, PodField f) {
        if (NOT_MUTATED.contains(f.component()) || f == PodField.NAME || f == PodField.UID) {
            return List.of(); // the name and uid differ in every copy already
        }
        List<Object> values = new ArrayList<>();
        Object own = value(a, f);
        for (Pod donor : cluster.pods()) {
            Object v = value(donor, f);
            if (!Objects.equals(v, own) && !values.contains(v) && values.size() < DONORS) {
                values.add(v);
            }
        }
        List<Pod> out = new ArrayList<>();
        for (Object v : values) {
            out.add(f == PodField.NAMESPACE ? renamed(a, (String) v, a.ref().name())
                    : PodCopies.with(a, Map.of(f.component(), v == null ? PodCopies.NONE : v)));
        }
        return out;
    }

    private static Object value(Pod p, PodField f) {
        return f == PodField.NAMESPACE ? p.ref().namespace() : component(p, f.component());
    }

    private static Object component(Pod p, String name) {
        try {
            for (RecordComponent c : Pod.class.getRecordComponents()) {
                if (c.getName().equals(name)) {
                    return c.getAccessor().invoke(p);
                }
            }
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
        throw new IllegalArgumentException(name);
    }
}
