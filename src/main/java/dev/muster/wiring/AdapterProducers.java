package dev.muster.wiring;

import dev.muster.adapter.kube.KubeCodec;
import dev.muster.adapter.rest.DispatchSettings;
import dev.muster.adapter.validation.RequestValidator;
import dev.muster.adapter.validation.ValidationLimits;
import dev.muster.core.decision.DecisionEngine;
import dev.muster.core.decision.EngineConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * Composition root: builds the engine, the strict codec, the validator and the adapters' settings once, from
 * {@link MusterConfig}. Adapters never read {@link MusterConfig} themselves: they receive what they need as their own
 * types.
 */
@ApplicationScoped
public class AdapterProducers {

    @Produces
    @ApplicationScoped
    DecisionEngine decisionEngine(MusterConfig config) {
        MusterConfig.Engine e = config.engine();
        return new DecisionEngine(new EngineConfig(e.searchBudget(), e.parallelism(), e.parallelThreshold()));
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

    @Produces
    @Singleton
    RequestValidator requestValidator(MusterConfig config) {
        MusterConfig.Limits l = config.limits();
        return new RequestValidator(new ValidationLimits(l.maxNodes(), l.maxPods(), l.maxPodGroups(), l.maxObjects(),
                l.maxCauses()));
    }
}
