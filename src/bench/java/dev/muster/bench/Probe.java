package dev.muster.bench;

import dev.muster.adapter.kube.RequestDocument;
import dev.muster.core.decision.Decision;
import dev.muster.core.decision.DecisionRequest;
import dev.muster.core.decision.DecisionResult;

import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Smoke check and profiling driver. {@code Probe <shape> [rounds] [stage]}: generates the shape (a
 * {@link RequestGenerator} shape, or a {@link ShapeFamily} one such as {@code plain-pods}), checks it is valid
 * and every group is decided, prints per-stage timings, then repeats {@code stage} (decide by default; or tokenize,
 * decode, validate, compile, snapshot, helper = what a server's compile-ahead helper does (compile, catalog,
 * snapshot), encode, full, compiled = decide on a compiled snapshot, warmed = the same on a
 * snapshot compiled as a server's helper compiles it: the DRA catalog warmed for the snapshot's nodes) {@code rounds} times,
 * printing the median (wall, thread CPU, bytes the thread allocated), so a JFR recording of this process shows that stage alone (after the first warm rounds).
 * With {@code -Dprobe.rounds=true} it also prints each round's thread CPU and the young collections so far: the first
 * rounds run before the JIT has settled (on {@code plain-pods} the engine takes about three times as long in the first
 * rounds as after twenty), so compare rounds from the same point on, not the medians of short runs.
 */
public final class Probe {
    /** Collections so far, of every collector. */
    private static long gcCount() {
        long n = 0;
        for (var b : java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
            n += b.getCollectionCount();
        }
        return n;
    }

    public static void main(String[] args) {
        String shape = args.length > 0 ? args[0] : "large";
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        String stage = args.length > 2 ? args[2] : "decide";
        Fixture f = new Fixture();
        long t = System.nanoTime();
        byte[] body = generate(shape);
        System.out.printf(Locale.ROOT, "%s: %,d bytes generated in %d ms%n", shape, body.length, ms(t));
        t = System.nanoTime();
        long tokens = Fixture.tokenize(body);
        System.out.printf(Locale.ROOT, "tokenize %d ms (%,d tokens)%n", ms(t), tokens);
        t = System.nanoTime();
        RequestDocument doc = f.decode(body);
        System.out.printf(Locale.ROOT, "decode   %d ms%n", ms(t));
        t = System.nanoTime();
        f.read(body);
        System.out.printf(Locale.ROOT, "decode+validate %d ms%n", ms(t));
        t = System.nanoTime();
        DecisionRequest req = Fixture.compile(doc);
        System.out.printf(Locale.ROOT, "compile  %d ms%n", ms(t));
        t = System.nanoTime();
        DecisionResult result = f.decide(req);
        System.out.printf(Locale.ROOT, "decide   %d ms (first)%n", ms(t));
        t = System.nanoTime();
        byte[] out = Fixture.encode(result);
        System.out.printf(Locale.ROOT, "encode   %d ms (%,d bytes)%n", ms(t), out.length);
        Map<String, Integer> outcomes = new TreeMap<>();
        int placed = 0;
        for (Decision d : result.decisions()) {
            outcomes.merge(d.outcome().name(), 1, Integer::sum);
            placed += d.placements().size();
        }
        System.out.printf(Locale.ROOT, "decisions %s, %,d placements%n", outcomes, placed);
        if (outcomes.size() != 1 || !outcomes.containsKey("Scheduled")) {
            Decision first = result.decisions().stream().filter(d -> d.outcome().name() != "Scheduled").findFirst()
                    .orElse(null);
            System.out.println("NOT ALL SCHEDULED; first: " + (first == null ? null : first.message()));
        }
        boolean fresh = stage.equals("fresh"); // compiled in each round, below
        dev.muster.core.snapshot.ClusterSnapshot compiled = fresh ? null
                : stage.equals("warmed") ? Fixture.compiledAsServed(req)
                : dev.muster.core.decision.DecisionEngine.compile(req);
        long[] ns = new long[rounds];
        long[] cpu = new long[rounds];
        long[] alloc = new long[rounds];
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        for (int i = 0; i < rounds; i++) {
            if (fresh) {
                compiled = Fixture.compiledAsServed(req); // as the service: a snapshot of its own per decision
            }
            long c = threads.getCurrentThreadCpuTime();
            long a = threads.getCurrentThreadAllocatedBytes();
            long s = System.nanoTime();
            switch (stage) {
                case "tokenize" -> Fixture.tokenize(body);
                case "decode" -> f.decode(body);
                case "validate" -> f.validate(doc);
                case "compile" -> Fixture.compile(doc);
                case "helper" -> dev.muster.adapter.compile.CompileAhead.OFF
                        .start(doc, dev.muster.adapter.compile.CompileAhead.compile(doc)).join();
                case "snapshot" -> dev.muster.core.decision.DecisionEngine.compile(req);
                case "encode" -> Fixture.encode(result);
                case "full" -> f.full(body);
                case "compiled", "warmed", "fresh" -> {
                    f.engine.decide(compiled, req.podGroups(), req.options(), () -> false);
                }
                default -> f.decide(req);
            }
            ns[i] = System.nanoTime() - s;
            cpu[i] = threads.getCurrentThreadCpuTime() - c;
            alloc[i] = threads.getCurrentThreadAllocatedBytes() - a;
            if (Boolean.getBoolean("probe.rounds")) {
                System.out.printf(Locale.ROOT, "round %d: cpu %.1f ms, gcs %d%n", i, cpu[i] / 1e6, gcCount());
            }
        }
        Arrays.sort(ns);
        Arrays.sort(cpu);
        int p90 = Math.min(rounds - 1, (int) Math.ceil(rounds * 0.9) - 1);
        System.out.printf(Locale.ROOT, "%s x%d: median %.2f ms, p90 %.2f ms, min %.2f ms, max %.2f ms%n", stage, rounds,
                ns[rounds / 2] / 1e6, ns[p90] / 1e6, ns[0] / 1e6, ns[rounds - 1] / 1e6);
        // CPU time of this thread: what the stage costs when other processes share the cores (GC threads excluded)
        System.out.printf(Locale.ROOT, "%s x%d: cpu median %.2f ms, p90 %.2f ms, min %.2f ms%n", stage, rounds,
                cpu[rounds / 2] / 1e6, cpu[p90] / 1e6, cpu[0] / 1e6);
        // allocated by this thread (a helper's, such as the parallel evaluation's, is not counted)
        Arrays.sort(alloc);
        System.out.printf(Locale.ROOT, "%s x%d: allocated median %.1f MB%n", stage, rounds, alloc[rounds / 2] / 1e6);
    }

    /** A {@link RequestGenerator} shape, or else a {@link ShapeFamily} shape at full scale, seed 1 (FamilyBench's). */
    static byte[] generate(String shape) {
        for (RequestGenerator.Shape s : RequestGenerator.Shape.values()) {
            if (s.id.equals(shape)) {
                return RequestGenerator.generate(s, RequestGenerator.SEED);
            }
        }
        return ShapeFamily.generate(ShapeFamily.Shape.of(shape), 1);
    }

    private static long ms(long since) {
        return (System.nanoTime() - since) / 1_000_000;
    }
}
