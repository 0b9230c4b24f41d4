package dev.muster.wiring;

import dev.muster.adapter.choice.ChoiceSettings;
import dev.muster.adapter.choice.ClusterChooser;
import dev.muster.adapter.clusterview.NamedClusterViews;
import dev.muster.adapter.kube.KubeCodec;
import jakarta.inject.Named;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import dev.muster.adapter.rest.DispatchSettings;
import dev.muster.adapter.compile.CompileAhead;
import dev.muster.adapter.validation.RequestValidator;
import dev.muster.adapter.validation.ValidationLimits;
import dev.muster.adapter.metrics.PhaseTracer;
import dev.muster.core.decision.DecisionEngine;
import dev.muster.core.decision.DecisionObserver;
import dev.muster.core.decision.EngineConfig;
import dev.muster.core.plugins.InTreePlugins;
import io.opentelemetry.api.OpenTelemetry;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Composition root: builds the engine, the strict codec, the validator and the adapters' settings once, from
 * {@link MusterConfig}. Adapters never read {@link MusterConfig} themselves: they receive what they need as their own
 * types.
 */
@ApplicationScoped
public class AdapterProducers {

    private static final Logger LOG = Logger.getLogger(AdapterProducers.class);

    @Produces
    @ApplicationScoped
    DecisionEngine decisionEngine(MusterConfig config, DecisionMetrics metrics, DecisionLog log) {
        MusterConfig.Engine e = config.engine();
        DecisionObserver observer = config.log().decisions() ? DecisionObserver.both(metrics, log) : metrics;
        return new DecisionEngine(InTreePlugins.defaultProfile(),
                new EngineConfig(e.searchBudget(), e.parallelism(), e.parallelThreshold()), observer);
    }

    /**
     * The decision log ({@code muster.log.*}). What its budget held back is told every second, so a burst's count is
     * written even when no line follows it, and when the service stops.
     */
    @Produces
    @Singleton
    DecisionLog decisionLog(MusterConfig config, io.vertx.core.Vertx vertx) {
        DecisionLog log = new DecisionLog(config.log().decisionsPerSecond());
        if (config.log().decisions() && config.log().decisionsPerSecond() > 0) {
            vertx.setPeriodic(1000, id -> log.flush());
        }
        return log;
    }

    void flushDecisionLog(@Disposes DecisionLog log) {
        log.flush();
    }

    /** Decision phase spans when {@code muster.tracing.enabled}; a no-op tracer otherwise. */
    @Produces
    @Singleton
    PhaseTracer phaseTracer(MusterConfig config, Instance<OpenTelemetry> otel,
                            @ConfigProperty(name = "quarkus.otel.sdk.disabled", defaultValue = "false") boolean sdkOff) {
        if (!config.tracing().enabled()) {
            return PhaseTracer.OFF;
        }
        if (sdkOff) {
            LOG.warn("muster.tracing.enabled=true but quarkus.otel.sdk.disabled=true: no span will be exported");
        }
        return new OtelPhaseTracer(otel.get());
    }

    @Produces
    @Singleton
    KubeCodec kubeCodec(MusterConfig config) {
        MusterConfig.Limits l = config.limits();
        return new KubeCodec(new KubeCodec.Limits(l.maxNestingDepth(), l.maxStringLength(), l.maxNumberLength(),
                l.maxBodySize().asLongValue()));
    }

    @Produces
    @Singleton
    DispatchSettings dispatchSettings(MusterConfig config) {
        return new DispatchSettings(config.http().inlineMaxBodySize().asLongValue());
    }

    /** Helpers that compile large decision requests while they are validated ({@code muster.engine.compile-ahead-*}). */
    @Produces
    @Singleton
    CompileAhead compileAhead(MusterConfig config, DecisionEngine engine) {
        MusterConfig.Engine e = config.engine();
        return new CompileAhead(e.compileAheadThreads(), e.compileAheadThreshold(), limits(config), engine::warm);
    }

    void closeCompileAhead(@Disposes CompileAhead ahead) {
        ahead.close();
    }

    @Produces
    @Singleton
    RequestValidator requestValidator(MusterConfig config) {
        return new RequestValidator(limits(config));
    }

    @Produces
    @Singleton
    ChoiceSettings choiceSettings(MusterConfig config) {
        return new ChoiceSettings(config.choices().maxClusters());
    }

    /** Threads that decide the clusters of a choice beside the request's own; daemons, so they never hold exit. */
    @Produces
    @Singleton
    @Named("choices")
    ExecutorService choiceExecutor(MusterConfig config) {
        int threads = choiceThreads(config);
        AtomicInteger n = new AtomicInteger();
        return Executors.newFixedThreadPool(Math.max(1, threads - 1), r -> {
            Thread t = new Thread(r, "muster-choice-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    void closeChoiceExecutor(@Disposes @Named("choices") ExecutorService executor) {
        executor.shutdownNow();
    }

    @Produces
    @Singleton
    ClusterChooser clusterChooser(DecisionEngine engine, NamedClusterViews views, MusterConfig config,
                                  @Named("choices") ExecutorService executor) {
        return new ClusterChooser(engine, views, executor, choiceThreads(config), config.limits().maxCauses());
    }

    private static int choiceThreads(MusterConfig config) {
        int t = config.choices().threads();
        return t > 0 ? t : Runtime.getRuntime().availableProcessors();
    }

    private static ValidationLimits limits(MusterConfig config) {
        MusterConfig.Limits l = config.limits();
        return new ValidationLimits(l.maxNodes(), l.maxPods(), l.maxPodGroups(), l.maxObjects(), l.maxCauses(),
                l.maxHyperNodes());
    }
}
