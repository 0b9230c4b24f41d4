package dev.muster.bench;

import dev.muster.adapter.clusterview.WatchedClusterVersion;
import dev.muster.adapter.clusterview.ViewStore;
import dev.muster.adapter.extender.ExtenderCodec;
import dev.muster.adapter.extender.ExtenderService;
import dev.muster.adapter.extender.ExtenderWire.ExtenderArgs;
import dev.muster.adapter.extender.ExtenderWire.ExtenderFilterResult;
import dev.muster.adapter.extender.PreparedViews;
import dev.muster.adapter.kube.Kube;
import dev.muster.adapter.kube.KubeCodec;
import dev.muster.adapter.kube.KubeMapper;
import dev.muster.core.decision.DecisionEngine;
import dev.muster.core.decision.EngineConfig;
import dev.muster.core.model.Node;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodGroup;
import dev.muster.core.model.PodRef;
import dev.muster.core.model.ResourceList;
import dev.muster.core.snapshot.ClusterSnapshot;
import dev.muster.core.testing.Groups;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import static dev.muster.core.testing.Nodes.node;

/**
 * The extender's cluster view at scale: {@code ExtenderScale [nodes] [pods] [rounds] [staleness-ms]} (defaults
 * 100,000 nodes, 1,000,000 bound pods, 30 rounds, 5000 ms). Run it with {@code -Xmx4g}.
 * <p>
 * Builds the view the way the watch source does (a {@link ViewStore} fed object by object): nodes in zones of
 * 10,000 and racks of 50 with 7 labels, 64 cpu / 256Gi / 110 pods each, {@code pods / nodes} bound pods per node
 * (250m to 2 cpu, 3 labels, strings fresh per object as a decoder makes them), 20 pending 16-member gangs each
 * constrained to one rack. Prints the heap retained after GC with the view compiled and one decision cached.
 * <p>
 * Then filter calls with 5,000 {@code NodeNames} (read + answer + write, as the HTTP resource does, without HTTP)
 * for one pending member: {@code steady} calls on an unchanged view, and the first call after each kind of change
 * (a bound pod added, a bound pod removed, a node's labels changed), each change applied to the store just before
 * the call. Also the time until the view with the change is prepared (its decision cached): the staleness.
 * Median, p90, p99 and max of each.
 */
public final class ExtenderScale {
    static final String ZONE = "topology.kubernetes.io/zone";
    static final String RACK = "topology.kubernetes.io/rack";
    static final int GANGS = 20;
    static final int MEMBERS = 16;

