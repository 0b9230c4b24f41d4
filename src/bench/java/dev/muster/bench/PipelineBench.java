package dev.muster.bench;

import dev.muster.adapter.kube.RequestDocument;
import dev.muster.adapter.validation.Causes;
import dev.muster.core.decision.DecisionRequest;
import dev.muster.core.decision.DecisionResult;
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
 * Each stage of the request path on the same bytes, so their ratios are comparable:
 * {@code tokenize} (the floor: Jackson tokens only), {@code decode} (strict KubeCodec into the lean records),
 * {@code validate} (RequestValidator on the decoded document), {@code decodeValidate} (= /v1/validations minus HTTP),
 * {@code compile} (KubeMapper into the core model), {@code decide} (engine, incl. its ClusterSnapshot build),
 * {@code encode} (DecisionResponseWriter) and {@code full} (= /v1/decisions minus HTTP).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms3g", "-Xmx3g"})
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class PipelineBench {
    @Param({"large"})
    public String shape;

    private Fixture fixture;
    private byte[] body;
    private RequestDocument doc;
    private DecisionRequest request;
    private DecisionResult result;

    @Setup(Level.Trial)
    public void setUp() {
        fixture = new Fixture();
        body = RequestGenerator.generate(shape);
        doc = fixture.read(body);
        request = Fixture.compile(doc);
        result = fixture.decide(request);
    }

    @Benchmark
    public long tokenize() {
        return Fixture.tokenize(body);
    }

    @Benchmark
    public RequestDocument decode() {
        return fixture.decode(body);
    }

    @Benchmark
    public Causes validate() {
        return fixture.validate(doc);
    }

    @Benchmark
    public RequestDocument decodeValidate() {
        return fixture.read(body);
    }

    @Benchmark
    public DecisionRequest compile() {
        return Fixture.compile(doc);
    }

    @Benchmark
    public DecisionResult decide() {
        return fixture.decide(request);
    }

    @Benchmark
    public byte[] encode() {
        return Fixture.encode(result);
    }

    @Benchmark
    public byte[] full() {
        return fixture.full(body);
    }
}
