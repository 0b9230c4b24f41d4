package dev.muster.core.plugins.dynamicresources;

import dev.muster.core.decision.ClaimDecision;
import dev.muster.core.decision.Decision;
import dev.muster.core.decision.DecisionEngine;
import dev.muster.core.decision.DecisionOptions;
import dev.muster.core.decision.DecisionRequest;
import dev.muster.core.decision.DecisionResult;
import dev.muster.core.decision.EngineConfig;
import dev.muster.core.decision.Outcome;
import dev.muster.core.dra.AllocationResult;
import dev.muster.core.dra.ClaimConsumer;
import dev.muster.core.dra.Device;
import dev.muster.core.dra.DeviceAttribute;
import dev.muster.core.dra.DeviceClass;
import dev.muster.core.dra.DeviceSelector;
import dev.muster.core.dra.DraObjects;
import dev.muster.core.dra.ResourceClaim;
import dev.muster.core.dra.ResourceClaimSpec;
import dev.muster.core.dra.ResourceClaimTemplate;
import dev.muster.core.dra.ResourceSlice;
import dev.muster.core.dra.SelectorDevice;
import dev.muster.core.model.ClusterState;
import dev.muster.core.model.Node;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodClaimRef;
import dev.muster.core.model.PodGroup;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.muster.core.testing.Groups.gang;
import static dev.muster.core.testing.Groups.member;
import static dev.muster.core.testing.Nodes.node;
import static dev.muster.core.testing.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;

/** Claims in the PodGroup cycle: devices held per member, given back on rollback, group claims, claim decisions. */
class DynamicResourcesDecisionTest {
    static final String DRIVER = "gpu.example.com";
    private final DecisionEngine engine = new DecisionEngine(EngineConfig.DEFAULT);

    /** A selector on the driver name: what the class's CEL expression would say. */
    record DriverIs(String driver) implements DeviceSelector {
        @Override
        public String expression() {
            return "device.driver == '" + driver + "'";
        }

        @Override
        public boolean matches(SelectorDevice device) {
            return device.driver().equals(driver);
        }
    }

    static DeviceClass gpuClass() {
        return new DeviceClass("gpu", List.of(new DriverIs(DRIVER)), List.of());
    }

