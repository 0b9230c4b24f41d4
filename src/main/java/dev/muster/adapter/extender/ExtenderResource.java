package dev.muster.adapter.extender;

import dev.muster.adapter.clusterview.ClusterViewSource;
import dev.muster.adapter.extender.ExtenderWire.ExtenderArgs;
import dev.muster.adapter.extender.ExtenderWire.ExtenderBindingArgs;
import dev.muster.adapter.extender.ExtenderWire.ExtenderBindingResult;
import dev.muster.adapter.extender.ExtenderWire.ExtenderFilterResult;
import dev.muster.adapter.extender.ExtenderWire.ExtenderPreemptionArgs;
import dev.muster.adapter.metrics.ExtenderRecorder;
import dev.muster.core.decision.DecisionEngine;
import io.smallrye.common.annotation.Blocking;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * {@code POST /extender/{filter,prioritize,preempt,bind}}: the kube-scheduler extender webhook.
 * Bodies are read and written with {@link ExtenderCodec}, never with the application's ObjectMapper. Every answer
 * the scheduler reads is a 200 whose {@code Error} says what went wrong; the two answers without an {@code Error}
 * field (prioritize's HostPriorityList, preempt's result) answer an unreadable request with 400, which the
 * scheduler treats as that extender's error (prioritize errors are ignored; preempt errors fail preemption
 * unless the extender is {@code ignorable}).
 */
@Path("/extender")
@Singleton
public class ExtenderResource {
    private final ExtenderCodec codec = new ExtenderCodec();
    private final ExtenderService service;
    private final GangBinder binder;
    private final ScheduledExecutorService timer;
    private final ExtenderRecorder metrics;
    private final PreparedViews views;

    @Inject
    public ExtenderResource(ClusterViewSource source, DecisionEngine engine, ExtenderConfig config,
                            ExtenderRecorder metrics) {
        this.metrics = metrics;
        Duration bindTimeout = config.bindTimeout();
        int cacheSize = config.decisionCacheSize();
        this.views = new PreparedViews(source, config.viewMaxStaleness());
        this.service = new ExtenderService(views, engine, codec, cacheSize);
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "muster-extender-bind-timeout");
            t.setDaemon(true);
            return t;
        });
        this.binder = source.binder().map(b -> new GangBinder(views, b, bindTimeout, timer)).orElse(null);
    }

    @PreDestroy
    void stop() {
        timer.shutdownNow();
        views.close();
    }

    /** For tests and metrics: decisions computed, not served from the cache. */
    public long decisionsComputed() {
        return service.decisionsComputed();
    }

    @POST
    @Path("filter")
    @Consumes(MediaType.WILDCARD)
    @Produces(MediaType.APPLICATION_JSON)
    public Response filter(byte[] body) {
        long start = System.nanoTime();
        ExtenderFilterResult result;
        try {
            result = service.filter(codec.read(body, ExtenderArgs.class));
        } catch (ExtenderCodec.WireException e) {
            result = ExtenderFilterResult.error(e.getMessage());
        }
        record("filter", isEmpty(result.error()), start);
        return ok(result);
    }

    @POST
    @Path("prioritize")
    @Consumes(MediaType.WILDCARD)
    @Produces(MediaType.APPLICATION_JSON)
    public Response prioritize(byte[] body) {
        long start = System.nanoTime();
        try {
            Response r = ok(service.prioritize(codec.read(body, ExtenderArgs.class)));
            record("prioritize", true, start);
            return r;
        } catch (ExtenderCodec.WireException | ExtenderService.RequestException e) {
            record("prioritize", false, start);
            return badRequest(e.getMessage());
        }
    }

    @POST
    @Path("preempt")
    @Consumes(MediaType.WILDCARD)
    @Produces(MediaType.APPLICATION_JSON)
    public Response preempt(byte[] body) {
        long start = System.nanoTime();
        try {
            Response r = ok(service.preempt(codec.read(body, ExtenderPreemptionArgs.class)));
            record("preempt", true, start);
            return r;
        } catch (ExtenderCodec.WireException | ExtenderService.RequestException e) {
            record("preempt", false, start);
            return badRequest(e.getMessage());
        }
    }

    @POST
    @Path("bind")
    @Consumes(MediaType.WILDCARD)
    @Produces(MediaType.APPLICATION_JSON)
    @Blocking
    public CompletionStage<Response> bind(byte[] body) {
        long start = System.nanoTime();
        ExtenderBindingArgs args;
        try {
            args = codec.read(body, ExtenderBindingArgs.class);
        } catch (ExtenderCodec.WireException e) {
            record("bind", false, start);
            return CompletableFuture.completedFuture(ok(new ExtenderBindingResult(e.getMessage())));
        }
        if (binder == null) {
            record("bind", false, start);
            return CompletableFuture.completedFuture(ok(new ExtenderBindingResult(
                    "binding requires muster.cluster-view.source=kubernetes")));
        }
        return binder.bind(args).thenApply(result -> {
            record("bind", isEmpty(result.error()), start);
            return ok(result);
        });
    }

    private void record(String verb, boolean success, long start) {
        metrics.record(verb, success ? ExtenderRecorder.SUCCESS : ExtenderRecorder.ERROR, System.nanoTime() - start);
    }

    private static boolean isEmpty(String error) {
        return error == null || error.isEmpty();
    }

    private Response ok(Object value) {
        return Response.ok(codec.write(value), MediaType.APPLICATION_JSON_TYPE).build();
    }

    private static Response badRequest(String message) {
        return Response.status(Response.Status.BAD_REQUEST).type(MediaType.TEXT_PLAIN_TYPE).entity(message).build();
    }
}
