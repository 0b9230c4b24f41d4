package dev.muster.wiring;

import dev.muster.adapter.kube.KubeCodec;
import dev.muster.adapter.validation.RequestValidator;
import dev.muster.adapter.validation.ValidationLimits;
import dev.muster.core.decision.DecisionEngine;
import dev.muster.core.decision.EngineConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/** Composition root: builds the engine, the strict codec and the validator once, from {@link MusterConfig}. */
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
    RequestValidator requestValidator(MusterConfig config) {
        MusterConfig.Limits l = config.limits();
        return new RequestValidator(new ValidationLimits(l.maxNodes(), l.maxPods(), l.maxPodGroups(), l.maxObjects(),
                l.maxCauses()));
    }
}
