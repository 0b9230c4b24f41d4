package dev.muster.bench;

import dev.muster.adapter.cel.CelSelectors;
import dev.muster.adapter.kube.RequestDocument;
import dev.muster.adapter.compile.CompileAhead;
import dev.muster.adapter.validation.ValidationLimits;
import dev.muster.core.decision.Decision;
import dev.muster.core.decision.DecisionEngine;
import dev.muster.core.decision.DecisionRequest;
import dev.muster.core.decision.DecisionResult;
import dev.muster.core.decision.Outcome;
import dev.muster.core.snapshot.ClusterSnapshot;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Locale;

/**
 * The DRA scenario ({@link DraRequestGenerator}) in one JVM, stages alternating:
 * {@code DraPath [rounds] [warm] [only]}. Per round: validations (decode + validate, what /v1/validations does
 * without HTTP), decisions (decode + validate + compile + decide + encode, /v1/decisions without HTTP) and the
 * engine on a compiled snapshot (decide + rollback), in that order. Prints wall and thread-CPU medians and p90s and
 * the decisions/validations ratio, and {@code CelSelectors.shared().compilations()} around the first read of the
 * 1,000-pod request, of a 10-pod and a 500-pod variant, and around all rounds. {@code only=compiled} repeats the
 * engine alone (for a profiler); {@code only=parts} adds the stages of a decision after validation: the
 * request into the core model ({@code tocore}), the snapshot build ({@code snapshot}), the engine with its own
 * snapshot build ({@code fresh}) and the response's encoding ({@code encode}); {@code only=ahead} adds decisions as
 * the service runs them ({@code ahead}: compiled by a helper thread while validated, {@code CompileAhead}), and
 * {@code only=ahead-only} runs that stage alone (for a profiler).
 */
public final class DraPath {
    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals("sizes")) {
            sizes(args);
            return;
        }
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        int warm = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        String only = args.length > 2 ? args[2] : "all";
        Fixture f = new Fixture();
        CelSelectors cel = CelSelectors.shared();

        long c0 = cel.compilations();
        byte[] small = DraRequestGenerator.generate(10);
        DecisionRequest smallReq = Fixture.compile(f.read(small));
        check(f.decide(smallReq), 10);
        long c1 = cel.compilations();
        byte[] body = DraRequestGenerator.generate();
        RequestDocument doc = f.read(body);
        long c2 = cel.compilations();
        DecisionRequest req = Fixture.compile(doc);
        check(f.decide(req), DraRequestGenerator.GANG);
        long c3 = cel.compilations();
        byte[] big = DraRequestGenerator.generate(500);
        check(f.decide(Fixture.compile(f.read(big))), 500);
        long c4 = cel.compilations();
        big = null;
        System.out.printf(Locale.ROOT, "dra: %,d bytes; CEL compilations: 10-pod request %d (read+decide), "
                + "1,000-pod read %d, its decide %d, 500-pod read+decide %d; cached %d%n", body.length,
                c1 - c0, c2 - c1, c3 - c2, c4 - c3, cel.cachedExpressions());

        ClusterSnapshot compiled = DecisionEngine.compile(req);
        CompileAhead ahead = new CompileAhead(1, 2_000, ValidationLimits.DEFAULT);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        String[] stages = only.equals("all") ? new String[]{"validations", "decisions", "compiled"}
                : only.equals("ahead") ? new String[]{"validations", "decisions", "ahead"}
                : only.equals("ahead-only") ? new String[]{"ahead"}
                : only.equals("parts") ? new String[]{"validations", "decisions", "decode", "validate",
                "tocore", "snapshot", "fresh", "compiled", "encode"} : new String[]{only};
        DecisionResult decided = f.decide(req);
        long[][] wall = new long[stages.length][rounds];
        long[][] cpu = new long[stages.length][rounds];
        long before = cel.compilations();
        for (int r = -warm; r < rounds; r++) {
            for (int s = 0; s < stages.length; s++) {
                long tc = threads.getCurrentThreadCpuTime();
                long tw = System.nanoTime();
                switch (stages[s]) {
                    case "validations" -> f.read(body);
                    case "decisions" -> f.full(body);
                    case "ahead" -> f.full(body, ahead);
                    case "compiled" -> {
                        f.engine.decide(compiled, req.podGroups(), req.options(), () -> false);
                    }
                    case "decode" -> f.decode(body);
                    case "validate" -> f.validate(doc);
                    case "tocore" -> Fixture.compile(doc);
                    case "snapshot" -> DecisionEngine.compile(req);
                    case "fresh" -> f.decide(req);
                    case "encode" -> Fixture.encode(decided);
                    default -> throw new IllegalArgumentException(stages[s]);
                }
                if (r >= 0) {
                    wall[s][r] = System.nanoTime() - tw;
                    cpu[s][r] = threads.getCurrentThreadCpuTime() - tc;
                }
            }
        }
        System.out.printf(Locale.ROOT, "CEL compilations during %d rounds: %d%n", rounds + warm,
                cel.compilations() - before);
        double[] med = new double[stages.length];
        for (int s = 0; s < stages.length; s++) {
            Arrays.sort(wall[s]);
            Arrays.sort(cpu[s]);
            med[s] = wall[s][rounds / 2] / 1e6;
            System.out.printf(Locale.ROOT, "%-12s wall median %8.1f ms  p90 %8.1f ms  min %8.1f | cpu median %8.1f ms"
                    + "  p90 %8.1f ms%n", stages[s], med[s], p90(wall[s]) / 1e6, wall[s][0] / 1e6,
                    cpu[s][rounds / 2] / 1e6, p90(cpu[s]) / 1e6);
        }
        ahead.close();
        if (stages.length >= 3) {
            System.out.printf(Locale.ROOT, "decisions/validations wall %.2f, cpu %.2f%n", med[1] / med[0],
                    (double) cpu[1][rounds / 2] / cpu[0][rounds / 2]);
            if (stages.length > 2 && stages[2].equals("ahead")) {
                System.out.printf(Locale.ROOT, "ahead/validations wall %.2f%n", med[2] / med[0]);
            }
        }
    }

    /** {@code DraPath sizes n...}: decides the scenario with a gang of n (first decide, then 3 more), placed pods. */
    private static void sizes(String[] args) {
        Fixture f = new Fixture();
        for (int i = 1; i < args.length; i++) {
            int n = Integer.parseInt(args[i]);
            DecisionRequest req = Fixture.compile(f.read(DraRequestGenerator.generate(n)));
            ClusterSnapshot compiled = DecisionEngine.compile(req);
            for (int k = 0; k < 3; k++) {
                long t = System.nanoTime();
                DecisionResult r = f.engine.decide(compiled, req.podGroups(), req.options(), () -> false);
                long ms = (System.nanoTime() - t) / 1_000_000;
                Decision d = r.decisions().get(0);
                System.out.printf(Locale.ROOT, "gang %5d: %s, %d placed, %d ms%s%n", n, d.outcome(),
                        d.placements().size(), ms, d.outcome() == Outcome.Scheduled ? "" : " : " + d.message());
            }
        }
    }

    private static long p90(long[] sorted) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(sorted.length * 0.9) - 1)];
    }

    static void check(DecisionResult result, int pods) {
        int placed = 0;
        for (Decision d : result.decisions()) {
            if (d.outcome() != Outcome.Scheduled) {
                throw new IllegalStateException("dra: " + d.podGroup() + " " + d.outcome() + ": " + d.message());
            }
            placed += d.placements().size();
        }
        if (placed != pods) {
            throw new IllegalStateException("dra: placed " + placed + " of " + pods + " pods");
        }
    }
}
