package dev.muster.bench;

import dev.muster.adapter.kube.Arrival;
import dev.muster.adapter.kube.RequestDocument;
import dev.muster.adapter.validation.Causes;
import dev.muster.adapter.compile.CompileAhead;
import dev.muster.adapter.validation.ValidationLimits;
import dev.muster.core.decision.DecisionRequest;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * Two builds side by side in one JVM, on the DRA scenario ({@link DraRequestGenerator}), one round each in turn, as
 * {@link StagePairs} does, but timing what a decision costs the way the service runs it, minus HTTP: decoding with
 * the early helper (which maps the cluster while the DRA lists are decoded), validation beside the compile helper,
 * the engine, the encoding; and, for the ratio, a validation alone (decode + validate).
 * {@code DecisionPairs <other build's classes dir> [rounds] [warm]}. Prints per build the wall-time median and p90 of
 * decisions and validations and their ratio, and the per-round ratio of this build's decision to the other's.
 */
public final class DecisionPairs implements Supplier<long[]> {
    private final Fixture fixture = new Fixture();
    private final byte[] body = DraRequestGenerator.generate();
    private final CompileAhead ahead = new CompileAhead(1, 2_000, ValidationLimits.DEFAULT);

    /** Wall nanoseconds of one decision, then of one validation. */
    @Override
    public long[] get() {
        long t0 = System.nanoTime();
        CompileAhead.Early early = ahead.early(UnaryOperator.identity());
        RequestDocument doc;
        try {
            doc = fixture.codec.readJson(body, Arrival.WHOLE, early);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        CompileAhead.Task task = ahead.start(doc, CompileAhead.compile(doc, early), UnaryOperator.identity(), early);
        Causes c = fixture.validate(doc);
        if (!c.isEmpty()) {
            throw new IllegalStateException("generated request is invalid: " + c.list().get(0).summary());
        }
        CompileAhead.Compiled compiled = task.join();
        DecisionRequest r = compiled.request();
        Fixture.encode(fixture.engine.decide(compiled.snapshot(), r.podGroups(), r.options(), () -> false));
        long t1 = System.nanoTime();
        fixture.read(body);
        long t2 = System.nanoTime();
        return new long[]{t1 - t0, t2 - t1};
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            throw new IllegalArgumentException("usage: DecisionPairs <other build's target/classes> [rounds] [warm]");
        }
        Path other = Path.of(args[0]).toAbsolutePath();
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 40;
        int warm = args.length > 2 ? Integer.parseInt(args[2]) : 30;
        Path ownMain = BuildPairs.ownClasses(DecisionPairs.class);
        long[][][] times = BuildPairs.alternate(BuildPairs.load(DecisionPairs.class, other), rounds, warm);
        System.out.printf(Locale.ROOT, "this build: %s; other build: %s; %d rounds after %d warm-up rounds (wall)%n",
                ownMain, other, rounds, warm);
        String[] names = {"this", "other"};
        for (int b = 0; b < 2; b++) {
            long[] d = new long[rounds];
            long[] v = new long[rounds];
            for (int r = 0; r < rounds; r++) {
                d[r] = times[b][r][0];
                v[r] = times[b][r][1];
            }
            Arrays.sort(d);
            Arrays.sort(v);
            int p90 = Math.min(rounds - 1, (int) Math.ceil(rounds * 0.9) - 1);
            System.out.printf(Locale.ROOT, "%-6s decision %7.1f / %7.1f ms   validation %7.1f / %7.1f ms   "
                    + "decision/validation %.2f%n", names[b], d[rounds / 2] / 1e6, d[p90] / 1e6, v[rounds / 2] / 1e6,
                    v[p90] / 1e6, (double) d[rounds / 2] / v[rounds / 2]);
        }
        double[] ratio = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            ratio[r] = (double) times[0][r][0] / times[1][r][0];
        }
        Arrays.sort(ratio);
        System.out.printf(Locale.ROOT, "decision this/other per round: median %.3f (p25 %.3f, p75 %.3f)%n",
                ratio[rounds / 2], ratio[rounds / 4], ratio[rounds * 3 / 4]);
        System.exit(0); // the compile helpers are daemons, but leave no doubt
    }
}
