package dev.muster.core.plugins.tainttoleration;

import dev.muster.core.framework.Code;
import dev.muster.core.framework.Status;
import dev.muster.core.model.TaintEffect;
import dev.muster.core.model.Toleration.Operator;
import dev.muster.core.testing.Nodes;
import dev.muster.core.testing.Pods;
import dev.muster.core.testing.TestCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class TaintTolerationPluginTest {

    static Stream<Arguments> filterCases() {
        return Stream.of(
                Arguments.of("an untainted node admits the pod",
                        Nodes.node("n1"), Pods.pod("p"), null),
                Arguments.of("a NoSchedule taint without toleration rejects with the taint in the reason",
                        Nodes.node("n1").taint("gpu", "true", TaintEffect.NoSchedule), Pods.pod("p"),
                        "node(s) had untolerated taint {gpu: true}"),
                Arguments.of("a NoExecute taint without toleration rejects too",
                        Nodes.node("n1").taint("dedicated", "db", TaintEffect.NoExecute), Pods.pod("p"),
                        "node(s) had untolerated taint {dedicated: db}"),
                Arguments.of("a PreferNoSchedule taint never rejects",
                        Nodes.node("n1").taint("soft", "x", TaintEffect.PreferNoSchedule), Pods.pod("p"), null),
                Arguments.of("an Equal toleration with the same value tolerates the taint",
                        Nodes.node("n1").taint("gpu", "true", TaintEffect.NoSchedule),
                        Pods.pod("p").toleration("gpu", Operator.Equal, "true", TaintEffect.NoSchedule), null),
                Arguments.of("an Equal toleration with another value does not",
                        Nodes.node("n1").taint("gpu", "true", TaintEffect.NoSchedule),
                        Pods.pod("p").toleration("gpu", Operator.Equal, "false", TaintEffect.NoSchedule),
                        "node(s) had untolerated taint {gpu: true}"),
                Arguments.of("an Exists toleration without effect tolerates every effect of its key",
                        Nodes.node("n1").taint("gpu", "true", TaintEffect.NoExecute),
                        Pods.pod("p").toleration("gpu", Operator.Exists, null, null), null),
                Arguments.of("the first untolerated taint in node order is reported",
                        Nodes.node("n1").taint("a", "1", TaintEffect.NoSchedule)
                                .taint("b", "", TaintEffect.NoSchedule),
                        Pods.pod("p").toleration("a", Operator.Exists, null, null),
                        "node(s) had untolerated taint {b: }"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("filterCases")
    void filter(String name, Nodes node, Pods pod, String reason) {
        TestCluster c = TestCluster.of(List.of(node.build()), List.of(pod.build()));
        Status s = c.filter(new TaintTolerationPlugin(), "p").get("n1");
        if (reason == null) {
            assertThat(s.isSuccess()).isTrue();
        } else {
            assertThat(s.code()).isEqualTo(Code.UnschedulableAndUnresolvable);
            assertThat(s.reasons()).containsExactly(reason);
        }
    }

    @Test
    void fewerUntoleratedPreferNoScheduleTaintsScoreHigher() {
        TestCluster c = TestCluster.of(List.of(
                        Nodes.node("clean").build(),
                        Nodes.node("one").taint("a", "1", TaintEffect.PreferNoSchedule).build(),
                        Nodes.node("two").taint("a", "1", TaintEffect.PreferNoSchedule)
                                .taint("b", "1", TaintEffect.PreferNoSchedule).build(),
                        Nodes.node("tolerated").taint("c", "1", TaintEffect.PreferNoSchedule)
                                .taint("d", "1", TaintEffect.NoSchedule).build()),
                List.of(Pods.pod("p").toleration("c", Operator.Exists, null, TaintEffect.PreferNoSchedule).build()));
        Map<String, Long> scores = c.score(new TaintTolerationPlugin(), "p");
        assertThat(scores).containsEntry("clean", 100L).containsEntry("one", 50L).containsEntry("two", 0L)
                .containsEntry("tolerated", 100L);
    }

    @Test
    void aNoScheduleTolerationDoesNotCountForPreferNoScheduleScoring() {
        TestCluster c = TestCluster.of(List.of(
                        Nodes.node("n1").taint("a", "1", TaintEffect.PreferNoSchedule).build(),
                        Nodes.node("n2").build()),
                List.of(Pods.pod("p").toleration("a", Operator.Exists, null, TaintEffect.NoSchedule).build()));
        assertThat(c.score(new TaintTolerationPlugin(), "p")).containsEntry("n1", 0L).containsEntry("n2", 100L);
    }

    @Test
    void noPreferNoScheduleTaintsAnywhereGivesEveryNodeTheMaximum() {
        TestCluster c = TestCluster.of(List.of(Nodes.node("n1").build(), Nodes.node("n2").build()),
                List.of(Pods.pod("p").build()));
        assertThat(c.score(new TaintTolerationPlugin(), "p").values()).containsOnly(100L);
    }
}
