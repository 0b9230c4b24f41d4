package dev.muster.bench;

import dev.muster.core.decision.Decision;
import dev.muster.core.decision.DecisionEngine;
import dev.muster.core.decision.DecisionOptions;
import dev.muster.core.decision.DecisionRequest;
import dev.muster.core.decision.DecisionResult;
import dev.muster.core.decision.EngineConfig;
import dev.muster.core.model.ClusterState;
import dev.muster.core.model.Node;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodGroup;
import dev.muster.core.snapshot.ClusterSnapshot;
import dev.muster.core.testing.Groups;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import static dev.muster.core.testing.Groups.member;
import static dev.muster.core.testing.Groups.withPriority;
import static dev.muster.core.testing.Nodes.node;
import static dev.muster.core.testing.Pods.pod;

/**
 * The engine's two searches on 5,000 nodes, timed on a compiled snapshot: {@code SearchPath <shape> [rounds]
 * [warm]}, shape {@code maxcount} or {@code preempt}. Each round decides the snapshot in a run of its own; the
 * figures are the calling thread's CPU time (the engine runs on it with the default parallelism of 1) and wall
 * time, median and p90, plus the process CPU per round (GC and JIT included).
 * <ul>
 *   <li>{@code maxcount}: a 1,000-pod heterogeneous <b>basic</b> group (sizes 1, 2, 3 and 6 cpu, memory in
 *       proportion, interleaved in cycle order) on 5,000 nodes of 8 cpu / 32Gi, of which 4,600 are full with one
 *       bound 8-cpu pod: the members ask 3,000 cpu, the 400 free nodes hold 3,200 cpu in 8-cpu pieces, so the
 *       feasible pass leaves members out and the maximum-count search ({@code MaxMembersSearch}) runs its rounds.</li>
 *   <li>{@code preempt}: a 100-pod gang (priority 1000, 4 cpu / 8Gi each) on 5,000 nodes of 16 cpu / 64Gi, each
 *       running 10 bound pods of 1.5 cpu / 6Gi at priorities 0 to 9 (50,000 pods): a node has 1 cpu free, so every
 *       member needs victims and the group ends Preempting.</li>
 * </ul>
 * Every round checks the outcome (Scheduled with members left out and the search run; Preempting with victims).
 */
public final class SearchPath {
    private static final int NODES = 5_000;

    public static void main(String[] args) {
        String shape = args.length > 0 ? args[0] : "maxcount";
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        int warm = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        DecisionRequest request = switch (shape) {
            case "maxcount" -> maxCount();
            case "preempt" -> preempt();
            case "composite" -> composite();
            default -> throw new IllegalArgumentException("shape: maxcount, preempt or composite");
        };
        DecisionEngine engine = new DecisionEngine(EngineConfig.DEFAULT);
        ClusterSnapshot compiled = DecisionEngine.compile(request);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long[] cpu = new long[rounds];
        long[] wall = new long[rounds];
        long[] proc = new long[rounds];
        String summary = null;
        for (int i = -warm; i < rounds; i++) {
            long c = threads.getCurrentThreadCpuTime();
            long p = os.getProcessCpuTime();
            long s = System.nanoTime();
            DecisionResult r = engine.decide(compiled, request.podGroups(), request.options(), () -> false);
            long w = System.nanoTime() - s;
            long tc = threads.getCurrentThreadCpuTime() - c;
            long pc = os.getProcessCpuTime() - p;
            summary = check(shape, r);
            if (i >= 0) {
                cpu[i] = tc;
                wall[i] = w;
                proc[i] = pc;
            }
        }
        System.out.println(shape + ": " + summary);
        StringBuilder each = new StringBuilder(shape + " thread-CPU per round (ms):");
        for (long c : cpu) {
            each.append(String.format(Locale.ROOT, " %.0f", c / 1e6));
        }
        System.out.println(each);
        print(shape + " engine thread-CPU", cpu);
        print(shape + " engine wall", wall);
        print(shape + " process CPU per round", proc);
    }

    private static void print(String what, long[] ns) {
        long[] s = ns.clone();
        Arrays.sort(s);
        int n = s.length;
        System.out.printf(Locale.ROOT, "%s x%d: median %.1f ms, p90 %.1f ms, min %.1f ms, max %.1f ms%n", what, n,
                s[n / 2] / 1e6, s[Math.min(n - 1, (int) Math.ceil(n * 0.9) - 1)] / 1e6, s[0] / 1e6, s[n - 1] / 1e6);
    }

    private static String check(String shape, DecisionResult r) {
        Decision d = r.decisions().get(0);
        if (shape.equals("composite")) {
            java.util.Set<String> racks = new java.util.TreeSet<>();
            int placed = 0;
            for (Decision c : r.decisions()) {
                if (!c.outcome().name().equals("Scheduled") || c.compositePodGroup() == null) {
                    throw new IllegalStateException("expected every child Scheduled, got " + c.outcome() + ": "
                            + c.message());
                }
                placed += c.placements().size();
                c.placements().forEach(a -> racks.add(a.node().substring(0, "node-rNN".length())));
            }
            return String.format(Locale.ROOT, "%d children Scheduled, %d members placed, racks used %s",
                    r.decisions().size(), placed, racks);
        }
        if (shape.equals("maxcount")) {
            if (!d.outcome().name().equals("Scheduled") || d.explanation() == null
                    || d.explanation().search() == null) {
                throw new IllegalStateException("expected Scheduled with the search run, got " + d.outcome() + ": "
                        + d.message());
            }
            var s = d.explanation().search();
            return String.format(Locale.ROOT, "%s, %d placed, %d left out; search steps %d of %d, exhausted %s, "
                            + "found %s", d.outcome(), d.placements().size(), d.unschedulablePods().size(), s.steps(),
                    s.budget(), s.exhausted(), s.found());
        }
        if (!d.outcome().name().equals("Preempting") || d.victims().isEmpty()) {
            throw new IllegalStateException("expected Preempting, got " + d.outcome() + ": " + d.message());
        }
        return String.format(Locale.ROOT, "%s, %d nominations, %d victims", d.outcome(), d.nominations().size(),
                d.victims().size());
    }

