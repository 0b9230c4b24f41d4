package dev.muster.adapter.grpc;

import dev.muster.adapter.choice.ChoiceRejectedException;
import dev.muster.adapter.choice.ChoiceSettings;
import dev.muster.adapter.choice.ClusterChooser;
import dev.muster.adapter.choice.ViewsNotSyncedException;
import dev.muster.adapter.kube.ChoiceDocument;
import dev.muster.adapter.kube.Kube;
import dev.muster.adapter.kube.KubeMapper;
import dev.muster.core.model.QuantityFormatException;
import dev.muster.adapter.kube.RequestDocument;
import dev.muster.adapter.metrics.DecisionRecorder;
import dev.muster.adapter.validation.Causes;
import dev.muster.adapter.compile.CompileAhead;
import dev.muster.adapter.validation.RequestValidator;
import dev.muster.core.choice.ClusterChoice;
import dev.muster.core.decision.DecisionAbortedException;
import dev.muster.core.decision.DecisionEngine;
import dev.muster.core.decision.DecisionRequest;
import dev.muster.core.decision.DecisionResult;
import dev.muster.grpc.v1.ChooseClusterRequest;
import dev.muster.grpc.v1.ChooseClusterResponse;
import dev.muster.grpc.v1.DecideRequest;
import dev.muster.grpc.v1.DecideResponse;
import dev.muster.grpc.v1.DecisionServiceGrpc;
import dev.muster.grpc.v1.DeriveRequest;
import dev.muster.grpc.v1.DeriveResponse;
import dev.muster.grpc.v1.ValidateResponse;
import io.grpc.Context;
import io.grpc.Deadline;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.quarkus.grpc.GrpcService;
import io.quarkus.grpc.RegisterInterceptor;
import io.smallrye.common.annotation.Blocking;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import java.util.List;

/**
 * {@code muster.v1.DecisionService}: the same decisions as REST, over gRPC on the HTTP port.
 * Thin: generated request → {@link GrpcRequestMapper} → the shared {@link RequestValidator} → {@link KubeMapper} →
 * {@link DecisionEngine} → {@link GrpcResponseMapper}. The engine does not know which transport asked. {@code Derive}
 * answers as REST {@code POST /v1/derivations} ({@link GrpcDerivations}), {@code ChooseCluster} as REST
 * {@code POST /v1/cluster-choices} (the shared {@link ClusterChooser}, through {@link GrpcChoiceMapper}).
 *
 * <p>Blocking: a decision is CPU-bound (up to seconds for a large snapshot), so it runs on a worker thread, never on
 * the event loop.
 *
 * <p>Deadlines: the call's {@link Context} (given its deadline and cancellation by {@link GrpcDeadlineInterceptor}) is
 * checked before and after each expensive step (mapping, validation,
 * compiling the snapshot, deciding); once the deadline has passed the work stops there and the call answers
 * {@code DEADLINE_EXCEEDED} (a cancelled call answers {@code CANCELLED}). A deadline that passes <em>during</em>
 * {@code decide} stops the engine at its next group, member or candidate placement. Abandoned calls are counted in
 * {@code muster.grpc.abandoned{reason=deadline|cancelled}}; decisions are recorded in the same
 * {@link DecisionRecorder} as REST.
 */
@GrpcService
@RegisterInterceptor(GrpcDeadlineInterceptor.class)
@RegisterInterceptor(GrpcRequestGuard.class)
public class DecisionGrpcService extends DecisionServiceGrpc.DecisionServiceImplBase {
    private static final Logger LOG = Logger.getLogger(DecisionGrpcService.class);
    /** Calls stopped because their deadline passed or the client cancelled them, by {@code reason}. */
    static final String ABANDONED = "muster.grpc.abandoned";

    private final DecisionEngine engine;
    private final RequestValidator validator;
    private final DecisionRecorder metrics;
    private final MeterRegistry meters;
    private final CompileAhead ahead;
    private ClusterChooser chooser;
    private ChoiceSettings choiceSettings;

