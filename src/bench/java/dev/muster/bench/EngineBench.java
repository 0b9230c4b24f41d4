package dev.muster.bench;

import dev.muster.core.decision.Decision;
import dev.muster.core.decision.DecisionEngine;
import dev.muster.core.decision.DecisionRequest;
import dev.muster.core.decision.DecisionResult;
import dev.muster.core.decision.Outcome;
import dev.muster.core.snapshot.ClusterSnapshot;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * The engine alone: {@code DecisionEngine.decide} on a prebuilt {@code DecisionRequest} (decoding, validation and
 * compiling into the core model are done in setup; the engine still builds its ClusterSnapshot inside decide, which
 * is part of what it costs). Pods/s = {@link RequestGenerator.Shape#pendingPods} / time; bench/jmh.sh prints it.
 * Setup fails if any group is not Scheduled, so a benchmark never times a preemption search by accident.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms3g", "-Xmx3g"})
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class EngineBench {
    @Param({"large", "hetero", "gang-1000x3", "gang-10x5000", "tas-750x4", "small"})
    public String shape;

    private Fixture fixture;
    private DecisionRequest request;
    private ClusterSnapshot compiled;

    @Setup(Level.Trial)
    public void setUp() {
        fixture = new Fixture();
        request = Fixture.compile(fixture.read(RequestGenerator.generate(shape)));
        DecisionResult first = fixture.decide(request);
        int placed = 0;
        for (Decision d : first.decisions()) {
            if (d.outcome() != Outcome.Scheduled) {
                throw new IllegalStateException(shape + ": " + d.podGroup() + " " + d.outcome() + ": " + d.message());
            }
            placed += d.placements().size();
        }
        if (placed != RequestGenerator.Shape.of(shape).pendingPods) {
            throw new IllegalStateException(shape + ": placed " + placed + " pods");
        }
        compiled = DecisionEngine.compile(request);
    }

    @Benchmark
    public DecisionResult decide() {
        return fixture.decide(request);
    }

    /**
     * The engine alone on an already compiled snapshot (target 3 of bench/README.md): the decision, then the
     * rollback of everything it assumed (also timed, so the figure is conservative) so the next invocation starts
     * from the same snapshot. Per-snapshot indexes that plugins build on first use stay built across invocations,
     * as they would for one compiled snapshot.
     */
    @Benchmark
    public DecisionResult decideCompiled() {
        DecisionResult r = fixture.engine.decide(compiled, request.podGroups(), request.options(), () -> false);
        return r;
    }

    /**
     * The part of {@code decide} that compiles the request's ClusterState into the engine's ClusterSnapshot (node
     * table, pod vectors, group members). decide − snapshot estimates the engine on an already compiled snapshot.
     */
    @Benchmark
    public ClusterSnapshot snapshot() {
        return new ClusterSnapshot(request.cluster());
    }
}
