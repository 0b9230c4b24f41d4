package dev.muster.adapter.rest;

import dev.muster.adapter.kube.ChoiceDocument;
import dev.muster.adapter.kube.DecodeException;
import dev.muster.adapter.kube.Arrival;
import dev.muster.adapter.kube.KubeCodec;
import dev.muster.adapter.kube.RequestDocument;
import dev.muster.adapter.kube.SnapshotProgress;
import dev.muster.adapter.metrics.PhaseTracer;
import dev.muster.adapter.rest.error.KubeStatus;
import dev.muster.adapter.rest.error.StatusException;
import dev.muster.adapter.validation.Cause;
import dev.muster.adapter.validation.Causes;
import dev.muster.adapter.compile.CompileAhead;
import dev.muster.adapter.validation.RequestValidator;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.MediaType;
import org.jboss.logging.Logger;

import java.util.ArrayList;
import java.util.List;

/**
 * bytes → strict decode (400) → validation (422, all causes) → core request and snapshot. Shared by both endpoints so
 * that {@code /v1/validations} is exactly the reading-and-checking cost of {@code /v1/decisions}.
 */
@ApplicationScoped
public class RequestPipeline {
    private static final Logger LOG = Logger.getLogger(RequestPipeline.class);

    private final KubeCodec codec;
    private final RequestValidator validator;
    private final PhaseTracer tracer;
    private final CompileAhead ahead;

    RequestPipeline(KubeCodec codec, RequestValidator validator, PhaseTracer tracer, CompileAhead ahead) {
        this.codec = codec;
        this.validator = validator;
        this.tracer = tracer;
        this.ahead = ahead;
    }

    /**
     * Decodes (JSON as it arrives) and validates; throws a {@link StatusException} (400 or 422) when the request is not
     * acceptable.
     */
    public RequestDocument read(RequestBytes body, MediaType type) {
        RequestDocument doc = decode(body.bytes(), body.arrival(), type, SnapshotProgress.NONE);
        validate(doc, decoded(doc, body), type);
        return doc;
    }

    /**
     * The body is decoded: unless validation reads it once more (a body without a snapshot, read again for what it
     * says it is), its array is let go now, so that a young collection during validation and compilation does not
     * copy it. Returns the array validation still needs, or null.
     */
    private static byte[] decoded(RequestDocument doc, RequestBytes body) {
        if (doc == null || doc.snapshot() == null) {
            return body.bytes();
        }
        body.release();
        return null;
    }

    /**
     * What a decision reads: decoded, validated, and compiled into the core model and its snapshot. A large request
     * is compiled by a helper while this thread validates it ({@link CompileAhead}), its cluster already while the
     * rest of the body is decoded; the answer to an invalid one is the same 422.
     */
    public CompileAhead.Compiled readCompiled(RequestBytes body, MediaType type) {
        CompileAhead.Early early = ahead.early(tracer::carry);
        RequestDocument doc;
        try {
            doc = decode(body.bytes(), body.arrival(), type, early);
        } catch (RuntimeException e) {
            early.cancel();
            throw e;
        }
        RequestDocument decoded = doc;
        byte[] pasted = decoded(doc, body);
        CompileAhead.Task task = ahead.compileWhileValidating(doc, early, tracer::carry,
                () -> validate(decoded, pasted, type));
        // the phase is what compiling adds after validation: the stages left, then waiting for the helper's
        try (PhaseTracer.Phase compile = tracer.phase(PhaseTracer.COMPILE)) {
            return task.join();
        } catch (RuntimeException e) {
            // validation should have caught it: still the client's input, so a 400, not a 500
            LOG.warn("a validated request could not be compiled (validation gap)", e);
            throw new StatusException(KubeStatus.failure(400, "BadRequest",
                    "request could not be compiled: " + e.getMessage(), null));
        }
    }

    /**
     * A {@code POST /v1/cluster-choices} body, decoded and validated (400 or 422 as for a decision).
     *
     * @param watched     whether the service watches a cluster of that name
     * @param maxClusters most clusters one request may name
     */
    public ChoiceDocument readChoice(RequestBytes body, MediaType type,
                                     java.util.function.Predicate<String> watched, int maxClusters) {
        ChoiceDocument doc;
        try (PhaseTracer.Phase decode = tracer.phase(PhaseTracer.DECODE)) {
            doc = decodeChoice(body.bytes(), body.arrival(), type);
        } catch (DecodeException e) {
            throw badRequest(e);
        }
        body.release(); // decoded: a large body's array need not outlive the choice
        Causes causes;
        try (PhaseTracer.Phase validate = tracer.phase(PhaseTracer.VALIDATE)) {
            causes = validator.validateChoice(doc, watched, maxClusters);
        }
        if (!causes.isEmpty()) {
            throw new StatusException(invalid(causes));
        }
        return doc;
    }

    private static StatusException badRequest(DecodeException e) {
        List<KubeStatus.StatusCause> causes = e.field() == null ? null
                : List.of(new KubeStatus.StatusCause("FieldValueTypeInvalid", e.getMessage(), e.field()));
        return new StatusException(KubeStatus.failure(400, "BadRequest", e.getMessage(), causes));
    }

    private ChoiceDocument decodeChoice(byte[] body, Arrival arrival, MediaType type) throws DecodeException {
        arrival.await(body.length);
        return isYaml(type) ? codec.readYaml(body, ChoiceDocument.class) : codec.readChoiceJson(body);
    }

    private RequestDocument decode(byte[] body, Arrival arrival, MediaType type, SnapshotProgress progress) {
        try (PhaseTracer.Phase decode = tracer.phase(PhaseTracer.DECODE)) {
            if (isYaml(type)) {
                arrival.await(body.length);
                return codec.readYaml(body);
            }
            return codec.readJson(body, arrival, progress);
        } catch (DecodeException e) {
            throw badRequest(e);
        }
    }

    /**
     * A body without a snapshot is read once more for what it says it is (a kubectl List pasted as it is); {@code body}
     * is null when the document has a snapshot.
     */
    private void validate(RequestDocument doc, byte[] body, MediaType type) {
        Causes causes;
        try (PhaseTracer.Phase validate = tracer.phase(PhaseTracer.VALIDATE)) {
            causes = validator.validate(doc, doc == null || doc.snapshot() == null
                    ? codec.pasted(body, isYaml(type)) : null);
        }
        if (!causes.isEmpty()) {
            throw new StatusException(invalid(causes));
        }
    }

    static boolean isYaml(MediaType type) {
        return type != null && type.getSubtype() != null && type.getSubtype().toLowerCase().contains("yaml");
    }

    /** A 422 Invalid with every cause, its message like the API server's {@code <Kind> "<name>" is invalid: [...]}. */
    static KubeStatus invalid(Causes causes) {
        List<Cause> list = causes.list();
        StringBuilder msg = new StringBuilder("request is invalid: ");
        if (list.size() == 1 && causes.total() == 1) {
            msg.append(list.get(0).summary());
        } else {
            msg.append('[');
            for (int i = 0; i < list.size(); i++) {
                if (i > 0) {
                    msg.append(", ");
                }
                msg.append(list.get(i).summary());
            }
            if (causes.total() > list.size()) {
                msg.append(", and ").append(causes.total() - list.size()).append(" more");
            }
            msg.append(']');
        }
        List<KubeStatus.StatusCause> out = new ArrayList<>(list.size());
        for (Cause c : list) {
            out.add(new KubeStatus.StatusCause(c.reason(), c.message(), c.field()));
        }
        return KubeStatus.failure(422, "Invalid", msg.toString(), out);
    }
}
