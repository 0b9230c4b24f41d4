package dev.muster.adapter.rest;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.muster.adapter.kube.DecodeException;
import dev.muster.adapter.kube.JobGangs;
import dev.muster.adapter.kube.Kube;
import dev.muster.adapter.kube.KubeCodec;
import dev.muster.adapter.rest.error.KubeStatus;
import dev.muster.adapter.rest.error.StatusException;
import dev.muster.adapter.validation.Causes;
import dev.muster.adapter.validation.RequestValidator;
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
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code POST /v1/derivations}: for each batch/v1 Job, whether the Job controller (gate {@code WorkloadWithJob})
 * would make a gang for it, and the Workload and PodGroup it would create: names, owner references, template
 * reference and policy. {@code /v1/decisions} decides the pending pods of such a Job as that PodGroup when neither
 * object exists yet.
 */
@Path("/v1/derivations")
@Tag(name = "derivations")
public class DerivationResource {
    private static final String API_VERSION = "scheduling.k8s.io/v1alpha2";

    private final KubeCodec codec;
    private final RequestValidator validator;
    private final RequestDispatcher dispatcher;

    DerivationResource(KubeCodec codec, RequestValidator validator, RequestDispatcher dispatcher) {
        this.codec = codec;
        this.validator = validator;
        this.dispatcher = dispatcher;
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    @Schema(name = "DerivationRequest", description = "batch/v1 Jobs, as `kubectl get -o json` prints them")
    public record DerivationRequest(
            @com.fasterxml.jackson.databind.annotation.JsonDeserialize(
                    using = dev.muster.adapter.kube.KubeListDeserializer.class) List<Kube.Job> jobs) {
    }

    @JsonPropertyOrder({"derivations"})
    @Schema(name = "DerivationResponse")
    public record DerivationResponse(List<Derivation> derivations) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonPropertyOrder({"job", "qualifies", "reason", "workload", "podGroup"})
    @Schema(name = "Derivation", description = "One Job: whether the controller makes a gang for it, why, and the "
            + "Workload and PodGroup it would create (absent when it creates none)")
    public record Derivation(DecisionResponse.Ref job, boolean qualifies, String reason, ObjectOut workload,
                             ObjectOut podGroup) {
    }

    @JsonPropertyOrder({"apiVersion", "kind", "metadata", "spec"})
    @Schema(name = "DerivedObject", description = "A scheduling.k8s.io/v1alpha2 Workload or PodGroup as the Job "
            + "controller would create it")
    public record ObjectOut(String apiVersion, String kind, Meta metadata, Object spec) {
    }

    @JsonPropertyOrder({"name", "namespace", "ownerReferences"})
    @Schema(name = "DerivedObjectMeta")
    public record Meta(String name, String namespace, List<Kube.OwnerReference> ownerReferences) {
    }

    @JsonPropertyOrder({"controllerRef", "podGroupTemplates"})
    public record WorkloadSpecOut(ControllerRef controllerRef, List<TemplateOut> podGroupTemplates) {
    }

    @JsonPropertyOrder({"apiGroup", "kind", "name"})
    public record ControllerRef(String apiGroup, String kind, String name) {
    }

    @JsonPropertyOrder({"name", "schedulingPolicy"})
    public record TemplateOut(String name, PolicyOut schedulingPolicy) {
    }

    public record PolicyOut(Gang gang) {
    }

    public record Gang(int minCount) {
    }

    @JsonPropertyOrder({"podGroupTemplateRef", "schedulingPolicy"})
    public record PodGroupSpecOut(TemplateRef podGroupTemplateRef, PolicyOut schedulingPolicy) {
    }

    public record TemplateRef(WorkloadTemplate workload) {
    }

    @JsonPropertyOrder({"workloadName", "podGroupTemplateName"})
    public record WorkloadTemplate(String workloadName, String podGroupTemplateName) {
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "What the Job controller would create for gang scheduling",
            description = "For each Job: whether it qualifies (parallelism > 1, completionMode Indexed, completions "
                    + "== parallelism, no schedulingGroup in its pod template), why, and the Workload and PodGroup "
                    + "the controller would create for it.")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = DerivationRequest.class)))
    @APIResponse(responseCode = "200", description = "One derivation per Job, in request order",
            content = @Content(mediaType = MediaType.APPLICATION_JSON,
                    schema = @Schema(implementation = DerivationResponse.class)))
    @APIResponse(responseCode = "400", description = "Not one well-formed JSON document, or a field of the wrong type",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = KubeStatus.class)))
    @APIResponse(responseCode = "422", description = "The Jobs break API invariants; every cause with its field path",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = KubeStatus.class)))
    @NonBlocking
    public Uni<byte[]> derive(InputStream body, @Context HttpHeaders headers) {
        return dispatcher.run(body, headers.getLength(), (java.util.function.Function<byte[], byte[]>) this::derive);
    }

    private byte[] derive(byte[] body) {
        DerivationRequest req;
        try {
            req = codec.readJson(body, DerivationRequest.class);
        } catch (DecodeException e) {
            throw new StatusException(KubeStatus.failure(400, "BadRequest", e.getMessage(), null));
        }
        Causes causes = validator.validateJobs(req == null ? null : req.jobs());
        if (!causes.isEmpty()) {
            throw new StatusException(RequestPipeline.invalid(causes));
        }
        try {
            return DecisionResource.WRITER.writeValueAsBytes(derive(req.jobs()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The derivations of validated Jobs, in order. */
    static DerivationResponse derive(List<Kube.Job> jobs) {
        List<Derivation> out = new ArrayList<>(jobs.size());
        for (Kube.Job j : jobs) {
            Kube.ObjectMeta m = j.metadata();
            String ns = m.namespaceOrDefault();
            DecisionResponse.Ref ref = new DecisionResponse.Ref(ns, m.name());
            JobGangs.Verdict v = JobGangs.verdict(j);
            if (!v.qualifies()) {
                out.add(new Derivation(ref, false, v.reason(), null, null));
                continue;
            }
            Kube.OwnerReference job = new Kube.OwnerReference("batch/v1", "Job", m.name(), m.uid(), true, true);
            PolicyOut policy = new PolicyOut(new Gang(v.minCount()));
            ObjectOut workload = new ObjectOut(API_VERSION, "Workload", new Meta(v.workloadName(), ns, List.of(job)),
                    new WorkloadSpecOut(new ControllerRef("batch", "Job", m.name()),
                            List.of(new TemplateOut(v.templateName(), policy))));
            ObjectOut podGroup = new ObjectOut(API_VERSION, "PodGroup", new Meta(v.podGroupName(), ns,
                    List.of(job, new Kube.OwnerReference(API_VERSION, "Workload", v.workloadName(), null, null, null))),
                    new PodGroupSpecOut(new TemplateRef(new WorkloadTemplate(v.workloadName(), v.templateName())),
                            policy));
            out.add(new Derivation(ref, true, v.reason(), workload, podGroup));
        }
        return new DerivationResponse(out);
    }
}