    static ResourceSlice gpus(String node, int count) {
        List<Device> devices = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            devices.add(Device.of("gpu-" + i, Map.of("index", new DeviceAttribute.IntValue(i)), Map.of()));
        }
        return ResourceSlice.onNode(node + "-gpus", DRIVER, new ResourceSlice.Pool(node, 1, 1), node, devices);
    }

    static ResourceClaimSpec oneGpu() {
        return new ResourceClaimSpec(List.of(ResourceClaimSpec.Request.exactly("gpu",
                ResourceClaimSpec.ExactRequest.of("gpu", 1))), List.of(), List.of());
    }

    static Node cpuNode(String name) {
        return node(name).allocatable("cpu", "16").allocatable("memory", "64Gi").build();
    }

    static Pod withClaims(Pod p, PodClaimRef... claims) {
        return new Pod(p.ref(), p.uid(), p.labels(), p.creationEpochSec(), p.nodeName(), p.phase(), p.schedulerName(),
                p.requests(), p.priority(), p.priorityClassName(), p.preemptionPolicy(), p.nodeSelector(),
                p.affinity(), p.tolerations(), p.hostPorts(), p.topologySpreadConstraints(), p.schedulingGates(),
                p.podGroupName(), List.of(claims), p.nominatedNodeName(), p.terminating(), Map.of());
    }

    static PodGroup withClaims(PodGroup g, PodClaimRef... claims) {
        return new PodGroup(g.ref(), g.uid(), g.generation(), g.creationEpochSec(), g.policy(), g.topologyKeys(),
                List.of(claims), g.disruptionMode(), g.priorityClassName(), g.priority(), g.conditions(),
                g.annotations(), Map.of());
    }

    static Pod gpuWorker(String name, String group) {
        return withClaims(member(pod(name).requests("cpu", "1").build(), group),
                new PodClaimRef("gpu", null, "one-gpu"));
    }

    private DecisionResult decide(List<Node> nodes, List<Pod> pods, List<PodGroup> groups, DraObjects dra) {
        return engine.decide(new DecisionRequest(new ClusterState(nodes, pods, groups, List.of(), List.of()), null,
                new DecisionOptions(true, true), dra));
    }

    private static DraObjects dra(List<ResourceSlice> slices, List<ResourceClaim> claims) {
        return new DraObjects(List.of(gpuClass()), slices, claims,
                List.of(new ResourceClaimTemplate("default", "one-gpu", oneGpu())));
    }

    @Test
    @DisplayName("a gang whose members each need a GPU gets one distinct device per member, on the member's node")
    void gangOfTemplateClaims() {
        List<Pod> pods = List.of(gpuWorker("w-0", "train"), gpuWorker("w-1", "train"), gpuWorker("w-2", "train"));
        DecisionResult r = decide(List.of(cpuNode("a"), cpuNode("b")), pods, List.of(gang("train", 3).build()),
                dra(List.of(gpus("a", 2), gpus("b", 2)), List.of()));

        Decision d = r.decisions().get(0);
        assertThat(d.outcome()).isEqualTo(Outcome.Scheduled);
        assertThat(d.claims()).extracting(c -> c.claim().name()).containsExactly("w-0-gpu", "w-1-gpu", "w-2-gpu");
        Set<String> devices = new HashSet<>();
        for (ClaimDecision c : d.claims()) {
            assertThat(c.generatedFrom()).isEqualTo("one-gpu");
            AllocationResult.DeviceResult dev = c.allocation().devices().get(0);
            assertThat(devices.add(dev.pool() + "/" + dev.device())).as("device used once").isTrue();
            String pod = c.claim().name().substring(0, 3);
            String node = d.placements().stream().filter(a -> a.pod().name().equals(pod)).findFirst().orElseThrow()
                    .node();
            assertThat(dev.pool()).as("device on the member's node").isEqualTo(node);
            assertThat(c.allocation().nodeSelector().get(0).matchFields().get(0).values()).containsExactly(node);
            assertThat(c.reservedFor()).containsExactly(ClaimConsumer.pod(pod, "uid-default-" + pod));
        }
    }

    @Test
    @DisplayName("a gang needing more GPUs than exist is unschedulable with the scheduler's reason, and gives back "
            + "every device to the next group")
    void notEnoughDevices() {
        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            pods.add(gpuWorker("big-" + i, "big"));
        }
        pods.add(gpuWorker("small-0", "small"));
        pods.add(gpuWorker("small-1", "small"));
        PodGroup big = gang("big", 5).priority(10).build();
        PodGroup small = gang("small", 2).build();
        DecisionResult r = decide(List.of(cpuNode("a"), cpuNode("b")), pods, List.of(big, small),
                dra(List.of(gpus("a", 2), gpus("b", 2)), List.of()));

        Decision first = r.decisions().get(0);
        assertThat(first.podGroup().name()).isEqualTo("big");
        assertThat(first.outcome()).isEqualTo(Outcome.Unschedulable);
        assertThat(first.message()).contains("cannot allocate all claims");
        assertThat(first.claims()).isEmpty();
        Decision second = r.decisions().get(1);
        assertThat(second.outcome()).isEqualTo(Outcome.Scheduled);
        assertThat(second.claims()).hasSize(2);
    }

    @Test
    @DisplayName("a PodGroup claim is allocated once, reserved for the PodGroup, and keeps every member on its node")
    void groupClaim() {
        PodClaimRef shared = new PodClaimRef("shared", null, "one-gpu");
        PodGroup g = withClaims(gang("train", 3).build(), shared);
        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            pods.add(withClaims(member(pod("w-" + i).requests("cpu", "1").build(), "train"), shared));
        }
        DecisionResult r = decide(List.of(cpuNode("a"), cpuNode("b")), pods, List.of(g),
                dra(List.of(gpus("a", 1), gpus("b", 1)), List.of()));

        Decision d = r.decisions().get(0);
        assertThat(d.outcome()).isEqualTo(Outcome.Scheduled);
        assertThat(d.placements()).extracting(a -> a.node()).containsOnly(d.placements().get(0).node());
        assertThat(d.claims()).hasSize(1);
        ClaimDecision c = d.claims().get(0);
        assertThat(c.claim().name()).isEqualTo("train-shared");
        assertThat(c.reservedFor()).containsExactly(ClaimConsumer.podGroup("train", g.uid()));
        assertThat(c.allocation().devices()).hasSize(1);
    }

    @Test
    @DisplayName("the FitError counts nodes per reason: short of devices, short of cpu")
    void fitErrorCountsNodesPerReason() {
        Node small = node("c").allocatable("cpu", "500m").allocatable("memory", "64Gi").build();
        DecisionResult r = decide(List.of(cpuNode("a"), cpuNode("b"), small),
                List.of(gpuWorker("w-0", "train")), List.of(gang("train", 1).build()),
                dra(List.of(gpus("b", 1), gpus("c", 2)), List.of(new ResourceClaim("default", "held", "uid-held",
                        oneGpu(), new AllocationResult(List.of(AllocationResult.DeviceResult.of("gpu", DRIVER, "b",
                        "gpu-0")), List.of(), null), List.of(ClaimConsumer.pod("other", "uid-other")), false))));

        Decision d = r.decisions().get(0);
        assertThat(d.outcome()).isEqualTo(Outcome.Unschedulable);
        assertThat(d.message()).contains("0/3 nodes are available: 1 Insufficient cpu, 2 cannot allocate all claims.");
    }

    @Test
    @DisplayName("devices of claims already allocated in the snapshot are not given again")
    void allocatedDevicesAreTaken() {
        ResourceClaim held = new ResourceClaim("default", "held", "uid-held", oneGpu(),
                new AllocationResult(List.of(AllocationResult.DeviceResult.of("gpu", DRIVER, "a", "gpu-0")), List.of(),
                        null), List.of(ClaimConsumer.pod("other", "uid-other")), false);
        List<Pod> pods = List.of(gpuWorker("w-0", "train"), gpuWorker("w-1", "train"));
        DecisionResult r = decide(List.of(cpuNode("a")), pods, List.of(gang("train", 2).build()),
                dra(List.of(gpus("a", 2)), List.of(held)));

        Decision d = r.decisions().get(0);
        assertThat(d.outcome()).isEqualTo(Outcome.Unschedulable);
        assertThat(d.message()).contains("cannot allocate all claims");
    }

    @Test
    @DisplayName("a claim reserved for another PodGroup is in use")
    void claimOfAnotherGroup() {
        ResourceClaim taken = new ResourceClaim("default", "taken", "uid-taken", oneGpu(),
                new AllocationResult(List.of(AllocationResult.DeviceResult.of("gpu", DRIVER, "a", "gpu-0")), List.of(),
                        null), List.of(ClaimConsumer.podGroup("someone-else", "uid-x")), false);
        Pod p = withClaims(member(pod("w-0").requests("cpu", "1").build(), "train"),
                new PodClaimRef("gpu", "taken", null));
        DecisionResult r = decide(List.of(cpuNode("a")), List.of(p), List.of(gang("train", 1).build()),
                dra(List.of(gpus("a", 2)), List.of(taken)));

        Decision d = r.decisions().get(0);
        assertThat(d.outcome()).isEqualTo(Outcome.Unschedulable);
        assertThat(d.message()).contains("resourceclaim \"taken\" is in use by PodGroup \"someone-else\"");
    }

    @Test
    @DisplayName("an allocated claim pins its pod to the nodes of its allocation, and its reservedFor grows")
    void allocatedClaimPinsThePod() {
        ResourceClaim pinned = new ResourceClaim("default", "pinned", "uid-pinned", oneGpu(),
                new AllocationResult(List.of(AllocationResult.DeviceResult.of("gpu", DRIVER, "b", "gpu-0")), List.of(),
                        List.of(new dev.muster.core.model.NodeSelectorTerm(List.of(), List.of(
                                new dev.muster.core.model.NodeSelectorRequirement("metadata.name",
                                        dev.muster.core.model.NodeSelectorRequirement.Operator.In, List.of("b")))))),
                List.of(), false);
        Pod p = withClaims(member(pod("w-0").requests("cpu", "1").build(), "train"),
                new PodClaimRef("gpu", "pinned", null));
        DecisionResult r = decide(List.of(cpuNode("a"), cpuNode("b"), cpuNode("c")), List.of(p),
                List.of(gang("train", 1).build()), dra(List.of(gpus("a", 1), gpus("b", 1)), List.of(pinned)));

        Decision d = r.decisions().get(0);
        assertThat(d.outcome()).isEqualTo(Outcome.Scheduled);
        assertThat(d.placements().get(0).node()).isEqualTo("b");
        assertThat(d.claims()).hasSize(1);
        assertThat(d.claims().get(0).generatedFrom()).isNull();
        assertThat(d.claims().get(0).allocation()).isEqualTo(pinned.allocation());
        assertThat(d.claims().get(0).reservedFor()).containsExactly(ClaimConsumer.pod("w-0", "uid-default-w-0"));
    }

    @Test
    @DisplayName("generated claim names shorten both parts in proportion, as the claim controller does")
    void generatedNames() {
        assertThat(dev.muster.core.dra.GeneratedClaimNames.base("train-0", "gpu")).isEqualTo("train-0-gpu");
        String longName = dev.muster.core.dra.GeneratedClaimNames.base("p".repeat(60), "c".repeat(20));
        assertThat(longName.length()).isLessThanOrEqualTo(57);
        assertThat(longName).startsWith("ppp").contains("-c");
    }

    /** Selects devices whose string attribute {@code size} has a value. */
    record SizeIs(String size) implements DeviceSelector {
        @Override
        public String expression() {
            return "device.attributes['" + DRIVER + "'].size == '" + size + "'";
        }

        @Override
        public boolean matches(SelectorDevice device) {
            DeviceAttribute a = device.attributes().getOrDefault(DRIVER, Map.of()).get("size");
            return a instanceof DeviceAttribute.StringValue v && v.value().equals(size);
        }
    }

    /**
     * One GPU that can be used whole or as two halves, all drawing on one counter of 2: whole takes both, each half
     * one. A claim asks for a whole GPU first, else a half.
     */
    private static DraObjects partitionable() {
        java.util.function.BiFunction<String, String, Device> dev = (name, units) -> new Device(name,
                Map.of("size", new DeviceAttribute.StringValue(name.startsWith("whole") ? "whole" : "half")), Map.of(),
                List.of(new Device.CounterConsumption("gpu-0", Map.of("units", units))), null, false, false, null,
                null, null, null, false);
        ResourceSlice.Pool pool = new ResourceSlice.Pool("a", 1, 2);
        ResourceSlice devices = ResourceSlice.onNode("a-devices", DRIVER, pool, "a",
                List.of(dev.apply("whole", "2"), dev.apply("half-1", "1"), dev.apply("half-2", "1")));
        ResourceSlice counters = new ResourceSlice("a-counters", DRIVER, pool, "a", null, false, false, null,
                List.of(new ResourceSlice.CounterSet("gpu-0", Map.of("units", "2"))));
        ResourceClaimSpec wholeElseHalf = new ResourceClaimSpec(List.of(ResourceClaimSpec.Request.firstAvailable("gpu",
                List.of(ResourceClaimSpec.SubRequest.of("whole", "whole", 1),
                        ResourceClaimSpec.SubRequest.of("half", "half", 1)))), List.of(), List.of());
        return new DraObjects(List.of(new DeviceClass("whole", List.of(new SizeIs("whole")), List.of()),
                new DeviceClass("half", List.of(new SizeIs("half")), List.of())), List.of(devices, counters), List.of(),
                List.of(new ResourceClaimTemplate("default", "one-gpu", wholeElseHalf)));
    }

    @Test
    @DisplayName("beyond upstream: a gang that fits only if an earlier member takes a half instead of the whole GPU "
            + "is scheduled by the bounded search, and the greedy pass alone leaves it unschedulable")
    void deviceChoicesAreSearched() {
        List<Pod> pods = List.of(gpuWorker("w-0", "train"), gpuWorker("w-1", "train"));
        List<PodGroup> groups = List.of(gang("train", 2).build());
        DecisionRequest request = new DecisionRequest(new ClusterState(List.of(cpuNode("a")), pods, groups,
                List.of(), List.of()), null, new DecisionOptions(true, true), partitionable());

        Decision greedy = new DecisionEngine(new EngineConfig(0, 1, 1024)).decide(request).decisions().get(0);
        assertThat(greedy.outcome()).isEqualTo(Outcome.Unschedulable);
        assertThat(greedy.message()).contains("cannot allocate all claims");

        Decision searched = engine.decide(request).decisions().get(0);
        assertThat(searched.outcome()).isEqualTo(Outcome.Scheduled);
        assertThat(searched.claims()).extracting(c -> c.allocation().devices().get(0).device())
                .containsExactlyInAnyOrder("half-1", "half-2");
        assertThat(searched.claims()).extracting(c -> c.allocation().devices().get(0).request())
                .containsOnly("gpu/half");
        assertThat(searched.explanation().search().found()).isTrue();
    }

    @Test
    @DisplayName("a GPU gang preempts lower-priority pods that hold the GPUs: their claims are released in the "
            + "simulation and the nominated members get the devices")
    void preemptionReleasesVictimClaims() {
        List<ResourceClaim> claims = new ArrayList<>();
        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            String name = "low-" + i;
            claims.add(new ResourceClaim("default", name + "-gpu", "uid-c" + i, oneGpu(),
                    new AllocationResult(List.of(AllocationResult.DeviceResult.of("gpu", DRIVER, "a", "gpu-" + i)),
                            List.of(), null), List.of(ClaimConsumer.pod(name, "uid-default-" + name)), false));
            pods.add(withClaims(pod(name).requests("cpu", "1").on("a").build(),
                    new PodClaimRef("gpu", name + "-gpu", null)));
        }
        pods.add(gpuWorker("w-0", "train"));
        pods.add(gpuWorker("w-1", "train"));
        DecisionResult r = decide(List.of(cpuNode("a")), pods, List.of(gang("train", 2).priority(100).build()),
                dra(List.of(gpus("a", 2)), claims));

        Decision d = r.decisions().get(0);
        assertThat(d.outcome()).isEqualTo(Outcome.Preempting);
        assertThat(d.victims()).extracting(v -> v.pod().name()).containsExactly("low-0", "low-1");
        assertThat(d.nominations()).hasSize(2);
        assertThat(d.claims()).extracting(c -> c.allocation().devices().get(0).device())
                .containsExactlyInAnyOrder("gpu-0", "gpu-1");
    }

    @Test
    @DisplayName("a GPU gang does not preempt pods whose claims another running pod still uses")
    void sharedVictimClaimIsKept() {
        ResourceClaim shared = new ResourceClaim("default", "shared", "uid-s", oneGpu(),
                new AllocationResult(List.of(AllocationResult.DeviceResult.of("gpu", DRIVER, "a", "gpu-0")),
                        List.of(), null), List.of(ClaimConsumer.pod("low", "uid-default-low"),
                ClaimConsumer.pod("keeper", "uid-default-keeper")), false);
        Pod low = withClaims(pod("low").requests("cpu", "1").on("a").build(), new PodClaimRef("gpu", "shared", null));
        Pod keeper = withClaims(member(pod("keeper").requests("cpu", "1").on("a").build(), "vip"),
                new PodClaimRef("gpu", "shared", null));
        DecisionResult r = decide(List.of(cpuNode("a")), List.of(low, keeper, gpuWorker("w-0", "train")),
                List.of(gang("train", 1).priority(100).build(), gang("vip", 1).priority(1000).build()),
                dra(List.of(gpus("a", 1)), List.of(shared)));

        Decision d = r.decisions().stream().filter(x -> x.podGroup().name().equals("train")).findFirst().orElseThrow();
        assertThat(d.outcome()).isEqualTo(Outcome.Unschedulable);
        assertThat(d.victims()).isEmpty();
    }
}