    public static void main(String[] args) throws Exception {
        int nodes = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        int pods = args.length > 1 ? Integer.parseInt(args[1]) : 1_000_000;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 30;
        long stalenessMs = args.length > 3 ? Long.parseLong(args[3]) : 5000;
        System.out.println(machine());

        long t0 = System.nanoTime();
        ViewStore store = new ViewStore("bench");
        for (int i = 0; i < nodes; i++) {
            store.putNode(key(i), nodeAt(i, "a"));
        }
        int perNode = Math.max(1, pods / nodes);
        int made = 0;
        for (int i = 0; made < pods; i++) {
            for (int k = 0; k < perNode && made < pods; k++, made++) {
                Pod p = boundPod(made, i % nodes);
                store.putPod(p.ref().namespace() + "/" + p.ref().name(), p);
            }
        }
        KubeCodec kube = new KubeCodec(KubeCodec.Limits.DEFAULT);
        List<byte[]> memberJson = new ArrayList<>();
        for (int g = 0; g < GANGS; g++) {
            PodGroup pg = Groups.gang("gang-" + g, MEMBERS).namespace("train").topology(RACK).created(1000 + g)
                    .build();
            store.putPodGroup("train/gang-" + g, pg);
            for (int m = 0; m < MEMBERS; m++) {
                byte[] json = memberJson(g, m).getBytes(StandardCharsets.UTF_8);
                Pod p = KubeMapper.pod(kube.readJson(json, Kube.Pod.class));
                store.putPod("train/" + p.ref().name(), p);
                if (m == 0) {
                    memberJson.add(json);
                }
            }
        }
        System.out.printf(Locale.ROOT, "store filled: %d nodes, %d bound pods, %d gangs x %d pending in %.1f s%n",
                nodes, made, GANGS, MEMBERS, (System.nanoTime() - t0) / 1e9);

        DecisionEngine engine = new DecisionEngine(EngineConfig.DEFAULT);
        phases(store, engine, Integer.getInteger("phases", 3));
        ExtenderCodec codec = new ExtenderCodec();
        PreparedViews views = new PreparedViews(store::current, store::changes, Duration.ofMillis(stalenessMs));
        ExtenderService service = new ExtenderService(views, engine, codec, 16);
        long t1 = System.nanoTime();
        WatchedClusterVersion first = views.awaitLatest();
        System.out.printf(Locale.ROOT, "first view prepared (generation %d, compiled + decided) in %.1f s%n",
                first.generation(), (System.nanoTime() - t1) / 1e9);

        // The candidate nodes: 5,000 names around the node the decision gives member 0 of gang 0.
        byte[] probe = body(memberJson.get(0), names(0, 5000));
        ExtenderFilterResult r = service.filter(codec.read(probe, ExtenderArgs.class));
        String planned = r.nodeNames().isEmpty() ? null : r.nodeNames().get(0);
        int at = planned == null ? 0 : Integer.parseInt(planned.substring("node-".length()));
        int from = Math.max(0, Math.min(nodes - 5000, at - 2500));
        byte[] request = body(memberJson.get(0), names(from, Math.min(5000, nodes)));
        ExtenderFilterResult answer = service.filter(codec.read(request, ExtenderArgs.class));
        System.out.printf(Locale.ROOT, "request %d bytes, answer %d bytes, kept %s, %d failed%n", request.length,
                codec.write(answer).length, answer.nodeNames(), answer.failedNodes().size());

        heap("heap retained (view compiled, decision cached)");

        long[] steady = new long[rounds * 3];
        for (int i = -5; i < steady.length; i++) {
            long s = System.nanoTime();
            call(service, codec, request);
            if (i >= 0) {
                steady[i] = System.nanoTime() - s;
            }
        }
        print("steady", steady);

        String[] kinds = {"pod added", "pod removed", "node changed"};
        long[][] firstAfter = new long[kinds.length][rounds];
        long[] stale = new long[rounds * kinds.length];
        long[] prepared = new long[rounds * kinds.length];
        int nextPod = pods;
        for (int i = 0; i < rounds; i++) {
            for (int k = 0; k < kinds.length; k++) {
                int n = (i * 7919 + k * 104729) % nodes;
                switch (k) {
                    case 0 -> {
                        Pod p = boundPod(nextPod++, n);
                        store.putPod(p.ref().namespace() + "/" + p.ref().name(), p);
                    }
                    case 1 -> store.removePod(podKey(i * 31 + 17));
                    default -> store.putNode(key(n), nodeAt(n, i % 2 == 0 ? "b" : "a"));
                }
                long changed = store.current().generation();
                long s = System.nanoTime();
                call(service, codec, request);
                firstAfter[k][i] = System.nanoTime() - s;
                WatchedClusterVersion v = views.awaitLatest();
                stale[i * kinds.length + k] = System.nanoTime() - s;
                prepared[i * kinds.length + k] = v.generation() - changed;
                call(service, codec, request); // the prepared view's first call
            }
        }
        for (int k = 0; k < kinds.length; k++) {
            print("first call after " + kinds[k], firstAfter[k]);
        }
        long[] all = new long[rounds * kinds.length];
        for (int k = 0; k < kinds.length; k++) {
            System.arraycopy(firstAfter[k], 0, all, k * rounds, rounds);
        }
        print("first call after any change", all);
        print("change -> its view prepared (staleness)", stale);
        System.out.printf(Locale.ROOT, "decisions computed: %d; views prepared: %d%n", service.decisionsComputed(),
                views.prepared());
        heap("heap retained at the end");
        System.out.println(machine());
        views.close();
    }

    /**
     * The preparation's parts on their own, after one bound pod is added each time (a derivation with a change, as a
     * watch event brings): assembling the view, compiling it, deciding it; wall and thread-CPU time.
     */
    private static void phases(ViewStore store, DecisionEngine engine, int reps) {
        java.lang.management.ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        String[] names = {"assemble view", "compile snapshot", "decide (every pending group)"};
        long[][] wall = new long[3][reps];
        long[][] cpu = new long[3][reps];
        store.current().compiled();
        for (int i = 0; i < reps; i++) {
            Pod added = boundPod(2_000_000 + i, (i * 7919) % store.current().state().nodes().size());
            store.putPod(added.ref().namespace() + "/" + added.ref().name(), added);
            long c = threads.getCurrentThreadCpuTime();
            long s = System.nanoTime();
            WatchedClusterVersion v = store.current();
            wall[0][i] = System.nanoTime() - s;
            cpu[0][i] = threads.getCurrentThreadCpuTime() - c;
            c = threads.getCurrentThreadCpuTime();
            s = System.nanoTime();
            ClusterSnapshot snap = v.compiled();
            wall[1][i] = System.nanoTime() - s;
            cpu[1][i] = threads.getCurrentThreadCpuTime() - c;
            c = threads.getCurrentThreadCpuTime();
            s = System.nanoTime();
            var r = engine.decide(snap, null, new dev.muster.core.decision.DecisionOptions(false, false),
                    () -> false);
            wall[2][i] = System.nanoTime() - s;
            cpu[2][i] = threads.getCurrentThreadCpuTime() - c;
            if (i == 0) {
                long scheduled = r.decisions().stream().filter(d -> d.outcome().name().equals("Scheduled")).count();
                System.out.printf(Locale.ROOT, "decision: %d groups, %d Scheduled%n", r.decisions().size(),
                        scheduled);
            }
            store.removePod(added.ref().namespace() + "/" + added.ref().name());
        }
        for (int k = 0; k < 3; k++) {
            print("phase " + names[k], wall[k]);
            print("phase " + names[k] + " (thread CPU)", cpu[k]);
        }
    }