    /** The application's engine, validator, metrics and compile helpers: the same instances REST uses. */
    @Inject
    public DecisionGrpcService(DecisionEngine engine, RequestValidator validator, DecisionRecorder metrics,
                               MeterRegistry meters, CompileAhead ahead) {
        this.ahead = ahead;
        this.engine = engine;
        this.validator = validator;
        this.metrics = metrics;
        this.meters = meters;
    }

    /** Strings over {@code muster.limits.max-string-length} are refused as in REST bodies (INVALID_ARGUMENT here). */
    @Inject
    void limitStrings(@ConfigProperty(name = "muster.limits.max-string-length", defaultValue = "4194304") int max) {
        GrpcRequestMapper.maxStringLength = max;
    }

    /** The cluster chooser and its limits: the same instances REST {@code POST /v1/cluster-choices} uses. */
    @Inject
    void chooseWith(ClusterChooser chooser, ChoiceSettings settings) {
        this.chooser = chooser;
        this.choiceSettings = settings;
    }

    @Override
    @Blocking
    public void decide(DecideRequest request, StreamObserver<DecideResponse> out) {
        try {
            checkContext("before decoding the request");
            RequestDocument doc = document(request);
            checkContext("after decoding the request");
            // a large request is compiled by a helper while this thread validates it
            CompileAhead.Task task = ahead.compileWhileValidating(doc, CompileAhead.Early.NONE,
                    java.util.function.UnaryOperator.identity(), () -> validate(doc));
            checkContext("after validating the request");
            CompileAhead.Compiled compiled = compiled(task);
            DecisionRequest decisionRequest = compiled.request();
            checkContext("after compiling the snapshot");
            long start = System.nanoTime();
            DecisionResult result;
            Context ctx = Context.current();
            try {
                result = engine.decide(compiled.snapshot(), decisionRequest.podGroups(), decisionRequest.pods(),
                        decisionRequest.options(), () -> ctx.isCancelled()
                        || (ctx.getDeadline() != null && ctx.getDeadline().isExpired()));
            } catch (DecisionAbortedException e) {
                checkContext("while deciding");
                throw e;
            }
            if (metrics != null) {
                metrics.record(result, System.nanoTime() - start);
            }
            checkContext("while deciding");
            out.onNext(GrpcResponseMapper.toResponse(result));
            out.onCompleted();
        } catch (StatusRuntimeException e) {
            out.onError(e);
        }
    }

    @Override
    @Blocking
    public void validate(DecideRequest request, StreamObserver<ValidateResponse> out) {
        try {
            checkContext("before decoding the request");
            RequestDocument doc = document(request);
            checkContext("after decoding the request");
            validate(doc);
            out.onNext(ValidateResponse.newBuilder().setValid(true).build());
            out.onCompleted();
        } catch (StatusRuntimeException e) {
            out.onError(e);
        }
    }

    @Override
    @Blocking
    public void derive(DeriveRequest request, StreamObserver<DeriveResponse> out) {
        try {
            checkContext("before decoding the request");
            List<Kube.Job> jobs;
            try {
                jobs = GrpcDerivations.jobs(request);
            } catch (GrpcRequestMapper.StringTooLong e) {
                throw tooLong(request);
            }
            Causes causes = validator.validateJobs(jobs);
            if (!causes.isEmpty()) {
                throw GrpcErrors.invalid(causes);
            }
            out.onNext(GrpcDerivations.derive(jobs));
            out.onCompleted();
        } catch (StatusRuntimeException e) {
            out.onError(e);
        }
    }

