package dev.muster.bench;

import dev.muster.adapter.cel.CelSelectors;
import dev.muster.adapter.kube.KubeMapper;
import dev.muster.adapter.kube.RequestDocument;
import dev.muster.core.decision.DecisionRequest;
import dev.muster.core.decision.DecisionResult;
import dev.muster.core.dra.ClaimCatalog;
import dev.muster.core.dra.DraObjects;
import dev.muster.core.model.ClusterState;
import dev.muster.core.snapshot.ClusterSnapshot;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * Two builds side by side in one JVM ({@link BuildPairs}), on the DRA scenario ({@link DraRequestGenerator}), one
 * round each in turn: {@code StagePairs <other build's classes dir> [rounds] [warm]}. Each build gets its own class
 * loader, so both run on the same host at the same moments: the host's slow spells, which on a shared machine swing
 * separate runs by 1.5×, hit both alike. Per round and build, the thread CPU of each stage of a decision after validation: the DRA objects,
 * their catalog (built and warmed), the cluster, the request and snapshot (compiled as the service's early helper
 * compiles it, then completed with the catalog), the engine, the encoding. Prints each
 * stage's median and p90 per build and the median (with quartiles) of the per-round ratio this build / other build.
 * {@code -Dmuster.bench.shape=SHAPE} takes another shape instead ({@link Probe}'s names: a family shape such as
 * {@code plain-pods}, or a {@link RequestGenerator} shape).
 * The stages call the compile API of this build; the other build must have the same entry points.
 */
public final class StagePairs implements Supplier<long[]> {
    static final String[] STAGES = {"dra objects", "catalog", "cluster", "snapshot", "engine", "encode"};
    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

    private final Fixture fixture = new Fixture();
    /** The scenario: {@code dra}, or the shape named by {@code -Dmuster.bench.shape} (a family shape such as {@code plain-pods}). */
    private final byte[] body = System.getProperty("muster.bench.shape") == null ? DraRequestGenerator.generate()
            : Probe.generate(System.getProperty("muster.bench.shape"));

    /** One decision of the scenario, stage by stage: thread CPU nanoseconds per stage. */
    @Override
    public long[] get() {
        RequestDocument doc = fixture.read(body);
        long[] t = new long[STAGES.length + 1];
        t[0] = CPU.getCurrentThreadCpuTime();
        DraObjects dra = KubeMapper.draObjects(doc.snapshot(), CelSelectors.shared()::compile);
        t[1] = CPU.getCurrentThreadCpuTime();
        ClaimCatalog catalog = new ClaimCatalog(dra).warm();
        t[2] = CPU.getCurrentThreadCpuTime();
        ClusterState cluster = KubeMapper.toClusterState(doc.snapshot());
        t[3] = CPU.getCurrentThreadCpuTime();
        DecisionRequest request = KubeMapper.toDecisionRequest(doc, cluster, dra);
        ClusterSnapshot early = ClusterSnapshot.withoutDra(request.cluster()); // as the service's early helper does
        ClusterSnapshot snapshot = early != null ? early.withDra(request.dra(), () -> catalog)
                : new ClusterSnapshot(request.cluster(), request.dra(), () -> catalog);
        t[4] = CPU.getCurrentThreadCpuTime();
        DecisionResult result = fixture.engine.decide(snapshot, request.podGroups(), request.options(), () -> false);
        t[5] = CPU.getCurrentThreadCpuTime();
        Fixture.encode(result);
        t[6] = CPU.getCurrentThreadCpuTime();
        long[] stages = new long[STAGES.length];
        for (int i = 0; i < stages.length; i++) {
            stages[i] = t[i + 1] - t[i];
        }
        return stages;
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            throw new IllegalArgumentException("usage: StagePairs <other build's target/classes> [rounds] [warm]");
        }
        Path other = Path.of(args[0]).toAbsolutePath();
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 40;
        int warm = args.length > 2 ? Integer.parseInt(args[2]) : 30;
        Path ownMain = BuildPairs.ownClasses(StagePairs.class);
        long[][][] times = BuildPairs.alternate(BuildPairs.load(StagePairs.class, other), rounds, warm);
        System.out.printf(Locale.ROOT, "this build: %s; other build: %s; %d rounds after %d warm-up rounds%n",
                ownMain, other, rounds, warm);
        System.out.printf(Locale.ROOT, "%-12s %22s %22s %30s%n", "stage (CPU)", "this: median / p90",
                "other: median / p90", "this/other per round: median (p25-p75)");
        for (int s = 0; s < STAGES.length; s++) {
            double[] ratio = new double[rounds];
            String[] cells = new String[2];
            for (int b = 0; b < 2; b++) {
                long[] v = new long[rounds];
                for (int r = 0; r < rounds; r++) {
                    v[r] = times[b][r][s];
                }
                Arrays.sort(v);
                cells[b] = String.format(Locale.ROOT, "%8.2f / %8.2f ms", v[rounds / 2] / 1e6,
                        v[Math.min(rounds - 1, (int) Math.ceil(rounds * 0.9) - 1)] / 1e6);
            }
            for (int r = 0; r < rounds; r++) {
                ratio[r] = (double) times[0][r][s] / Math.max(1, times[1][r][s]);
            }
            Arrays.sort(ratio);
            System.out.printf(Locale.ROOT, "%-12s %22s %22s %14.3f (%.3f-%.3f)%n", STAGES[s], cells[0], cells[1],
                    ratio[rounds / 2], ratio[rounds / 4], ratio[rounds * 3 / 4]);
        }
    }
}
