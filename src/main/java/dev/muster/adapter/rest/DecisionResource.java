package dev.muster.adapter.rest;

import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.muster.adapter.kube.RequestDocument;
import dev.muster.adapter.metrics.DecisionRecorder;
import dev.muster.adapter.metrics.PhaseTracer;
import dev.muster.adapter.rest.error.KubeStatus;
import dev.muster.adapter.compile.CompileAhead;
import dev.muster.core.decision.DecisionEngine;
import dev.muster.core.decision.DecisionRequest;
import dev.muster.core.decision.DecisionResult;
import io.smallrye.common.annotation.NonBlocking;
import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.ExampleObject;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import java.io.InputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * {@code POST /v1/decisions}: read and check the request, compile it, ask the engine, encode the
 * result. The body is read as bytes and parsed by the strict codec (never by the framework's ObjectMapper); the
 * answer is streamed by {@link DecisionResponseWriter} with a fixed field order, so the same request gives the same
 * bytes.
 */
@Path("/v1/decisions")
@Tag(name = "decisions")
public class DecisionResource {
    /**
     * Sorted map keys, fixed field order: the writer the response records are serialized with (the OpenAPI schema's
     * records; {@link DecisionResponseWriter} writes the same bytes without them).
     */
    static final ObjectWriter WRITER = JsonMapper.builder()
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .build()
            .writer();

    private final RequestPipeline pipeline;
    private final DecisionEngine engine;
    private final DecisionRecorder metrics;
    private final RequestDispatcher dispatcher;
    private final PhaseTracer tracer;
    /** The compile-ahead helpers, which also write a long answer while the engine decides ({@link StreamedAnswer}). */
    private final CompileAhead helpers;

    DecisionResource(RequestPipeline pipeline, DecisionEngine engine, DecisionRecorder metrics,
                     RequestDispatcher dispatcher, PhaseTracer tracer, CompileAhead helpers) {
        this.pipeline = pipeline;
        this.engine = engine;
        this.metrics = metrics;
        this.dispatcher = dispatcher;
        this.tracer = tracer;
        this.helpers = helpers;
    }

    @POST
    @Consumes({MediaType.APPLICATION_JSON, ApiDocs.YAML, ApiDocs.X_YAML, ApiDocs.TEXT_YAML})
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Decide where PodGroups go",
            description = "Decides each requested PodGroup (or every PodGroup with an unbound member) one after another "
                    + "in a deterministic order: placements, preemption victims and nominations, claim allocations and "
                    + "the PodGroupScheduled condition, in the kube-scheduler's words. Stateless: the same request "
                    + "always gives the same bytes.")
    @RequestBody(required = true, description = ApiDocs.REQUEST, content = {
            @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = RequestDocument.class),
                    examples = @ExampleObject(name = "training-job", summary = "A gang of four workers on three nodes",
                            externalValue = ApiDocs.EXAMPLE)),
            @Content(mediaType = ApiDocs.YAML, schema = @Schema(implementation = RequestDocument.class),
                    examples = @ExampleObject(name = "training-job", summary = "A gang of four workers on three nodes",
                            externalValue = ApiDocs.EXAMPLE_YAML))})
    @APIResponse(responseCode = "200", description = "The decisions",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = DecisionResponse.class)))
    @APIResponse(responseCode = "400", description = "Not one well-formed JSON/YAML document, or a field of the wrong type",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = KubeStatus.class)))
    @APIResponse(responseCode = "413", description = "Body over the configured limit",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = KubeStatus.class)))
    @APIResponse(responseCode = "415", description = "Neither JSON nor YAML",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = KubeStatus.class)))
    @APIResponse(responseCode = "422", description = "The objects break API invariants; every cause with its field path",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = KubeStatus.class)))
    @LargeBodies.WholeBody
    @NonBlocking // small bodies are decided on the event loop, larger ones on a worker: see RequestDispatcher
    public Uni<Buffer> decide(InputStream body, @Context HttpHeaders headers) {
        MediaType type = headers.getMediaType();
        return dispatcher.runBody(body, headers.getLength(), request -> decide(request, type));
    }

    private Buffer decide(RequestBytes body, MediaType type) {
        try (PhaseTracer.Phase span = tracer.request(TRACE_NAME)) {
            try {
                return decideTraced(body, type);
            } catch (RuntimeException e) {
                span.fail(e);
                throw e;
            }
        }
    }

    /** The request span's name; its children are the phases (decode, validate, compile, decide, encode). */
    static final String TRACE_NAME = "muster.decision";

    private Buffer decideTraced(RequestBytes body, MediaType type) {
        CompileAhead.Compiled compiled = pipeline.readCompiled(body, type); // has let the body's array go
        DecisionRequest request = compiled.request();
        long start = System.nanoTime();
        DecisionResult result;
        // A request decided off the event loop may have many decisions: a helper writes them while the engine decides.
        // On an event loop (a small body) the answer is short, and the loop would wait for the helper: written after.
        StreamedAnswer answer = io.vertx.core.Context.isOnEventLoopThread() ? null : new StreamedAnswer(helpers::tryRun);
        try (PhaseTracer.Phase decide = tracer.phase(PhaseTracer.DECIDE)) {
            result = engine.decide(compiled.snapshot(), request.podGroups(), request.pods(), request.options(),
                    () -> false, answer == null ? d -> { } : answer::accept);
        } catch (RuntimeException | Error e) {
            if (answer != null) {
                answer.cancel();
            }
            throw e;
        }
        metrics.record(result, System.nanoTime() - start);
        try (PhaseTracer.Phase encode = tracer.phase(PhaseTracer.ENCODE)) {
            return answer == null ? DecisionResponseWriter.buffer(result) : answer.finish(result);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

}
