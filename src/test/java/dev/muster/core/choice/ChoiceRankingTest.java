package dev.muster.core.choice;

import dev.muster.core.decision.Assignment;
import dev.muster.core.decision.Decision;
import dev.muster.core.decision.DecisionResult;
import dev.muster.core.decision.Outcome;
import dev.muster.core.decision.PodMessage;
import dev.muster.core.model.GroupRef;
import dev.muster.core.model.PodRef;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class ChoiceRankingTest {
    private static final GroupRef G = new GroupRef("ml", "workers");
    private static final PodRef A = new PodRef("ml", "a");
    private static final PodRef B = new PodRef("ml", "b");

    private static Decision decision(Outcome o, List<Assignment> placed, List<Assignment> victims,
                                     List<Assignment> nominated, List<PodMessage> unplaced, String message, long score) {
        return new Decision(G, o, placed, unplaced, victims, nominated, List.of(), List.of(), message, null, null, null,
                score);
    }

    private static ClusterChoice assess(String name, Map<PodRef, Integer> priorities, Decision... ds) {
        return ChoiceRanking.assess(name, new DecisionResult(List.of(ds), List.of()), Set.of(A, B),
                r -> priorities.getOrDefault(r, 0));
    }

    @Test
    void everyPodPlacedWithoutVictimsFits() {
        ClusterChoice c = assess("x", Map.of(), decision(Outcome.Scheduled,
                List.of(new Assignment(A, "n1"), new Assignment(B, "n2")), List.of(), List.of(), List.of(), "", 7));
        assertThat(c.fit()).isEqualTo(Fit.Fits);
        assertThat(c.score()).isEqualTo(7);
        assertThat(c.message()).isEqualTo("fits without preemption: 2 pods on 2 nodes");
    }

    @Test
    void aScheduledDecisionThatLeavesAPodOutDoesNotFit() {
        ClusterChoice c = assess("x", Map.of(), decision(Outcome.Scheduled, List.of(new Assignment(A, "n1")),
                List.of(), List.of(), List.of(new PodMessage(B, "0/2 nodes are available: 2 Insufficient cpu.")), "", 7));
        assertThat(c.fit()).isEqualTo(Fit.DoesNotFit);
        assertThat(c.score()).as("no score for a cluster the workload does not fit").isZero();
        assertThat(c.message()).isEqualTo("does not fit: 1 of 2 pods placed; pod ml/b: 0/2 nodes are available: "
                + "2 Insufficient cpu.");
    }

    @Test
    void nominatedPodsWithVictimsFitWithPreemptionAndCountDistinctVictims() {
        PodRef v1 = new PodRef("batch", "v1");
        PodRef v2 = new PodRef("batch", "v2");
        Decision d = decision(Outcome.Preempting, List.of(),
                List.of(new Assignment(v1, "n1"), new Assignment(v2, "n1"), new Assignment(v1, "n1")),
                List.of(new Assignment(A, "n1"), new Assignment(B, "n1")), List.of(), "waiting", 0);
        ClusterChoice c = assess("x", Map.of(v1, 3, v2, -4), d);
        assertThat(c.fit()).isEqualTo(Fit.FitsWithPreemption);
        assertThat(c.victims()).isEqualTo(2);
        assertThat(c.highestVictimPriority()).isEqualTo(3);
        assertThat(c.message()).isEqualTo("fits after evicting 2 pods of priority <= 3");
    }

    @Test
    void anUnschedulableDecisionSaysWhyInItsOwnWords() {
        ClusterChoice c = assess("x", Map.of(), decision(Outcome.Unschedulable, List.of(), List.of(), List.of(),
                List.of(), "0/3 nodes are available: 3 Insufficient nvidia.com/gpu.", 0));
        assertThat(c.fit()).isEqualTo(Fit.DoesNotFit);
        assertThat(c.message()).isEqualTo("does not fit: podGroup ml/workers is Unschedulable: 0/3 nodes are "
                + "available: 3 Insufficient nvidia.com/gpu.");
    }

    @Test
    void rankingOrdersByFitThenVictimsThenVictimPriorityThenScoreThenName() {
        List<ClusterChoice> given = List.of(
                new ClusterChoice("doesnt", 0, Fit.DoesNotFit, null, 0, 0, 0, ""),
                new ClusterChoice("pre-2-low", 0, Fit.FitsWithPreemption, null, 2, -50, 0, ""),
                new ClusterChoice("pre-1-high", 0, Fit.FitsWithPreemption, null, 1, 100, 0, ""),
                new ClusterChoice("pre-1-low", 0, Fit.FitsWithPreemption, null, 1, 5, 0, ""),
                new ClusterChoice("fits-b", 0, Fit.Fits, null, 0, 0, 10, ""),
                new ClusterChoice("fits-a", 0, Fit.Fits, null, 0, 0, 10, ""),
                new ClusterChoice("fits-best", 0, Fit.Fits, null, 0, 0, 11, ""));
        List<String> want = List.of("fits-best", "fits-a", "fits-b", "pre-1-low", "pre-1-high", "pre-2-low", "doesnt");
        Random r = new Random(42);
        for (int i = 0; i < 20; i++) {
            List<ClusterChoice> shuffled = new ArrayList<>(given);
            Collections.shuffle(shuffled, r);
            List<ClusterChoice> ranked = ChoiceRanking.rank(shuffled);
            assertThat(ranked).extracting(ClusterChoice::cluster).containsExactlyElementsOf(want);
            assertThat(ranked).extracting(ClusterChoice::rank).containsExactly(1, 2, 3, 4, 5, 6, 7);
        }
    }
}
