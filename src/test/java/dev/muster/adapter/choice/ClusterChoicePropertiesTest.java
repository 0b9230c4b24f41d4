package dev.muster.adapter.choice;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.adapter.clusterview.NamedClusterViews;
import dev.muster.adapter.grpc.RandomSnapshots;
import dev.muster.adapter.kube.ChoiceDocument;
import dev.muster.adapter.kube.KubeCodec;
import dev.muster.adapter.rest.ChoiceResponse;
import dev.muster.adapter.rest.DecisionResponse;
import dev.muster.adapter.validation.RequestValidator;
import dev.muster.adapter.validation.ValidationLimits;
import dev.muster.core.choice.ClusterChoice;
import dev.muster.core.choice.Fit;
import dev.muster.core.decision.Assignment;
import dev.muster.core.decision.Decision;
import dev.muster.core.decision.DecisionEngine;
import dev.muster.core.decision.EngineConfig;
import dev.muster.core.decision.Outcome;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Cluster choices on seeded random clusters and workloads (the pending pods and PodGroups of one random snapshot,
 * sent to three clusters built from others): the request validates; every cluster's decisions are those of
 * {@code /v1/decisions} on that cluster with the workload added; each {@code fit} follows from the decisions as the
 * API defines it; the ranks are 1..N in the documented order; the same request gives the same bytes.
 */
class ClusterChoicePropertiesTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final KubeCodec codec = new KubeCodec(KubeCodec.Limits.DEFAULT);
    private final RequestValidator validator = new RequestValidator(ValidationLimits.DEFAULT);
    private final DecisionEngine engine = new DecisionEngine(EngineConfig.DEFAULT);

    @Test
    void choicesAgreeWithSingleDecisionsAndTheirOwnDefinitions() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            int fits = 0;
            int preempts = 0;
            int doesNot = 0;
            for (long seed = 1; seed <= 60; seed++) {
                ObjectNode body = choiceBody(seed);
                ChoiceDocument doc = codec.readJson(JSON.writeValueAsBytes(body), ChoiceDocument.class);
                assertThat(validator.validateChoice(doc, n -> false, 32).list()).as("seed " + seed).isEmpty();
                ClusterChooser chooser = new ClusterChooser(engine, NamedClusterViews.NONE, pool, 2, 100);
                List<ClusterChoice> choices = chooser.choose(doc, () -> false);
                assertThat(JSON.writeValueAsString(ChoiceResponse.of(chooser.choose(doc, () -> false))))
                        .as("seed " + seed + ": same request, same bytes")
                        .isEqualTo(JSON.writeValueAsString(ChoiceResponse.of(choices)));
                assertThat(choices).extracting(ClusterChoice::rank).containsExactly(1, 2, 3);
                Set<String> expected = expectedPods(body.get("workload"));
                for (int i = 0; i < choices.size(); i++) {
                    ClusterChoice c = choices.get(i);
                    JsonNode got = JSON.valueToTree(DecisionResponse.of(c.result()).decisions());
                    JsonNode want = JSON.valueToTree(SingleDecisions.of(doc, c, validator, engine).decisions());
                    assertThat(got).as("seed " + seed + ", " + c.cluster()).isEqualTo(want);
                    assertThat(c.fit()).as("seed " + seed + ", " + c.cluster() + ": " + c.message())
                            .isEqualTo(fitOf(c, expected));
                    if (i > 0) {
                        assertThat(c.fit().ordinal()).isGreaterThanOrEqualTo(choices.get(i - 1).fit().ordinal());
                    }
                    switch (c.fit()) {
                        case Fits -> fits++;
                        case FitsWithPreemption -> preempts++;
                        case DoesNotFit -> doesNot++;
                    }
                }
            }
            assertThat(fits).as("clusters that fit").isPositive();
            assertThat(preempts).as("clusters that fit with preemption").isPositive();
            assertThat(doesNot).as("clusters that do not fit").isPositive();
        } finally {
            pool.shutdownNow();
        }
    }

    /** The pending pods and PodGroups of one random snapshot, sent to three clusters built from others. */
    private static ObjectNode choiceBody(long seed) throws Exception {
        ObjectNode work = (ObjectNode) JSON.readTree(RandomSnapshots.small(seed)).get("snapshot");
        ObjectNode workload = JSON.createObjectNode();
        ArrayNode pending = workload.putArray("pods");
        for (JsonNode p : work.get("pods")) {
            if (!p.at("/spec").has("nodeName")) {
                pending.add(p);
            }
        }
        workload.set("podGroups", work.get("podGroups"));
        ObjectNode body = JSON.createObjectNode();
        ArrayNode clusters = body.putArray("clusters");
        for (int k = 0; k < 3; k++) {
            ObjectNode s = (ObjectNode) JSON.readTree(RandomSnapshots.small(seed * 7919 + k)).get("snapshot");
            ArrayNode bound = JSON.createArrayNode();
            for (JsonNode p : s.get("pods")) {
                if (p.at("/spec").has("nodeName")) {
                    bound.add(p);
                }
            }
            s.set("pods", bound);
            s.remove("podGroups");
            clusters.addObject().put("name", "c" + k).set("snapshot", s);
        }
        body.set("workload", workload);
        body.putObject("options").put("preemption", seed % 3 != 0);
        return body;
    }

    private static Set<String> expectedPods(JsonNode workload) {
        Set<String> out = new HashSet<>();
        for (JsonNode p : workload.get("pods")) {
            if (!p.at("/spec").has("schedulingGates")) {
                out.add(p.at("/metadata/namespace").asText() + "/" + p.at("/metadata/name").asText());
            }
        }
        return out;
    }

    /** The API's definition of fit, worked out again from the decisions. */
    private static Fit fitOf(ClusterChoice c, Set<String> expected) {
        Set<String> placed = new HashSet<>();
        Set<String> nominated = new HashSet<>();
        boolean allScheduled = true;
        boolean allScheduledOrPreempting = true;
        int victims = 0;
        for (Decision d : c.result().decisions()) {
            allScheduled &= d.outcome() == Outcome.Scheduled;
            allScheduledOrPreempting &= d.outcome() == Outcome.Scheduled || d.outcome() == Outcome.Preempting;
            d.placements().forEach(a -> placed.add(ref(a)));
            d.nominations().forEach(a -> nominated.add(ref(a)));
            victims += d.victims().size();
        }
        if (allScheduled && victims == 0 && placed.containsAll(expected)) {
            return Fit.Fits;
        }
        Set<String> either = new HashSet<>(placed);
        either.addAll(nominated);
        if (allScheduledOrPreempting && victims > 0 && either.containsAll(expected)) {
            return Fit.FitsWithPreemption;
        }
        return Fit.DoesNotFit;
    }

    private static String ref(Assignment a) {
        return a.pod().namespace() + "/" + a.pod().name();
    }
}
