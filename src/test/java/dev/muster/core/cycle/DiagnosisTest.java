package dev.muster.core.cycle;

import dev.muster.core.framework.Status;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class DiagnosisTest {
    @Test
    void countsEachReasonOverTheNodesAsKubeSchedulerWritesIt() {
        Status[] verdicts = {
                Status.unschedulable("NodeResourcesFit", "Insufficient cpu"),
                Status.unresolvable("NodeAffinity", "node(s) didn't match Pod's node affinity/selector"),
                Status.unschedulable("NodeResourcesFit", "Insufficient cpu", "Insufficient memory"),
        };
        Diagnosis d = Diagnosis.of(verdicts);

        assertThat(d.nodes()).isEqualTo(3);
        assertThat(d.reasons()).containsExactly(Map.entry("Insufficient cpu", 2), Map.entry("Insufficient memory", 1),
                Map.entry("node(s) didn't match Pod's node affinity/selector", 1));
        assertThat(d.fitError()).isEqualTo("0/3 nodes are available: 1 Insufficient memory, "
                + "1 node(s) didn't match Pod's node affinity/selector, 2 Insufficient cpu.");
        assertThat(d.allUnresolvable()).isFalse();
    }

    @Test
    void keepsTheVerdictsOfItsOwnMomentWhenTheEvaluationMovesOn() {
        Status[] verdicts = {
                Status.unresolvable("NodeAffinity", "node(s) didn't match Pod's node affinity/selector"),
                Status.unresolvable("TaintToleration", "node(s) had untolerated taint(s)"),
        };
        Diagnosis d = Diagnosis.of(verdicts);
        // the evaluation is refreshed for the next pod before anyone reads this one's diagnosis
        verdicts[0] = Status.unschedulable("NodeResourcesFit", "Insufficient cpu");
        verdicts[1] = null;

        assertThat(d.allUnresolvable()).isTrue();
        assertThat(d.fitError()).isEqualTo("0/2 nodes are available: "
                + "1 node(s) didn't match Pod's node affinity/selector, 1 node(s) had untolerated taint(s).");
    }
}
