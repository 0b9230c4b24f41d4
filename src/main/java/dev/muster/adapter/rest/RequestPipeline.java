package dev.muster.adapter.rest;

import dev.muster.adapter.kube.DecodeException;
import dev.muster.adapter.kube.Arrival;
import dev.muster.adapter.kube.KubeCodec;
import dev.muster.adapter.cel.CelSelectors;
import dev.muster.adapter.kube.KubeMapper;
import dev.muster.adapter.kube.RequestDocument;
import dev.muster.adapter.metrics.PhaseTracer;
import dev.muster.adapter.rest.error.KubeStatus;
import dev.muster.adapter.rest.error.StatusException;
import dev.muster.adapter.validation.Cause;
import dev.muster.adapter.validation.Causes;
import dev.muster.adapter.validation.RequestValidator;
import dev.muster.core.decision.DecisionRequest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.MediaType;
import org.jboss.logging.Logger;

import java.util.ArrayList;
import java.util.List;

/**
 * bytes → strict decode (400) → validation (422, all causes) → core {@link DecisionRequest}. Shared by both endpoints
 * so that {@code /v1/validations} is exactly the reading-and-checking cost of {@code /v1/decisions}.
 */
@ApplicationScoped
public class RequestPipeline {
    private static final Logger LOG = Logger.getLogger(RequestPipeline.class);

    private final KubeCodec codec;
    private final RequestValidator validator;
    private final PhaseTracer tracer;

    RequestPipeline(KubeCodec codec, RequestValidator validator, PhaseTracer tracer) {
        this.codec = codec;
        this.validator = validator;
        this.tracer = tracer;
    }

    /** Decodes and validates; throws a {@link StatusException} (400 or 422) when the request is not acceptable. */
    public RequestDocument read(byte[] body, MediaType type) {
        return read(body, Arrival.WHOLE, type);
    }

    /** As {@link #read(byte[], MediaType)} on a body still arriving: JSON is decoded as it arrives. */
    public RequestDocument read(byte[] body, Arrival arrival, MediaType type) {
        RequestDocument doc;
        try (PhaseTracer.Phase decode = tracer.phase(PhaseTracer.DECODE)) {
            if (isYaml(type)) {
                arrival.await(body.length);
                doc = codec.readYaml(body);
            } else {
                doc = codec.readJson(body, arrival);
            }
        } catch (DecodeException e) {
            List<KubeStatus.StatusCause> causes = e.field() == null ? null
                    : List.of(new KubeStatus.StatusCause("FieldValueTypeInvalid", e.getMessage(), e.field()));
            throw new StatusException(KubeStatus.failure(400, "BadRequest", e.getMessage(), causes));
        }
        Causes causes;
        try (PhaseTracer.Phase validate = tracer.phase(PhaseTracer.VALIDATE)) {
            causes = validator.validate(doc);
        }
        if (!causes.isEmpty()) {
            throw new StatusException(invalid(causes));
        }
        return doc;
    }

    /** Compiles a validated document into the core request. */
    public DecisionRequest compile(RequestDocument doc) {
        try (PhaseTracer.Phase compile = tracer.phase(PhaseTracer.COMPILE)) {
            return KubeMapper.toDecisionRequest(doc, CelSelectors.shared()::compile);
        } catch (RuntimeException e) {
            // validation should have caught it: still the client's input, so a 400, not a 500
            LOG.warn("a validated request could not be compiled (validation gap)", e);
            throw new StatusException(KubeStatus.failure(400, "BadRequest",
                    "request could not be compiled: " + e.getMessage(), null));
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
