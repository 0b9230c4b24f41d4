package dev.muster.bench;

import dev.muster.core.decision.DecisionEngine;
import dev.muster.core.decision.DecisionRequest;
import dev.muster.core.decision.DecisionResult;
import dev.muster.core.snapshot.ClusterSnapshot;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * The engine on the DRA scenario ({@link DraRequestGenerator}: 5,000 nodes × 8 GPUs, 20,000 bound pods, a 1,000-pod
 * rack-constrained gang with one template claim per pod). Same pattern as {@link EngineBench}; setup fails unless
 * all 1,000 pods are placed.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms3g", "-Xmx3g"})
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class DraBench {
    private Fixture fixture;
    private DecisionRequest request;
    private ClusterSnapshot compiled;

    @Setup(Level.Trial)
    public void setUp() {
        fixture = new Fixture();
        request = Fixture.compile(fixture.read(DraRequestGenerator.generate()));
        DraPath.check(fixture.decide(request), DraRequestGenerator.GANG);
        compiled = DecisionEngine.compile(request);
    }

    /** The engine with the ClusterSnapshot build. */
    @Benchmark
    public DecisionResult decide() {
        return fixture.decide(request);
    }

    /** The engine on a compiled snapshot, then the rollback (timed too), as EngineBench.decideCompiled. */
    @Benchmark
    public DecisionResult decideCompiled() {
        DecisionResult r = fixture.engine.decide(compiled, request.podGroups(), request.options(), () -> false);
        return r;
    }
}