    private static ExtenderFilterResult call(ExtenderService service, ExtenderCodec codec, byte[] body)
            throws Exception {
        ExtenderFilterResult r = service.filter(codec.read(body, ExtenderArgs.class));
        if (r.error() != null && !r.error().isEmpty()) {
            throw new IllegalStateException(r.error());
        }
        codec.write(r);
        return r;
    }

    static String key(int i) {
        return "node-" + pad(i, 6);
    }

    static Node nodeAt(int i, String pool) {
        String name = key(i);
        return node(name).label("kubernetes.io/hostname", new String(name))
                .label(ZONE, String.format(Locale.ROOT, "zone-%d", i / 10_000))
                .label(RACK, String.format(Locale.ROOT, "rack-%04d", i / 50))
                .label("node.kubernetes.io/instance-type", "m6i." + "16xlarge")
                .label("kubernetes.io/os", "lin" + "ux").label("kubernetes.io/arch", "amd" + "64")
                .label("pool", "pool-" + pool)
                .allocatable("cpu", "64").allocatable("memory", "256Gi").allocatable("pods", "110").build();
    }

    static String podKey(int i) {
        return "ns-" + pad(i % 200, 3) + "/app-" + pad(i, 7);
    }

    private static final long[] CPU = {250, 500, 1000, 2000};

    /** A bound pod as a decoder makes it: every string and list its own object. */
    static Pod boundPod(int i, int node) {
        String ns = "ns-" + pad(i % 200, 3);
        String name = "app-" + pad(i, 7);
        Map<String, String> labels = new TreeMap<>();
        labels.put("app", "app-" + (i / 10));
        labels.put("pod-template-hash", Integer.toHexString(0x5f00000 + i / 10));
        labels.put("tier", i % 3 == 0 ? new String("web") : new String("batch"));
        ResourceList requests = ResourceList.of(new String[] {new String("cpu"), new String("memory")},
                new long[] {CPU[i % 4], (1L + i % 4) << 30}, 2);
        return new Pod(new PodRef(ns, name), "uid-" + ns + "-" + name, labels, 1_700_000_000L + i, key(node),
                new String("Running"), null, requests, null, null, null, null, null, null, null, null, null, null,
                null, null, false);
    }

    private static String pad(int v, int width) {
        String s = Integer.toString(v);
        return "0".repeat(Math.max(0, width - s.length())) + s;
    }

    static String memberJson(int g, int m) {
        return "{\"metadata\":{\"name\":\"gang-" + g + "-" + m + "\",\"namespace\":\"train\",\"uid\":\"uid-gang-" + g
                + "-" + m + "\",\"creationTimestamp\":\"2026-01-01T00:00:00Z\",\"labels\":{\"job\":\"gang-" + g
                + "\"}},\"spec\":{\"schedulerName\":\"muster\",\"containers\":[{\"name\":\"c\",\"resources\":"
                + "{\"requests\":{\"cpu\":\"4\",\"memory\":\"16Gi\"}}}],\"schedulingGroup\":{\"podGroupName\":\"gang-"
                + g + "\"}}}";
    }

    static List<String> names(int from, int count) {
        List<String> out = new ArrayList<>(count);
        for (int i = from; i < from + count; i++) {
            out.add(key(i));
        }
        return out;
    }

    static byte[] body(byte[] pod, List<String> names) {
        StringBuilder sb = new StringBuilder("{\"Pod\":").append(new String(pod, StandardCharsets.UTF_8))
                .append(",\"NodeNames\":[");
        for (int i = 0; i < names.size(); i++) {
            sb.append(i == 0 ? "\"" : ",\"").append(names.get(i)).append('"');
        }
        return sb.append("]}").toString().getBytes(StandardCharsets.UTF_8);
    }

    static void heap(String what) {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        var mem = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        System.out.printf(Locale.ROOT, "%s: %.0f MB used after GC (max %.0f MB)%n", what, mem.getUsed() / 1e6,
                mem.getMax() / 1e6);
    }

    static void print(String what, long[] ns) {
        long[] s = ns.clone();
        Arrays.sort(s);
        int n = s.length;
        System.out.printf(Locale.ROOT, "%s x%d: median %.1f ms, p90 %.1f ms, p99 %.1f ms, max %.1f ms%n", what, n,
                s[n / 2] / 1e6, s[Math.min(n - 1, (int) Math.ceil(n * 0.9) - 1)] / 1e6,
                s[Math.min(n - 1, (int) Math.ceil(n * 0.99) - 1)] / 1e6, s[n - 1] / 1e6);
    }

    static String machine() {
        double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        return String.format(Locale.ROOT, "%s  load average %.2f  cores %d  max heap %.0f MB  %s",
                java.time.Instant.now(), load, Runtime.getRuntime().availableProcessors(),
                Runtime.getRuntime().maxMemory() / 1e6, System.getProperty("java.version"));
    }
}
