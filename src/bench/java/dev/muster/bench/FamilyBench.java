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
import dev.muster.adapter.kube.RequestDocument;
import dev.muster.adapter.compile.CompileAhead;
import dev.muster.adapter.validation.ValidationLimits;
import dev.muster.bench.ShapeFamily.Generated;
import dev.muster.bench.ShapeFamily.Scale;
import dev.muster.bench.ShapeFamily.Shape;
import dev.muster.core.decision.Decision;
import dev.muster.core.decision.DecisionAbortedException;
import dev.muster.core.decision.DecisionEngine;
import dev.muster.core.decision.DecisionOptions;
import dev.muster.core.decision.DecisionRequest;
import dev.muster.core.decision.DecisionResult;
import dev.muster.core.model.Node;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodGroup;
import dev.muster.core.snapshot.ClusterSnapshot;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * The shape family ({@link ShapeFamily}) timed in one JVM, one markdown table row per shape:
 * {@code FamilyBench [--seed N] [--rounds N] [--warm N] [--nodes N] [--gang N] [--cap SECONDS] [--budget SECONDS]
 * [--no-header] [--header-only] [--list] [--write DIR] [--write-only] [shape...]} (all shapes by default;
 * {@code bench/family.sh} runs one JVM per shape). {@code --write DIR} also writes each request to
 * {@code DIR/<shape>-<seed>.json} ({@code extender}: the {@code generated} request), {@code --write-only} writes
 * and times nothing.
 * <p>
 * Per shape: the request is generated, read (decode + validate; a validation cause fails the row), compiled as the
 * service compiles it ({@link Fixture#compiledAsServed}), and decided once by the engine on that snapshot, whose
 * outcome is checked against the one the layout says a correct decision has. Then {@code warm} + {@code rounds} rounds,
 * each timing a validation ({@code Fixture.read}: what /v1/validations does without HTTP) and a decision
 * ({@code Fixture.full} with a {@link CompileAhead} helper: what /v1/decisions does without HTTP), in an order that
 * alternates from round to round, and the engine alone on a snapshot compiled as served for that round (untimed; a run
 * on a snapshot an earlier run used would find the memos that run kept in its catalog and time less than the service
 * does). CPU per decision is the request thread's CPU plus the compile helper's. A decision running past {@code cap} is
 * stopped (the engine polls a deadline) and the row says so. A shape stops its rounds before one that would end past
 * {@code budget} (the warm-up, past a third of it; no warm-up when the first decision took half the budget), at least
 * one round measured, and the row says how many rounds it measured.
 * <p>
 * {@code extender}: a ViewStore filled with {@code generated}'s objects, an ExtenderService reading it
 * synchronously; each round adds or removes a bound pod and times the next filter call for a pending member with
 * every node's name (the view assembled, compiled from the previous one, every group decided, the answer written),
 * then a call on the unchanged view (the decision cached), reported in the validate column.
 */
public final class FamilyBench {
    static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    long seed = 1;
    int rounds = 15;
    int warm = 10;
    Scale scale = Scale.FULL;
    double capSeconds = 30;
    double budgetSeconds = 60;
    Path write;
    boolean writeOnly;
    boolean parts;

    public static void main(String[] args) throws Exception {
        FamilyBench b = new FamilyBench();
        boolean header = true;
        List<Shape> shapes = new ArrayList<>();
        int nodes = Scale.FULL.nodes();
        int gang = Scale.FULL.gang();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--seed" -> b.seed = Long.parseLong(args[++i]);
                case "--rounds" -> b.rounds = Integer.parseInt(args[++i]);
                case "--warm" -> b.warm = Integer.parseInt(args[++i]);
                case "--nodes" -> nodes = Integer.parseInt(args[++i]);
                case "--gang" -> gang = Integer.parseInt(args[++i]);
                case "--cap" -> b.capSeconds = Double.parseDouble(args[++i]);
                case "--budget" -> b.budgetSeconds = Double.parseDouble(args[++i]);
                case "--write" -> b.write = Path.of(args[++i]);
                case "--write-only" -> b.writeOnly = true;
                case "--parts" -> b.parts = true;
                case "--no-header" -> header = false;
                case "--header-only" -> {
                    System.out.println(HEADER);
                    System.out.println(RULE);
                    return;
                }
                case "--list" -> {
                    for (Shape s : Shape.values()) {
                        System.out.println(s.id);
                    }
                    return;
                }
                default -> shapes.add(Shape.of(args[i]));
            }
        }
        b.scale = new Scale(nodes, gang);
        if (shapes.isEmpty()) {
            shapes.addAll(List.of(Shape.values()));
        }
        if (header && !b.writeOnly) {
            System.out.println(HEADER);
            System.out.println(RULE);
        }
        for (Shape s : shapes) {
            String row;
            try {
                row = b.run(s);
            } catch (RuntimeException | OutOfMemoryError e) {
                row = row(s.id, "", "", "", "failed: " + e, "", "", "", "", "", "");
                e.printStackTrace();
            }
            if (row != null) {
                System.out.println(row);
            }
            System.out.flush();
            System.gc();
        }
    }

    static final String HEADER = "| shape | nodes | pods | MB | outcome | engine median / p90 ms | decide median ms "
            + "| validate median ms | CPU ms / decision | decide / validate | rounds |";
    static final String RULE = "| --- | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |";

    static String row(String... cells) {
        return "| " + String.join(" | ", cells) + " |";
    }

    String run(Shape shape) throws Exception {
        long t0 = System.nanoTime();
        Generated gen = ShapeFamily.build(shape == Shape.EXTENDER ? Shape.GENERATED : shape, seed, scale);
        if (write != null) {
            Files.createDirectories(write);
            Files.write(write.resolve(shape.id + "-" + seed + ".json"), gen.body());
        }
        log("%s: %,d bytes generated in %.1f s", shape.id, gen.body().length, (System.nanoTime() - t0) / 1e9);
        if (writeOnly) {
            return null;
        }
        String mb = String.format(Locale.ROOT, "%.1f", gen.body().length / 1e6);
        String nodes = String.format(Locale.ROOT, "%,d", gen.nodes());
        String pods = String.format(Locale.ROOT, "%,d", gen.pending());
        Fixture f = new Fixture();
        RequestDocument doc;
        try {
            doc = f.read(gen.body());
        } catch (IllegalStateException e) {
            return row(shape.id, nodes, pods, mb, "invalid: " + e.getMessage(), "", "", "", "", "", "");
        }
        DecisionRequest req = Fixture.compile(doc);
        doc = null;
        ClusterSnapshot compiled = Fixture.compiledAsServed(req);
        long d0 = System.nanoTime();
        DecisionResult first;
        try {
            first = f.engine.decide(compiled, req.podGroups(), req.options(), deadline());
        } catch (DecisionAbortedException e) {
            return row(shape.id, nodes, pods, mb, "engine over the " + cap() + " cap", "> " + cap(), "", "", "",
                    "", "0");
        }
        String outcome = outcome(first);
        log("%s: first engine decision %.1f s: %s (expected %s)", shape.id, (System.nanoTime() - d0) / 1e9, outcome,
                gen.expected());
        String shown = gen.expected() == null || gen.expected().equals(outcome) ? outcome
                : outcome + " **≠ expected " + gen.expected() + "**";
        if (shape == Shape.EXTENDER) {
            return extender(gen, req, f.engine, nodes, pods, mb);
        }

        if (parts) {
            parts(shape, f, gen.body(), req, compiled);
        }
        Samples engine = new Samples();
        Samples decide = new Samples();
        Samples validate = new Samples();
        String capped = null;
        byte[] body = gen.body();
        double firstSeconds = (System.nanoTime() - d0) / 1e9;
        try (CompileAhead ahead = new CompileAhead(1, 2_000, ValidationLimits.DEFAULT)) {
            long start = System.nanoTime();
            long last = 0;
            // A shape whose first decision took half the budget has warmed up in it.
            for (int r = firstSeconds > budgetSeconds / 2 ? 0 : -warm; r < rounds; r++) {
                long roundStart = System.nanoTime();
                boolean measured = r >= 0;
                for (int k = 0; k < 2; k++) {
                    if ((k == 0) == (Math.floorMod(r, 2) == 0)) {
                        long c = THREADS.getCurrentThreadCpuTime();
                        long w = System.nanoTime();
                        f.read(body);
                        validate.add(measured, System.nanoTime() - w, THREADS.getCurrentThreadCpuTime() - c);
                    } else {
                        Map<Long, Long> h0 = helpers();
                        long c = THREADS.getCurrentThreadCpuTime();
                        long w = System.nanoTime();
                        try {
                            f.full(body, ahead, deadline());
                        } catch (DecisionAbortedException e) {
                            capped = "decision over the " + cap() + " cap";
                            break;
                        }
                        long wall = System.nanoTime() - w;
                        long cpu = THREADS.getCurrentThreadCpuTime() - c + helperCpu(h0);
                        decide.add(measured, wall, cpu);
                    }
                }
                if (capped != null) {
                    break;
                }
                // a snapshot of its own, as the service compiles one per decision: what a run works out on first use
                // (selector verdicts, a node's device lists) is kept in the snapshot's catalog, and a run on a
                // snapshot an earlier run used would find it done
                ClusterSnapshot fresh = Fixture.compiledAsServed(req);
                long w = System.nanoTime();
                try {
                    f.engine.decide(fresh, req.podGroups(), req.options(), deadline());
                } catch (DecisionAbortedException e) {
                    capped = "engine over the " + cap() + " cap";
                    break;
                }
                engine.add(measured, System.nanoTime() - w, 0);
                last = System.nanoTime() - roundStart;
                // Stop before a round that would end past the budget (a third of it for the warm-up).
                double next = (System.nanoTime() - start + last) / 1e9;
                if (measured && next > budgetSeconds) {
                    break;
                }
                if (!measured && r < -1 && next > budgetSeconds / 3) {
                    log("%s: warm-up cut after %.0f s", shape.id, (System.nanoTime() - start) / 1e9);
                    r = -1;
                }
            }
        }
        if (capped != null) {
            shown = shown + "; " + capped;
        }
        double dm = decide.wallMedian();
        double vm = validate.wallMedian();
        log("%s: done in %.0f s", shape.id, (System.nanoTime() - t0) / 1e9);
        return row(shape.id, nodes, pods, mb, shown, engine.medianP90(), ms(dm), ms(vm), ms(decide.cpuMedian()),
                Double.isNaN(dm) || Double.isNaN(vm) ? "" : String.format(Locale.ROOT, "%.2f", dm / vm),
                Integer.toString(decide.n()));
    }

    /**
     * {@code --parts}: each stage of a decision timed alone, alternating, to stderr: decode, validate, the
     * request into the core model, the snapshot build, the engine on a snapshot compiled as the service compiles it
     * ({@link Fixture#compiledAsServed}, a new one each round) and the encoding.
     */
    private void parts(Shape shape, Fixture f, byte[] body, DecisionRequest req, ClusterSnapshot compiled) {
        String[] stages = {"decode", "validate", "tocore", "snapshot", "engine", "encode"};
        Samples[] s = new Samples[stages.length];
        for (int i = 0; i < s.length; i++) {
            s[i] = new Samples();
        }
        long[] allocated = new long[stages.length];
        com.sun.management.ThreadMXBean bytes = (com.sun.management.ThreadMXBean) THREADS;
        long self = Thread.currentThread().getId();
        RequestDocument doc = f.decode(body);
        DecisionResult decided = f.engine.decide(compiled, req.podGroups(), req.options(), deadline());
        for (int r = -warm; r < rounds; r++) {
            ClusterSnapshot fresh = Fixture.compiledAsServed(req); // the engine's, one of its own per round
            for (int i = 0; i < stages.length; i++) {
                long a = bytes.getThreadAllocatedBytes(self);
                long c = THREADS.getCurrentThreadCpuTime();
                long w = System.nanoTime();
                switch (stages[i]) {
                    case "decode" -> f.decode(body);
                    case "validate" -> f.validate(doc);
                    case "tocore" -> Fixture.compile(doc);
                    case "snapshot" -> DecisionEngine.compile(req);
                    case "engine" -> f.engine.decide(fresh, req.podGroups(), req.options(), deadline());
                    default -> Fixture.encode(decided);
                }
                s[i].add(r >= 0, System.nanoTime() - w, THREADS.getCurrentThreadCpuTime() - c);
                allocated[i] = bytes.getThreadAllocatedBytes(self) - a; // the same every round
            }
        }
        for (int i = 0; i < stages.length; i++) {
            log("%s: part %-9s wall median / p90 %s ms, cpu median %s ms, %,.1f MB allocated", shape.id, stages[i],
                    s[i].medianP90(), ms(s[i].cpuMedian()), allocated[i] / 1e6);
        }
    }

    /** The extender shape: a filter call after a view change and on an unchanged view, with every node's name. */
    private String extender(Generated gen, DecisionRequest req, DecisionEngine engine, String nodes, String pods,
                            String mb) throws Exception {
        ViewStore store = new ViewStore("bench", req::dra);
        List<String> names = new ArrayList<>();
        for (Node n : req.cluster().nodes()) {
            store.putNode(n.name(), n);
            names.add(n.name());
        }
        for (Pod p : req.cluster().pods()) {
            store.putPod(p.ref().namespace() + "/" + p.ref().name(), p);
        }
        for (PodGroup g : req.cluster().podGroups()) {
            store.putPodGroup(g.ref().namespace() + "/" + g.ref().name(), g);
        }
        ExtenderCodec codec = new ExtenderCodec();
        PreparedViews views = PreparedViews.synchronous(store::current);
        ExtenderService service = new ExtenderService(views, engine, codec, 16);
        byte[] call = ExtenderScale.body(gen.memberPod(), names);
        ExtenderFilterResult answer = service.filter(codec.read(call, ExtenderArgs.class));
        if (answer.error() != null && !answer.error().isEmpty()) {
            return row("extender", nodes, pods, mb, "error: " + answer.error(), "", "", "", "", "", "");
        }
        String outcome = String.format(Locale.ROOT, "member kept on %d of %,d nodes", answer.nodeNames().size(),
                names.size());
        KubeCodec kube = new KubeCodec(KubeCodec.Limits.DEFAULT);
        Samples first = new Samples();
        Samples steady = new Samples();
        Samples eng = new Samples();
        long start = System.nanoTime();
        for (int r = -warm; r < rounds; r++) {
            long roundStart = System.nanoTime();
            boolean measured = r >= 0;
            String key = "bench/probe";
            if (Math.floorMod(r, 2) == 0) {
                String json = "{\"metadata\":{\"name\":\"probe\",\"namespace\":\"bench\",\"uid\":\"probe-" + r
                        + "\"},\"spec\":{\"nodeName\":\"" + names.get(Math.floorMod(r * 7919, names.size()))
                        + "\",\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":\"100m\","
                        + "\"memory\":\"64Mi\"}}}]},\"status\":{\"phase\":\"Running\"}}";
                store.putPod(key, KubeMapper.pod(kube.readJson(json.getBytes(StandardCharsets.UTF_8),
                        Kube.Pod.class)));
            } else {
                store.removePod(key);
            }
            long c = THREADS.getCurrentThreadCpuTime();
            long w = System.nanoTime();
            filter(service, codec, call);
            first.add(measured, System.nanoTime() - w, THREADS.getCurrentThreadCpuTime() - c);
            c = THREADS.getCurrentThreadCpuTime();
            w = System.nanoTime();
            filter(service, codec, call);
            steady.add(measured, System.nanoTime() - w, THREADS.getCurrentThreadCpuTime() - c);
            WatchedClusterVersion v = store.current();
            w = System.nanoTime();
            engine.decide(v.compiled(), null, new DecisionOptions(false, false), deadline());
            eng.add(measured, System.nanoTime() - w, 0);
            double next = (2 * System.nanoTime() - start - roundStart) / 1e9;
            if (measured && next > budgetSeconds) {
                break;
            }
            if (!measured && r < -1 && next > budgetSeconds / 3) {
                r = -1;
            }
        }
        double dm = first.wallMedian();
        double vm = steady.wallMedian();
        return row("extender", nodes, pods, mb, outcome, eng.medianP90(),
                ms(dm) + " (p90 " + ms(first.wallP90()) + ", p99 " + ms(first.wallQuantile(0.99)) + ")",
                ms(vm) + " (steady call)",
                ms(first.cpuMedian()), String.format(Locale.ROOT, "%.2f", dm / vm), Integer.toString(first.n()));
    }

    private static void filter(ExtenderService service, ExtenderCodec codec, byte[] body) throws Exception {
        ExtenderFilterResult r = service.filter(codec.read(body, ExtenderArgs.class));
        if (r.error() != null && !r.error().isEmpty()) {
            throw new IllegalStateException(r.error());
        }
        codec.write(r);
    }

    /** Per group, "Outcome placed", counted alike ({@link ShapeFamily#outcome}). */
    static String outcome(DecisionResult result) {
        List<String> groups = new ArrayList<>();
        for (Decision d : result.decisions()) {
            groups.add(d.outcome() + " " + d.placements().size());
        }
        return ShapeFamily.outcome(groups);
    }

    private BooleanSupplier deadline() {
        long end = System.nanoTime() + (long) (capSeconds * 1e9);
        return () -> System.nanoTime() > end;
    }

    private String cap() {
        return String.format(Locale.ROOT, "%.0f s", capSeconds);
    }

    /** CPU time so far of the compile helper threads, by thread id. */
    private static Map<Long, Long> helpers() {
        Map<Long, Long> out = new HashMap<>();
        for (ThreadInfo t : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
            if (t != null && t.getThreadName().startsWith("muster-compile-")) {
                long cpu = THREADS.getThreadCpuTime(t.getThreadId());
                if (cpu >= 0) {
                    out.put(t.getThreadId(), cpu);
                }
            }
        }
        return out;
    }

    private static long helperCpu(Map<Long, Long> before) {
        long sum = 0;
        for (Map.Entry<Long, Long> e : helpers().entrySet()) {
            sum += e.getValue() - before.getOrDefault(e.getKey(), 0L);
        }
        return sum;
    }

    private static String ms(double nanos) {
        return Double.isNaN(nanos) ? "" : String.format(Locale.ROOT, nanos >= 1e8 ? "%.0f" : "%.1f", nanos / 1e6);
    }

    static void log(String format, Object... args) {
        System.err.printf(Locale.ROOT, format + "%n", args);
    }

    /** Wall and CPU nanoseconds of the measured rounds. */
    static final class Samples {
        private final List<long[]> values = new ArrayList<>();

        void add(boolean measured, long wall, long cpu) {
            if (measured) {
                values.add(new long[]{wall, cpu});
            }
        }

        int n() {
            return values.size();
        }

        private long[] sorted(int i) {
            long[] s = new long[values.size()];
            for (int k = 0; k < s.length; k++) {
                s[k] = values.get(k)[i];
            }
            Arrays.sort(s);
            return s;
        }

        private static double median(long[] s) {
            if (s.length == 0) {
                return Double.NaN;
            }
            return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2.0;
        }

        double wallMedian() {
            return median(sorted(0));
        }

        double cpuMedian() {
            return median(sorted(1));
        }

        /** Nearest-rank p90 of the wall times. */
        double wallP90() {
            return wallQuantile(0.9);
        }

        /** Nearest-rank quantile {@code q} of the wall times. */
        double wallQuantile(double q) {
            long[] s = sorted(0);
            return s.length == 0 ? Double.NaN : s[Math.max(0, Math.min(s.length - 1, (int) Math.ceil(s.length * q) - 1))];
        }

        String medianP90() {
            return values.isEmpty() ? "" : ms(wallMedian()) + " / " + ms(wallP90());
        }
    }
}
