package dev.muster.bench;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import dev.muster.adapter.cel.CelSelectors;
import dev.muster.adapter.kube.DecodeException;
import dev.muster.adapter.kube.KubeCodec;
import dev.muster.adapter.kube.KubeMapper;
import dev.muster.adapter.compile.CompileAhead;
import dev.muster.adapter.kube.RequestDocument;
import dev.muster.adapter.rest.DecisionResponseWriter;
import dev.muster.adapter.validation.Causes;
import dev.muster.adapter.validation.RequestValidator;
import dev.muster.adapter.validation.ValidationLimits;
import dev.muster.core.decision.DecisionEngine;
import dev.muster.core.decision.DecisionRequest;
import dev.muster.core.decision.DecisionResult;
import dev.muster.core.decision.EngineConfig;
import dev.muster.core.dra.ClaimCatalog;
import dev.muster.core.model.Node;
import dev.muster.core.snapshot.ClusterSnapshot;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The request path's stages as the REST resources run them, built the same way (defaults of
 * {@code muster.limits.*} and {@code muster.engine.*}), outside Quarkus so each stage can be timed alone.
 */
public final class Fixture {
    /** Same parser limits as the codec, so the floor reads the bytes with the same constraints. */
    static final JsonFactory TOKENS = JsonFactory.builder().streamReadConstraints(StreamReadConstraints.builder()
            .maxNestingDepth(KubeCodec.Limits.DEFAULT.maxNestingDepth())
            .maxStringLength(KubeCodec.Limits.DEFAULT.maxStringLength())
            .maxNumberLength(KubeCodec.Limits.DEFAULT.maxNumberLength())
            .maxDocumentLength(KubeCodec.Limits.DEFAULT.maxDocumentLength()).build()).build();

    final KubeCodec codec = new KubeCodec(KubeCodec.Limits.DEFAULT);
    final RequestValidator validator = new RequestValidator(ValidationLimits.DEFAULT);
    final DecisionEngine engine;

    Fixture(EngineConfig config) {
        this.engine = new DecisionEngine(config);
    }

    Fixture() {
        this(EngineConfig.DEFAULT);
    }

    /** The floor: every token of the document, string values skipped, nothing bound. */
    public static long tokenizeCount(byte[] body) {
        return tokenize(body);
    }

    static long tokenize(byte[] body) {
        try (JsonParser p = TOKENS.createParser(body)) {
            long n = 0;
            for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                n++;
            }
            return n;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    RequestDocument decode(byte[] body) {
        try {
            return codec.readJson(body);
        } catch (DecodeException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    Causes validate(RequestDocument doc) {
        return validator.validate(doc);
    }

    /** decode + validate: what /v1/validations does with the bytes. */
    RequestDocument read(byte[] body) {
        RequestDocument doc = decode(body);
        Causes c = validate(doc);
        if (!c.isEmpty()) {
            throw new IllegalStateException("generated request is invalid: " + c.total() + " causes, first "
                    + c.list().get(0).summary());
        }
        return doc;
    }

    /** As RequestPipeline: DRA selectors compiled through the shared CEL cache. */
    static DecisionRequest compile(RequestDocument doc) {
        return KubeMapper.toDecisionRequest(doc, CelSelectors.shared()::compile);
    }

    /**
     * The request's snapshot compiled as the service compiles it: the cluster first, then the DRA objects with their
     * catalog warmed for the snapshot's nodes (the service's compile helper and request thread share that warming).
     * The engine finds a node's pools by its position in such a snapshot; on one from
     * {@link DecisionEngine#compile} it looks them up by name.
     */
    static ClusterSnapshot compiledAsServed(DecisionRequest req) {
        ClusterSnapshot early = ClusterSnapshot.withoutDra(req.cluster());
        List<Node> nodes = new ArrayList<>(early.nodeCount());
        for (int i = 0; i < early.nodeCount(); i++) {
            nodes.add(early.nodeObject(i));
        }
        ClaimCatalog catalog = new ClaimCatalog(req.dra()).warmShare(nodes);
        return early.withDra(req.dra(), () -> catalog);
    }

    DecisionResult decide(DecisionRequest request) {
        return engine.decide(request);
    }

    static byte[] encode(DecisionResult result) {
        return DecisionResponseWriter.write(result);
    }

    /**
     * What /v1/decisions does with the bytes, minus HTTP, as the service runs it: compiled by {@code ahead}'s helper
     * while this thread validates ({@link CompileAhead}).
     */
    byte[] full(byte[] body, CompileAhead ahead) {
        return full(body, ahead, () -> false);
    }

    /** {@link #full(byte[], CompileAhead)} stopped by {@code stop} (a deadline) as the engine polls it. */
    byte[] full(byte[] body, CompileAhead ahead, java.util.function.BooleanSupplier stop) {
        RequestDocument doc = decode(body);
        CompileAhead.Task task = ahead.start(doc, CompileAhead.compile(doc));
        Causes c = validate(doc);
        if (!c.isEmpty()) {
            task.cancel();
            throw new IllegalStateException("generated request is invalid: " + c.list().get(0).summary());
        }
        CompileAhead.Compiled compiled = task.join();
        DecisionRequest r = compiled.request();
        return encode(engine.decide(compiled.snapshot(), r.podGroups(), r.options(), stop));
    }

    /** What /v1/decisions does with the bytes, minus HTTP. */
    byte[] full(byte[] body) {
        return encode(decide(compile(read(body))));
    }
}
