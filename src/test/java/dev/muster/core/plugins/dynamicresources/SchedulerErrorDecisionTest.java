package dev.muster.core.plugins.dynamicresources;

import dev.muster.core.decision.Decision;
import dev.muster.core.decision.DecisionEngine;
import dev.muster.core.decision.DecisionOptions;
import dev.muster.core.decision.DecisionRequest;
import dev.muster.core.decision.DecisionResult;
import dev.muster.core.decision.EngineConfig;
import dev.muster.core.decision.Outcome;
import dev.muster.core.dra.Device;
import dev.muster.core.dra.DeviceAttribute;
import dev.muster.core.dra.DeviceClass;
import dev.muster.core.dra.DeviceSelector;
import dev.muster.core.dra.DraObjects;
import dev.muster.core.dra.ResourceClaimSpec;
import dev.muster.core.dra.ResourceClaimTemplate;
import dev.muster.core.dra.ResourceSlice;
import dev.muster.core.dra.SelectorDevice;
import dev.muster.core.dra.SelectorException;
import dev.muster.core.model.ClusterState;
import dev.muster.core.model.Condition;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodClaimRef;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.muster.core.plugins.dynamicresources.DynamicResourcesDecisionTest.DRIVER;
import static dev.muster.core.plugins.dynamicresources.DynamicResourcesDecisionTest.cpuNode;
import static dev.muster.core.plugins.dynamicresources.DynamicResourcesDecisionTest.gpus;
import static dev.muster.core.plugins.dynamicresources.DynamicResourcesDecisionTest.withClaims;
import static dev.muster.core.testing.Groups.gang;
import static dev.muster.core.testing.Groups.member;
import static dev.muster.core.testing.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The DRA allocator's errors end the pod's cycle, as kube-scheduler's Filter errors do: the whole group (or plain
 * pod) is placed on no node, even where other nodes would pass, with the condition reason SchedulerError and
 * kube-scheduler's text. A missing device class only rejects.
 */
class SchedulerErrorDecisionTest {
    private final DecisionEngine engine = new DecisionEngine(EngineConfig.DEFAULT);

    /** Fails on devices of node b's pool (an attribute the driver there no longer publishes), passes elsewhere. */
    record IndexRead() implements DeviceSelector {
        @Override
        public String expression() {
            return "device.attributes['gpu.example.com'].index >= 0";
        }

        @Override
        public boolean matches(SelectorDevice device) {
            DeviceAttribute a = device.attributes().getOrDefault(DRIVER, Map.of()).get("index");
            if (a == null) {
                throw new SelectorException("no such key: index");
            }
            return true;
        }
    }

    private static ResourceSlice withoutIndex(String node) {
        return ResourceSlice.onNode(node + "-gpus", DRIVER, new ResourceSlice.Pool(node, 1, 1), node,
                List.of(Device.of("gpu-0", Map.of(), Map.of())));
    }

    private static ResourceClaimSpec spec(DeviceSelector selector, String className, long count,
                                          ResourceClaimSpec.AllocationMode mode) {
        return new ResourceClaimSpec(List.of(ResourceClaimSpec.Request.exactly("gpu",
                new ResourceClaimSpec.ExactRequest(className, selector == null ? List.of() : List.of(selector), mode,
                        count, false, null, null))), List.of(), List.of());
    }

    private DecisionResult decide(List<Pod> pods, List<ResourceSlice> slices, ResourceClaimSpec template) {
        DraObjects dra = new DraObjects(List.of(DynamicResourcesDecisionTest.gpuClass()), slices, List.of(),
                List.of(new ResourceClaimTemplate("default", "t", template)));
        List<dev.muster.core.model.PodGroup> groups = pods.get(0).podGroupName() == null ? List.of()
                : List.of(gang("train", pods.size()).build());
        return engine.decide(new DecisionRequest(new ClusterState(List.of(cpuNode("a"), cpuNode("b"), cpuNode("c")),
                pods, groups, List.of(), List.of()), null, new DecisionOptions(true, true), dra));
    }

