package dev.muster.adapter.rest;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.muster.adapter.kube.RequestDocument;
import dev.muster.adapter.rest.error.KubeStatus;
import io.smallrye.common.annotation.NonBlocking;
import io.smallrye.mutiny.Uni;
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
import java.nio.charset.StandardCharsets;

/**
 * {@code POST /v1/validations}: the same reading and checking as {@code /v1/decisions}, without
 * deciding. The reference cost of a request.
 */
@Path("/v1/validations")
@Tag(name = "validations")
public class ValidationResource {
    private static final byte[] VALID = "{\"valid\":true}".getBytes(StandardCharsets.UTF_8);

    private final RequestPipeline pipeline;
    private final RequestDispatcher dispatcher;

    ValidationResource(RequestPipeline pipeline, RequestDispatcher dispatcher) {
        this.pipeline = pipeline;
        this.dispatcher = dispatcher;
    }

    @JsonPropertyOrder({"valid"})
    @Schema(name = "ValidationResult")
    public record Valid(boolean valid) {
    }

    @POST
    @Consumes({MediaType.APPLICATION_JSON, ApiDocs.YAML, ApiDocs.X_YAML, ApiDocs.TEXT_YAML})
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Check a request without deciding",
            description = "Decodes and validates the request exactly as POST /v1/decisions does and answers "
                    + "{\"valid\": true}, or the same 400/422 Status with every cause.")
    @RequestBody(required = true, description = ApiDocs.REQUEST, content = {
            @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = RequestDocument.class),
                    examples = @ExampleObject(name = "training-job", summary = "A gang of four workers on three nodes",
                            externalValue = ApiDocs.EXAMPLE)),
            @Content(mediaType = ApiDocs.YAML, schema = @Schema(implementation = RequestDocument.class),
                    examples = @ExampleObject(name = "training-job", summary = "A gang of four workers on three nodes",
                            externalValue = ApiDocs.EXAMPLE_YAML))})
    @APIResponse(responseCode = "200", description = "The request is valid",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = Valid.class)))
    @APIResponse(responseCode = "400", description = "Not one well-formed JSON/YAML document, or a field of the wrong type",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = KubeStatus.class)))
    @APIResponse(responseCode = "413", description = "Body over the configured limit",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = KubeStatus.class)))
    @APIResponse(responseCode = "415", description = "Neither JSON nor YAML",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = KubeStatus.class)))
    @APIResponse(responseCode = "422", description = "The objects break API invariants; every cause with its field path",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = KubeStatus.class)))
    @LargeBodies.WholeBody
    @NonBlocking // small bodies are checked on the event loop, larger ones on a worker: see RequestDispatcher
    public Uni<byte[]> validate(InputStream body, @Context HttpHeaders headers) {
        MediaType type = headers.getMediaType();
        return dispatcher.runBody(body, headers.getLength(), request -> {
            pipeline.read(request, type);
            return VALID;
        });
    }
}
