package dev.muster.core.plugins.noderesourcesbalancedallocation;

import dev.muster.core.testing.Nodes;
import dev.muster.core.testing.Pods;
import dev.muster.core.testing.TestCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class NodeResourcesBalancedAllocationPluginTest {

    /** Node: cpu 4, memory 8Gi. */
    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("equal cpu and memory fractions score 100", null, null, "2", "4Gi", 100L),
                Arguments.of("fractions 0.25 and 0.5 differ by 0.125 std", null, null, "1", "4Gi", 87L),
                Arguments.of("existing requests count toward the fractions", "2", "0", "1", "2Gi", 75L),
                Arguments.of("a fraction above 1 is capped at 1", "0", "0", "8", "0", 50L),
                Arguments.of("only cpu requested: memory fraction is 0", null, null, "4", null, 50L));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void score(String name, String usedCpu, String usedMem, String cpu, String mem, long expected) {
        List<dev.muster.core.model.Pod> pods = new ArrayList<>();
        if (usedCpu != null) {
            Pods e = Pods.pod("e").on("n1").requests("cpu", usedCpu);
            if (!usedMem.equals("0")) {
                e.requests("memory", usedMem);
            }
            pods.add(e.build());
        }
        Pods p = Pods.pod("p").requests("cpu", cpu);
        if (mem != null && !mem.equals("0")) {
            p.requests("memory", mem);
        }
        pods.add(p.build());
        TestCluster c = TestCluster.of(List.of(Nodes.node("n1").allocatable("cpu", "4").allocatable("memory", "8Gi")
                .build()), pods);
        assertThat(c.rawScore(new NodeResourcesBalancedAllocationPlugin(), "p", "n1")).isEqualTo(expected);
    }

    @Test
    void aBestEffortPodSkipsScoring() {
        TestCluster c = TestCluster.of(List.of(Nodes.node("n1").allocatable("cpu", "4").build()),
                List.of(Pods.pod("p").build()));
        assertThat(c.score(new NodeResourcesBalancedAllocationPlugin(), "p")).isEmpty();
    }

    @Test
    void aNodeWithoutMemoryAllocatableUsesOnlyCpuAndScores100() {
        TestCluster c = TestCluster.of(List.of(Nodes.node("n1").allocatable("cpu", "4").build()),
                List.of(Pods.pod("p").requests("cpu", "1").requests("memory", "1Gi").build()));
        assertThat(c.rawScore(new NodeResourcesBalancedAllocationPlugin(), "p", "n1")).isEqualTo(100L);
    }
}