    private static List<Pod> gang2() {
        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            pods.add(withClaims(member(pod("w-" + i).requests("cpu", "1").build(), "train"),
                    new PodClaimRef("gpu", null, "t")));
        }
        return pods;
    }

    private static void assertSchedulerError(Decision d, String conditionType, String text) {
        assertThat(d.outcome()).isEqualTo(Outcome.Unschedulable);
        assertThat(d.placements()).isEmpty();
        assertThat(d.victims()).isEmpty();
        assertThat(d.nominations()).isEmpty();
        assertThat(d.claims()).isEmpty();
        assertThat(d.message()).startsWith("running \"DynamicResources\" filter plugin: ").contains(text);
        assertThat(d.conditions()).singleElement().satisfies(c -> {
            assertThat(c.type()).isEqualTo(conditionType);
            assertThat(c.status()).isEqualTo("False");
            assertThat(c.reason()).isEqualTo("SchedulerError");
            assertThat(c.message()).isEqualTo(d.message());
        });
    }

    @Test
    @DisplayName("a selector failing at run time on one node's device stops the gang, though other nodes pass")
    void celRuntimeError() {
        DecisionResult r = decide(gang2(), List.of(gpus("a", 2), withoutIndex("b"), gpus("c", 2)),
                spec(new IndexRead(), "gpu", 1, ResourceClaimSpec.AllocationMode.ExactCount));
        assertSchedulerError(r.decisions().get(0), "PodGroupScheduled", "CEL runtime error: no such key: index");
    }

    @Test
    @DisplayName("a plain pod meeting the same error is not placed, its PodScheduled condition says SchedulerError")
    void plainPodError() {
        Pod plain = withClaims(pod("solo").requests("cpu", "1").build(), new PodClaimRef("gpu", null, "t"));
        DecisionResult r = decide(List.of(plain), List.of(gpus("a", 2), withoutIndex("b")),
                spec(new IndexRead(), "gpu", 1, ResourceClaimSpec.AllocationMode.ExactCount));
        Decision d = r.decisions().get(0);
        assertThat(d.pod().name()).isEqualTo("solo");
        assertSchedulerError(d, "PodScheduled", "CEL runtime error");
    }

    @Test
    @DisplayName("more devices than a claim may hold is an error, not unschedulable")
    void tooManyDevices() {
        DecisionResult r = decide(gang2(), List.of(gpus("a", 40), gpus("b", 40)),
                spec(null, "gpu", 33, ResourceClaimSpec.AllocationMode.ExactCount));
        assertSchedulerError(r.decisions().get(0), "PodGroupScheduled", "exceeds the claim limit of 32");
    }

    @Test
    @DisplayName("an All request on a pool that is being updated (incomplete) is an error")
    void allOnIncompletePool() {
        ResourceSlice half = ResourceSlice.onNode("a-gpus", DRIVER, new ResourceSlice.Pool("a", 1, 2), "a",
                List.of(Device.of("gpu-0", Map.of(), Map.of())));
        DecisionResult r = decide(gang2(), List.of(half, gpus("b", 2), gpus("c", 2)),
                spec(null, "gpu", 0, ResourceClaimSpec.AllocationMode.All));
        assertSchedulerError(r.decisions().get(0), "PodGroupScheduled", "is currently being updated");
    }

    @Test
    @DisplayName("a request naming a class that does not exist only rejects: unschedulable, not an error")
    void missingClassRejects() {
        DecisionResult r = decide(gang2(), List.of(gpus("a", 2), gpus("b", 2)),
                spec(null, "no-such-class", 1, ResourceClaimSpec.AllocationMode.ExactCount));
        Decision d = r.decisions().get(0);
        assertThat(d.outcome()).isEqualTo(Outcome.Unschedulable);
        assertThat(d.conditions()).extracting(Condition::reason).containsExactly("Unschedulable");
        assertThat(d.message()).contains("device class no-such-class does not exist");
    }

    @Test
    @DisplayName("after an erring group, the next group still gets the nodes: nothing of the first stays assumed")
    void nothingStays() {
        List<Pod> pods = new ArrayList<>(gang2());
        Pod plain = withClaims(pod("next").requests("cpu", "15").build(), new PodClaimRef("gpu", null, "ok"));
        pods.add(plain);
        DraObjects dra = new DraObjects(List.of(DynamicResourcesDecisionTest.gpuClass()),
                List.of(gpus("a", 2), withoutIndex("b"), gpus("c", 2)), List.of(),
                List.of(new ResourceClaimTemplate("default", "t",
                                spec(new IndexRead(), "gpu", 1, ResourceClaimSpec.AllocationMode.ExactCount)),
                        new ResourceClaimTemplate("default", "ok",
                                spec(null, "gpu", 2, ResourceClaimSpec.AllocationMode.ExactCount))));
        DecisionResult r = engine.decide(new DecisionRequest(new ClusterState(List.of(cpuNode("a"), cpuNode("b"),
                cpuNode("c")), pods, List.of(gang("train", 2).build()), List.of(), List.of()), null,
                new DecisionOptions(true, true), dra));
        assertThat(r.decisions()).hasSize(2);
        Decision next = r.decisions().stream().filter(d -> d.pod() != null).findFirst().orElseThrow();
        assertThat(next.outcome()).isEqualTo(Outcome.Scheduled);
        assertThat(next.claims()).singleElement().satisfies(c -> assertThat(c.allocation().devices()).hasSize(2));
    }
}
