package dev.muster.adapter.rest;

import dev.muster.adapter.choice.ChoiceRejectedException;
import dev.muster.adapter.choice.ChoiceSettings;
import dev.muster.adapter.choice.ClusterChooser;
import dev.muster.adapter.choice.ViewsNotSyncedException;
import dev.muster.adapter.kube.ChoiceDocument;
import dev.muster.adapter.metrics.PhaseTracer;
import dev.muster.adapter.rest.error.KubeStatus;
import dev.muster.adapter.rest.error.StatusException;
import dev.muster.core.choice.ClusterChoice;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code POST /v1/cluster-choices}: which of several clusters takes a workload, ranked, with each cluster's
 * decisions, creating nothing anywhere. Read and checked as a decision is ({@link RequestPipeline}), decided by the
 * shared {@link ClusterChooser}, encoded with the decisions' fixed field order.
 */
@Path("/v1/cluster-choices")
@Tag(name = "cluster-choices")
public class ChoiceResource {
    /** The request span's name. */
    static final String TRACE_NAME = "muster.cluster-choice";

    private final RequestPipeline pipeline;
    private final ClusterChooser chooser;
    private final RequestDispatcher dispatcher;
    private final PhaseTracer tracer;
    private final ChoiceSettings settings;

    ChoiceResource(RequestPipeline pipeline, ClusterChooser chooser, RequestDispatcher dispatcher, PhaseTracer tracer,
                   ChoiceSettings settings) {
        this.pipeline = pipeline;
        this.chooser = chooser;
        this.dispatcher = dispatcher;
        this.tracer = tracer;
        this.settings = settings;
    }

    @POST
    @Consumes({MediaType.APPLICATION_JSON, ApiDocs.YAML, ApiDocs.X_YAML, ApiDocs.TEXT_YAML})
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Choose the cluster that takes a workload",
            description = "Adds the workload to every cluster (a snapshot given inline, or a cluster the service "
                    + "watches, by name), decides its PodGroups and plain pods there exactly as POST /v1/decisions "
                    + "does, and ranks the clusters: Fits first, then FitsWithPreemption (fewer victims, then the lower "
                    + "highest victim priority), then DoesNotFit; ties by the higher placement score, then by name. "
                    + "Creates nothing anywhere.")
    @RequestBody(required = true, description = "The clusters (each a name and its snapshot, or the name of a watched "
            + "cluster), the workload (the objects to be submitted, in the snapshot's lists; a Job without its pods "
            + "stands for the pods its controller would create) and the options. JSON or YAML.", content = {
            @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ChoiceDocument.class),
                    examples = @ExampleObject(name = "two-clusters", summary = "A gang of four workers and two clusters",
                            externalValue = ApiDocs.CHOICE_EXAMPLE)),
            @Content(mediaType = ApiDocs.YAML, schema = @Schema(implementation = ChoiceDocument.class))})
    @APIResponse(responseCode = "200", description = "One choice per cluster, rank 1 first",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ChoiceResponse.class)))
    @APIResponse(responseCode = "400", description = "Not one well-formed JSON/YAML document, or a field of the wrong type",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = KubeStatus.class)))
    @APIResponse(responseCode = "413", description = "Body over the configured limit",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = KubeStatus.class)))
    @APIResponse(responseCode = "415", description = "Neither JSON nor YAML",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = KubeStatus.class)))
    @APIResponse(responseCode = "422", description = "Every cause with its path from the request root: clusters "
            + "missing, duplicate or unknown, a snapshot or workload object breaking API invariants, a workload object "
            + "a cluster already has",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = KubeStatus.class)))
    @APIResponse(responseCode = "503", description = "A watched cluster named has not synced yet",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = KubeStatus.class)))
    @LargeBodies.WholeBody
    @NonBlocking // small bodies are decided on the event loop, larger ones on a worker: see RequestDispatcher
    public Uni<byte[]> choose(InputStream body, @Context HttpHeaders headers) {
        MediaType type = headers.getMediaType();
        return dispatcher.runBody(body, headers.getLength(), request -> choose(request, type));
    }

    private byte[] choose(RequestBytes body, MediaType type) {
        try (PhaseTracer.Phase span = tracer.request(TRACE_NAME)) {
            try {
                ChoiceDocument doc = pipeline.readChoice(body, type, chooser::watches, settings.maxClusters());
                List<ClusterChoice> choices;
                try (PhaseTracer.Phase decide = tracer.phase(PhaseTracer.DECIDE)) {
                    choices = chooser.chooseTaking(doc, () -> false);
                } catch (ViewsNotSyncedException e) {
                    throw new StatusException(notSynced(e));
                } catch (ChoiceRejectedException e) {
                    throw new StatusException(RequestPipeline.invalid(e.causes()));
                }
                try (PhaseTracer.Phase encode = tracer.phase(PhaseTracer.ENCODE)) {
                    return ChoiceResponseWriter.write(choices);
                }
            } catch (RuntimeException e) {
                span.fail(e);
                throw e;
            }
        }
    }

    /** A 503 naming every watched cluster not synced yet, one cause each on the request's entry for it. */
    static KubeStatus notSynced(ViewsNotSyncedException e) {
        List<KubeStatus.StatusCause> causes = new ArrayList<>();
        for (Map.Entry<String, List<String>> w : new java.util.TreeMap<>(e.waiting()).entrySet()) {
            causes.add(new KubeStatus.StatusCause("ClusterNotSynced", "the view of \"" + w.getKey()
                    + "\" waits for " + String.join(", ", w.getValue()), "clusters"));
        }
        return KubeStatus.failure(503, "ServiceUnavailable", e.getMessage(), causes);
    }
}
