package dev.muster.golden;

import dev.muster.adapter.cel.CelSelectors;
import dev.muster.adapter.kube.KubeCodec;
import dev.muster.adapter.kube.KubeMapper;
import dev.muster.adapter.kube.RequestDocument;
import dev.muster.adapter.validation.RequestValidator;
import dev.muster.adapter.validation.ValidationLimits;
import dev.muster.core.decision.Assignment;
import dev.muster.core.decision.Decision;
import dev.muster.core.decision.DecisionEngine;
import dev.muster.core.decision.EngineConfig;
import dev.muster.core.decision.Outcome;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The seed gang written in each accepted shape is placed exactly as the v1alpha2 original. */
class SeedGangShapesTest {
    private static final String ORIGINAL = "the seed training job gang of four lands on three nodes";

    private final KubeCodec codec = new KubeCodec(KubeCodec.Limits.DEFAULT);
    private final RequestValidator validator = new RequestValidator(ValidationLimits.DEFAULT);
    private final DecisionEngine engine = new DecisionEngine(EngineConfig.DEFAULT);

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
            "the seed gang written as a v1beta1 PodGroup lands as the v1alpha2 one does",
            "the seed gang written as a Volcano PodGroup lands as the v1alpha2 one does",
            "the seed gang written as a coscheduling PodGroup lands as the v1alpha2 one does",
            "the seed gang written as a 1.35 v1alpha1 Workload lands as the v1alpha2 one does",
            "the seed gang written as an Indexed Job without a PodGroup lands as the v1alpha2 one does"})
    void placementsAreIdentical(String folder) throws Exception {
        Decision original = decide(ORIGINAL);
        Decision other = decide(folder);
        assertThat(original.outcome()).isEqualTo(Outcome.Scheduled);
        assertThat(other.outcome()).isEqualTo(Outcome.Scheduled);
        assertThat(placements(other)).isEqualTo(placements(original)).hasSize(4);
    }

    private Decision decide(String folder) throws Exception {
        RequestDocument doc = codec.readJson(Files.readAllBytes(GoldenDecisionTest.ROOT.resolve(folder)
                .resolve("request.json")));
        assertThat(validator.validate(doc).list()).isEmpty();
        List<Decision> decisions = engine.decide(KubeMapper.toDecisionRequest(doc, CelSelectors.shared()::compile))
                .decisions();
        assertThat(decisions).hasSize(1);
        return decisions.get(0);
    }

    private static List<String> placements(Decision d) {
        return d.placements().stream().map((Assignment a) -> a.pod() + "@" + a.node()).toList();
    }
}
