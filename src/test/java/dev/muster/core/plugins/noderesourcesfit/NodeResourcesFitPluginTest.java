package dev.muster.core.plugins.noderesourcesfit;

import dev.muster.core.framework.Code;
import dev.muster.core.framework.Status;
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

class NodeResourcesFitPluginTest {

    /** Node: cpu 4, memory 8Gi, ephemeral-storage 10Gi, example.com/gpu 2, pods 3; existing pod uses cpu 3, memory 4Gi, gpu 1. */
    static Stream<Arguments> filterCases() {
        return Stream.of(
                Arguments.of("a pod within the free resources fits",
                        Pods.pod("p").requests("cpu", "1").requests("memory", "4Gi"), 1, List.of()),
                Arguments.of("one millicore too many cpu is insufficient",
                        Pods.pod("p").requests("cpu", "1001m"), 1, List.of("Insufficient cpu")),
                Arguments.of("memory beyond what is free is insufficient",
                        Pods.pod("p").requests("memory", "5Gi"), 1, List.of("Insufficient memory")),
                Arguments.of("ephemeral storage beyond allocatable is insufficient",
                        Pods.pod("p").requests("ephemeral-storage", "11Gi"), 1,
                        List.of("Insufficient ephemeral-storage")),
                Arguments.of("an extended resource beyond what is free is insufficient",
                        Pods.pod("p").requests("example.com/gpu", "2"), 1, List.of("Insufficient example.com/gpu")),
                Arguments.of("an extended resource the node does not have is insufficient",
                        Pods.pod("p").requests("example.com/fpga", "1"), 1, List.of("Insufficient example.com/fpga")),
                Arguments.of("every shortfall is listed in upstream order",
                        Pods.pod("p").requests("example.com/gpu", "5").requests("memory", "9Gi")
                                .requests("cpu", "8"), 3,
                        List.of("Too many pods", "Insufficient cpu", "Insufficient memory",
                                "Insufficient example.com/gpu")),
                Arguments.of("a full node rejects even a pod requesting nothing",
                        Pods.pod("p"), 3, List.of("Too many pods")),
                Arguments.of("a pod requesting nothing fits a node with room for pods", Pods.pod("p"), 1, List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("filterCases")
    void filter(String name, Pods pod, int existingPods, List<String> reasons) {
        List<dev.muster.core.model.Pod> pods = new ArrayList<>();
        pods.add(Pods.pod("e0").requests("cpu", "3").requests("memory", "4Gi").requests("example.com/gpu", "1")
                .on("n1").build());
        for (int i = 1; i < existingPods; i++) {
            pods.add(Pods.pod("e" + i).on("n1").build());
        }
        pods.add(pod.build());
        TestCluster c = TestCluster.of(List.of(Nodes.node("n1").allocatable("cpu", "4").allocatable("memory", "8Gi")
                .allocatable("ephemeral-storage", "10Gi").allocatable("example.com/gpu", "2")
                .allocatable("pods", "3").build()), pods);
        Status s = c.filter(new NodeResourcesFitPlugin(), "p").get("n1");
        if (reasons.isEmpty()) {
            assertThat(s.isSuccess()).as(s.toString()).isTrue();
        } else {
            assertThat(s.code()).isEqualTo(Code.Unschedulable);
            assertThat(s.reasons()).containsExactlyElementsOf(reasons);
        }
    }

    @Test
    void anAssumedMemberConsumesResourcesForTheNextMember() {
        TestCluster c = TestCluster.of(List.of(Nodes.node("n1").allocatable("cpu", "2").build()),
                List.of(Pods.pod("m1").requests("cpu", "1500m").build(), Pods.pod("m2").requests("cpu", "1").build()));
        assertThat(c.feasible(new NodeResourcesFitPlugin(), "m2")).containsExactly("n1");
        c.assume("m1", "n1");
        assertThat(c.filter(new NodeResourcesFitPlugin(), "m2").get("n1").reasons())
                .containsExactly("Insufficient cpu");
    }

    /** Node: cpu 4, memory 8Gi. An existing pod without a memory request counts as 200Mi of memory. */
    static Stream<Arguments> scoreCases() {
        return Stream.of(
                // cpu (4000-1000)*100/4000 = 75, memory (8Gi-2Gi)*100/8Gi = 75
                Arguments.of("an empty node scores by the pod's own share", "0", "0", "1", "2Gi", 75L),
                // cpu 2000/4000 -> 50; memory 200Mi+1Gi of 8Gi -> 85; (50+85)/2 = 67 (integer division)
                Arguments.of("an existing pod without memory request counts 200Mi and shares average down",
                        "1", "0", "1", "1Gi", 67L),
                // cpu 5000 > 4000 -> 0; memory 200Mi+4Gi of 8Gi -> 47; 47/2 = 23
                Arguments.of("requests beyond allocatable score zero for that resource", "4", "0", "1", "4Gi", 23L),
                // cpu 100m -> 97; memory 200Mi -> 97
                Arguments.of("a pod without requests counts as 100m and 200Mi", "0", "0", null, null, 97L));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scoreCases")
    void leastAllocatedScore(String name, String usedCpu, String usedMem, String cpu, String mem, long expected) {
        Pods existing = Pods.pod("e").on("n1");
        if (!usedCpu.equals("0")) {
            existing.requests("cpu", usedCpu);
        }
        if (!usedMem.equals("0")) {
            existing.requests("memory", usedMem);
        }
        Pods p = Pods.pod("p");
        if (cpu != null) {
            p.requests("cpu", cpu).requests("memory", mem);
        }
        List<dev.muster.core.model.Pod> pods = new ArrayList<>();
        if (!usedCpu.equals("0") || !usedMem.equals("0")) {
            pods.add(existing.build());
        }
        pods.add(p.build());
        TestCluster c = TestCluster.of(List.of(Nodes.node("n1").allocatable("cpu", "4").allocatable("memory", "8Gi")
                .build()), pods);
        assertThat(c.rawScore(new NodeResourcesFitPlugin(), "p", "n1")).isEqualTo(expected);
    }

    @Test
    void leastRequestedFormula() {
        assertThat(NodeResourcesFitPlugin.leastRequested(3000, 4000)).isEqualTo(25);
        assertThat(NodeResourcesFitPlugin.leastRequested(5000, 4000)).isZero();
        assertThat(NodeResourcesFitPlugin.leastRequested(1, 0)).isZero();
    }
}