    private static String name(String prefix, int i) {
        return String.format(Locale.ROOT, "%s-%05d", prefix, i);
    }

    /** 5,000 nodes of 8 cpu, 4,600 full; a 1,000-member basic group of mixed sizes. */
    static DecisionRequest maxCount() {
        List<Node> nodes = new ArrayList<>(NODES);
        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < NODES; i++) {
            nodes.add(node(name("node", i)).label("kubernetes.io/hostname", name("node", i))
                    .allocatable("cpu", "8").allocatable("memory", "32Gi").allocatable("pods", "110").build());
            if (i % 25 >= 2) { // 2 of every 25 nodes are free: 400
                pods.add(pod(name("filler", i)).namespace("base").requests("cpu", "8").requests("memory", "8Gi")
                        .on(name("node", i)).build());
            }
        }
        int[] sizes = {1, 2, 3, 6};
        for (int i = 0; i < 1_000; i++) {
            int cpu = sizes[(i * 7) % sizes.length];
            pods.add(member(pod(name("member", i)).namespace("work").requests("cpu", Integer.toString(cpu))
                    .requests("memory", (cpu * 2) + "Gi").build(), "mixed"));
        }
        List<PodGroup> groups = List.of(Groups.basic("mixed").namespace("work").build());
        return new DecisionRequest(new ClusterState(nodes, pods, groups, List.of(), List.of()), null,
                new DecisionOptions(true, true));
    }

    /** 5,000 nodes of 16 cpu with 10 bound lower-priority pods each; a 100-pod gang at priority 1000. */
    static DecisionRequest preempt() {
        List<Node> nodes = new ArrayList<>(NODES);
        List<Pod> pods = new ArrayList<>(NODES * 10 + 100);
        for (int i = 0; i < NODES; i++) {
            nodes.add(node(name("node", i)).label("kubernetes.io/hostname", name("node", i))
                    .allocatable("cpu", "16").allocatable("memory", "64Gi").allocatable("pods", "110").build());
            for (int k = 0; k < 10; k++) {
                int j = i * 10 + k;
                pods.add(withPriority(pod(name("bound", j)).namespace("batch").requests("cpu", "1500m")
                        .requests("memory", "6Gi").on(name("node", i)).build(), (j * 7) % 10));
            }
        }
        for (int i = 0; i < 100; i++) {
            pods.add(withPriority(member(pod(name("trainer", i)).namespace("ml").requests("cpu", "4")
                    .requests("memory", "8Gi").build(), "train"), 1000));
        }
        List<PodGroup> groups = List.of(Groups.gang("train", 100).namespace("ml").priority(1000).build());
        return new DecisionRequest(new ClusterState(nodes, pods, groups, List.of(), List.of()), null,
                new DecisionOptions(true, false));
    }

    /**
     * 5,000 nodes of 16 cpu in 50 racks of 100; the first 40 racks hold a bound 11-cpu pod on every node (500 cpu
     * free per rack), the last 10 are empty. A CompositePodGroup (gang, minGroupCount 10, one rack) of 10 gangs of 100
     * one-cpu pods (1,000 cpu): no full rack before the 41st holds it.
     */
    static DecisionRequest composite() {
        List<Node> nodes = new ArrayList<>(NODES);
        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < NODES; i++) {
            int rack = i / 100;
            String n = String.format(Locale.ROOT, "node-r%02d-%03d", rack, i % 100);
            nodes.add(node(n).label("kubernetes.io/hostname", n).label("topology.kubernetes.io/rack",
                            String.format(Locale.ROOT, "r%02d", rack))
                    .allocatable("cpu", "16").allocatable("memory", "64Gi").allocatable("pods", "110").build());
            if (rack < 40) {
                pods.add(pod(name("filler", i)).namespace("base").requests("cpu", "11").requests("memory", "8Gi")
                        .on(n).build());
            }
        }
        List<PodGroup> groups = new ArrayList<>();
        for (int g = 0; g < 10; g++) {
            String group = "part-" + g;
            groups.add(Groups.gang(group, 100).namespace("ml").build().withParentComposite("job"));
            for (int i = 0; i < 100; i++) {
                pods.add(member(pod(name(group, i)).namespace("ml").requests("cpu", "1").requests("memory", "2Gi")
                        .build(), group));
            }
        }
        List<dev.muster.core.model.CompositePodGroup> composites = List.of(new dev.muster.core.model.CompositePodGroup(
                new dev.muster.core.model.GroupRef("ml", "job"), null, true, 10, List.of("topology.kubernetes.io/rack"),
                null, null, null, 0));
        return new DecisionRequest(new ClusterState(nodes, pods, groups, List.of(), List.of(), composites), null,
                new DecisionOptions(false, false));
    }
}
