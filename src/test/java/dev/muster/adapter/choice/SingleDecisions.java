package dev.muster.adapter.choice;

import dev.muster.adapter.cel.CelSelectors;
import dev.muster.adapter.kube.ChoiceDocument;
import dev.muster.adapter.kube.JobPods;
import dev.muster.adapter.kube.KubeMapper;
import dev.muster.adapter.kube.RequestDocument;
import dev.muster.adapter.rest.DecisionResponse;
import dev.muster.adapter.validation.RequestValidator;
import dev.muster.core.choice.ClusterChoice;
import dev.muster.core.decision.Decision;
import dev.muster.core.decision.DecisionEngine;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The reference a cluster choice is held to: {@code /v1/decisions} on one cluster's snapshot with the workload added
 * (a Job by the pods its controller would create), naming the groups and plain pods the choice decided there.
 */
public final class SingleDecisions {
    private SingleDecisions() {
    }

    public static DecisionResponse of(ChoiceDocument doc, ClusterChoice choice, RequestValidator validator,
                                      DecisionEngine engine) {
        RequestDocument.Snapshot c = doc.clusters().stream().filter(k -> k.name().equals(choice.cluster()))
                .findFirst().orElseThrow().snapshot();
        RequestDocument.Snapshot w = doc.workload();
        RequestDocument.Snapshot merged = new RequestDocument.Snapshot(c.nodes(),
                concat(c.pods(), JobPods.withJobPods(w.pods(), w.jobs())), concat(c.podGroups(), w.podGroups()),
                concat(c.workloads(), w.workloads()), c.priorityClasses(),
                concat(c.podDisruptionBudgets(), w.podDisruptionBudgets()), c.deviceClasses(), c.resourceSlices(),
                concat(c.resourceClaims(), w.resourceClaims()),
                concat(c.resourceClaimTemplates(), w.resourceClaimTemplates()), concat(c.jobs(), w.jobs()),
                concat(c.compositePodGroups(), w.compositePodGroups()), c.hyperNodes());
        List<String> groups = new ArrayList<>();
        List<String> pods = new ArrayList<>();
        for (Decision d : choice.result().decisions()) {
            if (d.isPlainPod()) {
                pods.add(d.pod().namespace() + "/" + d.pod().name());
            } else {
                groups.add(d.podGroup().namespace() + "/" + d.podGroup().name());
            }
        }
        RequestDocument single = new RequestDocument(merged, groups, doc.options(), pods);
        assertThat(validator.validate(single).list()).as("the merged request is valid").isEmpty();
        return DecisionResponse.of(engine.decide(KubeMapper.toDecisionRequest(single, CelSelectors.shared()::compile)));
    }

    private static <T> List<T> concat(List<T> a, List<T> b) {
        if (a == null) {
            return b;
        }
        if (b == null) {
            return a;
        }
        List<T> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }
}
