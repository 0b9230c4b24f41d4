package dev.muster.bench;

import dev.muster.adapter.kube.RequestDocument;
import dev.muster.core.decision.DecisionEngine;
import dev.muster.core.decision.DecisionRequest;
import dev.muster.core.snapshot.ClusterSnapshot;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * {@code RequestPath <shape> [rounds] [warm]}: the request path's stages on one shape, alternating in one JVM
 * (so a shared machine's load falls on all of them alike), with wall and thread-CPU medians and the ratios of
 * targets 1 and 2 (bench/README.md):
 * <ul>
 *   <li>{@code validations} = decode + validate (what {@code /v1/validations} does with the bytes) against the
 *       tokenizing floor (target 2: ≤ 1.5);</li>
 *   <li>{@code decisions} = decode + validate + compile + decide + encode against {@code validations}
 *       (target 1: ≤ 1.3);</li>
 *   <li>{@code engine} = decide on an already compiled snapshot (target 3), rolled back after each round.</li>
 * </ul>
 * Thread CPU time leaves out GC work on other threads; wall time includes it and the machine's other load.
 */
public final class RequestPath {
    public static void main(String[] args) {
        String shape = args.length > 0 ? args[0] : "large";
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        int warm = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        Fixture f = new Fixture();
        byte[] body = RequestGenerator.generate(shape);
        RequestDocument doc = f.read(body);
        DecisionRequest request = Fixture.compile(doc);
        ClusterSnapshot compiled = DecisionEngine.compile(request);

        Map<String, Runnable> stages = new LinkedHashMap<>();
        stages.put("tokenize", () -> Fixture.tokenize(body));
        stages.put("decode", () -> f.decode(body));
        stages.put("validate", () -> f.validate(doc));
        stages.put("validations", () -> f.read(body));
        stages.put("compile", () -> DecisionEngine.compile(Fixture.compile(doc)));
        stages.put("engine", () -> {
            f.engine.decide(compiled, request.podGroups(), request.options(), () -> false);
        });
        stages.put("decisions", () -> f.full(body));

        int s = stages.size();
        long[][] wall = new long[s][rounds];
        long[][] cpu = new long[s][rounds];
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        for (int i = -warm; i < rounds; i++) {
            int k = 0;
            for (Runnable stage : stages.values()) {
                long c = threads.getCurrentThreadCpuTime();
                long t = System.nanoTime();
                stage.run();
                if (i >= 0) {
                    wall[k][i] = System.nanoTime() - t;
                    cpu[k][i] = threads.getCurrentThreadCpuTime() - c;
                }
                k++;
            }
        }
        Map<String, double[]> medians = new LinkedHashMap<>();
        int k = 0;
        System.out.printf(Locale.ROOT, "%s, %d rounds after %d warm-up, %,d bytes%n", shape, rounds, warm, body.length);
        System.out.printf(Locale.ROOT, "%-12s %12s %12s %12s%n", "stage", "wall median", "wall min", "cpu median");
        for (String name : stages.keySet()) {
            Arrays.sort(wall[k]);
            Arrays.sort(cpu[k]);
            double w = wall[k][rounds / 2] / 1e6;
            double c = cpu[k][rounds / 2] / 1e6;
            medians.put(name, new double[] {w, c});
            System.out.printf(Locale.ROOT, "%-12s %9.1f ms %9.1f ms %9.1f ms%n", name, w, wall[k][0] / 1e6, c);
            k++;
        }
        double[] floor = medians.get("tokenize");
        double[] validations = medians.get("validations");
        double[] decisions = medians.get("decisions");
        System.out.printf(Locale.ROOT, "validations/floor: wall %.2f, cpu %.2f (target <= 1.5)%n",
                validations[0] / floor[0], validations[1] / floor[1]);
        System.out.printf(Locale.ROOT, "decisions/validations: wall %.2f, cpu %.2f (target <= 1.3)%n",
                decisions[0] / validations[0], decisions[1] / validations[1]);
    }
}
