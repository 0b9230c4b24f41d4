package dev.muster.core.plugins.nodeports;

import dev.muster.core.framework.Code;
import dev.muster.core.framework.Status;
import dev.muster.core.testing.Nodes;
import dev.muster.core.testing.Pods;
import dev.muster.core.testing.TestCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class NodePortsPluginTest {

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("same port and protocol on the wildcard address conflicts",
                        Pods.pod("e").hostPort("", "TCP", 8080), Pods.pod("p").hostPort("", "TCP", 8080), false),
                Arguments.of("a different protocol does not conflict",
                        Pods.pod("e").hostPort("", "UDP", 8080), Pods.pod("p").hostPort("", "TCP", 8080), true),
                Arguments.of("a different port does not conflict",
                        Pods.pod("e").hostPort("", "TCP", 8081), Pods.pod("p").hostPort("", "TCP", 8080), true),
                Arguments.of("two distinct host IPs on the same port do not conflict",
                        Pods.pod("e").hostPort("10.0.0.1", "TCP", 80), Pods.pod("p").hostPort("10.0.0.2", "TCP", 80),
                        true),
                Arguments.of("a specific IP conflicts with the wildcard address",
                        Pods.pod("e").hostPort("10.0.0.1", "TCP", 80), Pods.pod("p").hostPort("0.0.0.0", "TCP", 80),
                        false),
                Arguments.of("a pod without host ports always fits",
                        Pods.pod("e").hostPort("", "TCP", 80), Pods.pod("p"), true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void filter(String name, Pods existing, Pods pod, boolean fits) {
        TestCluster c = TestCluster.of(List.of(Nodes.node("n1").build()),
                List.of(existing.on("n1").build(), pod.build()));
        Status s = c.filter(new NodePortsPlugin(), "p").get("n1");
        if (fits) {
            assertThat(s.isSuccess()).isTrue();
        } else {
            assertThat(s.code()).isEqualTo(Code.Unschedulable);
            assertThat(s.reasons()).containsExactly("node(s) didn't have free ports for the requested pod ports");
        }
    }

    @Test
    void aPortTakenByAnAssumedMemberBlocksTheNextMember() {
        TestCluster c = TestCluster.of(List.of(Nodes.node("n1").build(), Nodes.node("n2").build()),
                List.of(Pods.pod("m1").hostPort("", "TCP", 9000).build(),
                        Pods.pod("m2").hostPort("", "TCP", 9000).build()));
        c.assume("m1", "n1");
        assertThat(c.feasible(new NodePortsPlugin(), "m2")).containsExactly("n2");
    }
}