    /**
     * REST {@code POST /v1/cluster-choices} over gRPC: the same validation (its 422 causes as INVALID_ARGUMENT), the
     * same chooser, stopped by the call's deadline or cancellation as {@code decide} is. A watched cluster not synced
     * yet answers UNAVAILABLE (REST's 503), naming the clusters and what each waits for.
     */
    @Override
    @Blocking
    public void chooseCluster(ChooseClusterRequest request, StreamObserver<ChooseClusterResponse> out) {
        try {
            checkContext("before decoding the request");
            ChoiceDocument doc;
            try {
                doc = GrpcChoiceMapper.toDocument(request);
            } catch (GrpcRequestMapper.StringTooLong e) {
                throw tooLong(request);
            }
            checkContext("after decoding the request");
            Causes causes = validator.validateChoice(doc, chooser::watches, choiceSettings.maxClusters());
            if (!causes.isEmpty()) {
                throw GrpcErrors.invalid(causes);
            }
            checkContext("after validating the request");
            Context ctx = Context.current();
            List<ClusterChoice> choices;
            try {
                choices = chooser.choose(doc, () -> ctx.isCancelled()
                        || (ctx.getDeadline() != null && ctx.getDeadline().isExpired()));
            } catch (ViewsNotSyncedException e) {
                throw Status.UNAVAILABLE.withDescription(e.getMessage()).asRuntimeException();
            } catch (ChoiceRejectedException e) {
                throw GrpcErrors.invalid(e.causes());
            } catch (QuantityFormatException e) {
                throw GrpcErrors.invalid("FieldValueInvalid", "", e.getMessage());
            } catch (DecisionAbortedException e) {
                checkContext("while deciding");
                throw e;
            }
            checkContext("while deciding");
            out.onNext(GrpcChoiceMapper.toResponse(choices));
            out.onCompleted();
        } catch (StatusRuntimeException e) {
            out.onError(e);
        }
    }

    /** The request as the shared document; a string over the length limit is INVALID_ARGUMENT naming its field. */
    private static RequestDocument document(DecideRequest request) {
        try {
            return GrpcRequestMapper.toDocument(request);
        } catch (GrpcRequestMapper.StringTooLong e) {
            throw tooLong(request);
        }
    }

    private static StatusRuntimeException tooLong(com.google.protobuf.Message request) {
        int max = GrpcRequestMapper.maxStringLength;
        String field = GrpcStringLimit.firstTooLong(request, max);
        return GrpcErrors.invalid("FieldValueTooLong", field == null ? "" : field,
                "Too long: may not be more than " + max + " characters");
    }

    /** The shared validator: every cause at once, with the REST field paths. */
    private void validate(RequestDocument doc) {
        Causes causes = validator.validate(doc);
        if (!causes.isEmpty()) {
            throw GrpcErrors.invalid(causes);
        }
    }

    /**
     * The compiled request, once validation passed. Compiling can still reject what validation does not check; that
     * is the client's input, so it answers INVALID_ARGUMENT, never INTERNAL.
     */
    private static CompileAhead.Compiled compiled(CompileAhead.Task task) {
        try {
            return task.join();
        } catch (QuantityFormatException e) {
            throw GrpcErrors.invalid("FieldValueInvalid", "", e.getMessage());
        } catch (RuntimeException e) {
            LOG.warn("a validated request could not be compiled (validation gap)", e);
            throw GrpcErrors.invalid("FieldValueInvalid", "", "the request could not be compiled into a snapshot: "
                    + e.getMessage());
        }
    }

    /** Stops the call when its deadline has passed or the client cancelled it. */
    private void checkContext(String step) {
        Context ctx = Context.current();
        Deadline deadline = ctx.getDeadline();
        if (deadline != null && deadline.isExpired()) {
            meters.counter(ABANDONED, List.of(Tag.of("reason", "deadline"))).increment();
            throw GrpcErrors.deadlineExceeded(step);
        }
        if (ctx.isCancelled()) {
            meters.counter(ABANDONED, List.of(Tag.of("reason", "cancelled"))).increment();
            throw GrpcErrors.cancelled(step);
        }
    }
}
