package dev.muster.core.plugins.nodeunschedulable;

import dev.muster.core.framework.Code;
import dev.muster.core.framework.Status;
import dev.muster.core.model.TaintEffect;
import dev.muster.core.model.Toleration;
import dev.muster.core.testing.Nodes;
import dev.muster.core.testing.Pods;
import dev.muster.core.testing.TestCluster;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class NodeUnschedulablePluginTest {

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("a schedulable node admits any pod", false, Pods.pod("p"), Code.Success),
                Arguments.of("a cordoned node rejects a pod without tolerations", true, Pods.pod("p"),
                        Code.UnschedulableAndUnresolvable),
                Arguments.of("a cordoned node admits a pod tolerating the unschedulable taint", true,
                        Pods.pod("p").toleration(NodeUnschedulablePlugin.TAINT_KEY, Toleration.Operator.Exists, null,
                                TaintEffect.NoSchedule), Code.Success),
                Arguments.of("a toleration of every taint also covers a cordoned node", true,
                        Pods.pod("p").toleration("", Toleration.Operator.Exists, null, null), Code.Success),
                Arguments.of("a NoExecute toleration of the key does not cover the NoSchedule taint", true,
                        Pods.pod("p").toleration(NodeUnschedulablePlugin.TAINT_KEY, Toleration.Operator.Exists, null,
                                TaintEffect.NoExecute), Code.UnschedulableAndUnresolvable));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void filter(String name, boolean cordoned, Pods pod, Code expected) {
        Nodes n = Nodes.node("n1");
        if (cordoned) {
            n.unschedulable();
        }
        TestCluster c = TestCluster.of(List.of(n.build()), List.of(pod.build()));
        Status s = c.filter(new NodeUnschedulablePlugin(), "p").get("n1");
        assertThat(s.code()).isEqualTo(expected);
        if (expected != Code.Success) {
            assertThat(s.reasons()).containsExactly("node(s) were unschedulable");
            assertThat(s.plugin()).isEqualTo("NodeUnschedulable");
        }
    }
}
