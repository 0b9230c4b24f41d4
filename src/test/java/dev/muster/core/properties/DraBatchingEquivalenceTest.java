package dev.muster.core.properties;

import dev.muster.core.decision.Decision;
import dev.muster.core.decision.DecisionEngine;
import dev.muster.core.decision.DecisionOptions;
import dev.muster.core.decision.DecisionRequest;
import dev.muster.core.dra.ClaimCatalog;
import dev.muster.core.snapshot.ClusterSnapshot;
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
import dev.muster.core.model.NodeSelectorRequirement;
import dev.muster.core.model.NodeSelectorTerm;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodClaimRef;
import dev.muster.core.model.PodGroup;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.LongStream;

import static dev.muster.core.testing.Groups.gang;
import static dev.muster.core.testing.Groups.member;
import static dev.muster.core.testing.Nodes.node;
import static dev.muster.core.testing.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Members with resource claims take part in opportunistic batching when their claims are node-local (their own,
 * from templates, devices on nodes' own slices): a kept evaluation is refreshed from the nodes that changed. That
 * must not change any decision. On generated clusters (GPUs per node, some taken by snapshot claims, racks, gangs of
 * one- and two-GPU members, a second group competing, and sometimes a shared pool or a PodGroup claim that makes
 * verdicts non-local, and plain pods with claims beside them), the batched engine decides exactly as the engine that
 * evaluates every member in full, and no device is given twice.
 */
class DraBatchingEquivalenceTest {
    private static final String DRIVER = "gpu.example.com";
    private static final String NETWORK = "net.example.com";
    private static final DecisionEngine BATCHED = new DecisionEngine(EngineConfig.DEFAULT);
    private static final DecisionEngine FULL = new DecisionEngine(new EngineConfig(
            EngineConfig.DEFAULT.searchBudget(), 1, EngineConfig.DEFAULT.parallelThreshold(), false));

    record Driver() implements DeviceSelector {
        @Override
        public String expression() {
            return "device.driver == '" + DRIVER + "'";
        }

        @Override
        public boolean matches(SelectorDevice device) {
            return device.driver().equals(DRIVER);
        }
    }

    record Network() implements DeviceSelector {
        @Override
        public String expression() {
            return "device.driver == '" + NETWORK + "'";
        }

        @Override
        public boolean matches(SelectorDevice device) {
            return device.driver().equals(NETWORK);
        }
    }

    /** Selects devices whose {@code index} attribute is even: makes device choices on a node matter. */
    record EvenIndex() implements DeviceSelector {
        @Override
        public String expression() {
            return "device.attributes['" + DRIVER + "'].index % 2 == 0";
        }

        @Override
        public boolean matches(SelectorDevice device) {
            DeviceAttribute a = device.attributes().getOrDefault(DRIVER, Map.of()).get("index");
            return a instanceof DeviceAttribute.IntValue i && i.value() % 2 == 0;
        }
    }

    static LongStream seeds() {
        return LongStream.rangeClosed(1, 150);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    @DisplayName("batched and full evaluation decide the same for members with claims")
    void batchingChangesNoDecision(long seed) {
        DecisionRequest request = request(seed);
        DecisionResult batched = BATCHED.decide(request);
        DecisionResult full = FULL.decide(request);
        assertThat(batched).as("seed %d", seed).isEqualTo(full);
        assertNoDeviceTwice(batched, seed);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    @DisplayName("a snapshot compiled before the DRA objects and completed with them decides as the whole one")
    void earlySnapshotChangesNoDecision(long seed) {
        DecisionRequest request = request(seed);
        ClusterSnapshot early = ClusterSnapshot.withoutDra(request.cluster());
        assertThat(early).as("no pod asks for extended resources").isNotNull();
        ClaimCatalog catalog = new ClaimCatalog(request.dra()).warm();
        DecisionResult whole = BATCHED.decide(new ClusterSnapshot(request.cluster(), request.dra(), () -> catalog),
                request.podGroups(), request.options(), () -> false);
        DecisionResult completed = BATCHED.decide(early.withDra(request.dra(), () -> catalog), request.podGroups(),
                request.options(), () -> false);
        assertThat(completed).as("seed %d", seed).isEqualTo(whole);
        // as the service compiles it: the catalog warmed for the early snapshot's nodes, in its order
        java.util.List<dev.muster.core.model.Node> nodes = new java.util.ArrayList<>();
        for (int i = 0; i < early.nodeCount(); i++) {
            nodes.add(early.nodeObject(i));
        }
        ClaimCatalog byPosition = new ClaimCatalog(request.dra()).warmShare(nodes).warmShare(nodes);
        DecisionResult positional = BATCHED.decide(early.withDra(request.dra(), () -> byPosition), request.podGroups(),
                request.options(), () -> false);
        assertThat(positional).as("seed %d, warmed by position", seed).isEqualTo(whole);
    }

    @Test
    @DisplayName("the generated requests exercise both outcomes and the node-local path")
    void generatorCoversBothOutcomes() {
        int scheduled = 0;
        int failed = 0;
        for (long seed = 1; seed <= 150; seed++) {
            for (Decision d : BATCHED.decide(request(seed)).decisions()) {
                if (d.outcome() == Outcome.Scheduled) {
                    scheduled++;
                } else {
                    failed++;
                }
            }
        }
        assertThat(scheduled).isGreaterThan(30);
        assertThat(failed).isGreaterThan(10);
    }

    private static void assertNoDeviceTwice(DecisionResult r, long seed) {
        Map<String, String> owner = new HashMap<>();
        for (Decision d : r.decisions()) {
            for (var c : d.claims()) {
                for (AllocationResult.DeviceResult dev : c.allocation().devices()) {
                    String id = dev.pool() + "/" + dev.device();
                    String before = owner.put(id, c.claim().name());
                    assertThat(before).as("seed %d: device %s given to %s and %s", seed, id, before, c.claim().name())
                            .isNull();
                }
            }
        }
    }

    static DecisionRequest request(long seed) {
        Random rnd = new Random(seed);
        int nodes = 2 + rnd.nextInt(7);
        boolean racks = rnd.nextBoolean();
        boolean partitions = rnd.nextInt(4) == 0;
        List<Node> nodeList = new ArrayList<>();
        List<ResourceSlice> slices = new ArrayList<>();
        List<ResourceClaim> claims = new ArrayList<>();
        List<Pod> pods = new ArrayList<>();
        for (int n = 0; n < nodes; n++) {
            String name = "n" + n;
            var b = node(name).allocatable("cpu", String.valueOf(2 + rnd.nextInt(6))).allocatable("memory", "64Gi");
            if (racks) {
                b.label("rack", "r" + (n % 2));
            }
            nodeList.add(b.build());
            int gpus = rnd.nextInt(5);
            List<Device> devices = new ArrayList<>();
            for (int i = 0; i < gpus; i++) {
                devices.add(Device.of("gpu-" + i, Map.of("index", new DeviceAttribute.IntValue(i)), Map.of()));
            }
            if (gpus > 0 && partitions) {
                // partitionable GPUs: each a counter set, the whole GPU and halves consuming it; the counters declared
                // in a slice of their own that names no node
                List<Device> parts = new ArrayList<>();
                List<ResourceSlice.CounterSet> sets = new ArrayList<>();
                for (int i = 0; i < gpus; i++) {
                    String set = "gpu-" + i + "-counters";
                    sets.add(new ResourceSlice.CounterSet(set, Map.of("memory", "8")));
                    parts.add(partition("gpu-" + i, 2 * i, set, "8"));
                    parts.add(partition("gpu-" + i + "-half-0", 2 * i, set, "4"));
                    parts.add(partition("gpu-" + i + "-half-1", 2 * i + 1, set, "4"));
                }
                slices.add(ResourceSlice.onNode(name + "-gpus", DRIVER, new ResourceSlice.Pool(name, 1, 2), name,
                        parts));
                slices.add(new ResourceSlice(name + "-counters", DRIVER, new ResourceSlice.Pool(name, 1, 2), null,
                        null, false, false, List.of(), sets));
            } else if (gpus > 0) {
                slices.add(ResourceSlice.onNode(name + "-gpus", DRIVER, new ResourceSlice.Pool(name, 1, 1), name,
                        devices));
                if (rnd.nextInt(4) == 0) {
                    String held = "held-" + n;
                    claims.add(new ResourceClaim("default", held, "uid-" + held, spec(1, false),
                            new AllocationResult(List.of(AllocationResult.DeviceResult.of("gpu", DRIVER, name,
                                    "gpu-" + rnd.nextInt(gpus))), List.of(), null),
                            List.of(ClaimConsumer.pod("other-" + n, "uid-other-" + n)), false));
                }
            }
        }
        boolean sharedPool = rnd.nextInt(5) == 0;
        if (sharedPool) {
            List<Device> devices = List.of(Device.of("net-0", Map.of("index", new DeviceAttribute.IntValue(0)),
                    Map.of()));
            slices.add(new ResourceSlice("fabric", DRIVER, new ResourceSlice.Pool("fabric", 1, 1), null, null, true,
                    false, devices, List.of()));
        }
        // a network pool of another driver, reachable from every node or per rack, that the GPU requests cannot take
        boolean network = rnd.nextInt(3) == 0;
        if (network) {
            int channels = 1 + rnd.nextInt(2);
            for (int r = 0; r < (racks ? 2 : 1); r++) {
                List<Device> devices = new ArrayList<>();
                for (int c = 0; c < channels; c++) {
                    devices.add(Device.of("channel-" + c, Map.of(), Map.of()));
                }
                List<NodeSelectorTerm> inRack = racks ? List.of(new NodeSelectorTerm(List.of(
                        new NodeSelectorRequirement("rack", NodeSelectorRequirement.Operator.In, List.of("r" + r))),
                        List.of())) : null;
                slices.add(new ResourceSlice("net-" + r, NETWORK, new ResourceSlice.Pool("net-" + r, 1, 1), null,
                        inRack, !racks, false, devices, List.of()));
            }
        }
        List<ResourceClaimTemplate> templates = List.of(
                new ResourceClaimTemplate("default", "one-gpu", spec(1, false)),
                new ResourceClaimTemplate("default", "two-gpus", spec(2, false)),
                new ResourceClaimTemplate("default", "even-gpu", spec(1, true)),
                new ResourceClaimTemplate("default", "channel", new ResourceClaimSpec(List.of(
                        ResourceClaimSpec.Request.exactly("channel", ResourceClaimSpec.ExactRequest.of("net", 1))),
                        List.of(), List.of())));
        List<PodGroup> groups = new ArrayList<>();
        int groupCount = 1 + rnd.nextInt(2);
        for (int g = 0; g < groupCount; g++) {
            String group = "g" + g;
            int members = 1 + rnd.nextInt(6);
            int min = 1 + rnd.nextInt(members);
            var gb = gang(group, min).created(1_700_000_000L + g);
            if (racks && rnd.nextBoolean()) {
                gb.topology("rack");
            }
            PodGroup pg = gb.build();
            boolean groupClaim = rnd.nextInt(network ? 2 : 6) == 0;
            String groupTemplate = network ? "channel" : "one-gpu";
            if (groupClaim) {
                pg = withClaims(pg, new PodClaimRef("shared", null, groupTemplate));
            }
            groups.add(pg);
            for (int m = 0; m < members; m++) {
                String template = switch (rnd.nextInt(4)) {
                    case 0 -> "two-gpus";
                    case 1 -> "even-gpu";
                    default -> "one-gpu";
                };
                List<PodClaimRef> refs = new ArrayList<>();
                refs.add(new PodClaimRef("gpu", null, template));
                if (groupClaim) {
                    refs.add(new PodClaimRef("shared", null, groupTemplate));
                }
                String podName = group + "-" + m;
                Map<String, String> statuses = generatedClaim(rnd, podName, template, slices, claims);
                pods.add(withClaims(member(pod(podName).requests("cpu", "1").build(), group), refs, statuses));
            }
        }
        // plain pods (in no group) with claims: from templates, now and then one named directly that is not there
        int plain = rnd.nextInt(4);
        for (int i = 0; i < plain; i++) {
            String podName = "plain-" + i;
            String template = rnd.nextBoolean() ? "one-gpu" : "two-gpus";
            List<PodClaimRef> refs = rnd.nextInt(5) == 0 ? List.of(new PodClaimRef("gpu", "missing-" + i, null))
                    : List.of(new PodClaimRef("gpu", null, template));
            Map<String, String> statuses = generatedClaim(rnd, podName, template, slices, claims);
            pods.add(withClaims(pod(podName).requests("cpu", "1").build(), refs, statuses));
        }
        return new DecisionRequest(new ClusterState(nodeList, pods, groups, List.of(), List.of()), null,
                new DecisionOptions(true, true),
                new DraObjects(List.of(new DeviceClass("gpu", List.of(new Driver()), List.of()),
                        new DeviceClass("net", List.of(new Network()), List.of())), slices, claims, templates));
    }

    /**
     * Half the time the controller has already made the member's claim from its template, as in a real cluster: a new
     * spec object equal to the template's, now and then a spec that differs from it (the template changed after the
     * claim was made), and now and then a claim already allocated and reserved for the pod (an attempt whose binding
     * failed). Returns the pod's {@code status.resourceClaimStatuses}.
     */
    private static Map<String, String> generatedClaim(Random rnd, String pod, String template,
                                                      List<ResourceSlice> slices, List<ResourceClaim> claims) {
        if (rnd.nextBoolean()) {
            return Map.of();
        }
        String name = pod + "-gpu-" + Integer.toString(rnd.nextInt(1 << 20), 36);
        ResourceClaimSpec spec = switch (template) {
            case "two-gpus" -> spec(2, false);
            case "even-gpu" -> spec(1, true);
            default -> spec(1, false);
        };
        if (rnd.nextInt(6) == 0) {
            spec = spec(template.equals("two-gpus") ? 1 : 2, false);
        }
        AllocationResult allocation = null;
        List<ClaimConsumer> reservedFor = List.of();
        if (rnd.nextInt(8) == 0 && !slices.isEmpty()) {
            ResourceSlice s = slices.get(rnd.nextInt(slices.size()));
            if (s.nodeName() != null && !s.devices().isEmpty()) {
                allocation = new AllocationResult(List.of(AllocationResult.DeviceResult.of("gpu", DRIVER,
                        s.pool().name(), s.devices().get(rnd.nextInt(s.devices().size())).name())), List.of(),
                        List.of(new NodeSelectorTerm(List.of(), List.of(new NodeSelectorRequirement("metadata.name",
                                NodeSelectorRequirement.Operator.In, List.of(s.nodeName()))))));
                reservedFor = List.of(ClaimConsumer.pod(pod, "uid-default-" + pod));
            }
        }
        claims.add(new ResourceClaim("default", name, "uid-" + name, spec, allocation, reservedFor, false));
        return Map.of("gpu", name);
    }

    private static Device partition(String name, int index, String counterSet, String memory) {
        return new Device(name, Map.of("index", new DeviceAttribute.IntValue(index)), Map.of(),
                List.of(new Device.CounterConsumption(counterSet, Map.of("memory", memory))), null, false, false, null,
                null, null, null, false);
    }

    private static ResourceClaimSpec spec(int count, boolean even) {
        ResourceClaimSpec.ExactRequest e = ResourceClaimSpec.ExactRequest.of("gpu", count);
        if (even) {
            e = new ResourceClaimSpec.ExactRequest(e.deviceClassName(), List.of(new EvenIndex()), e.allocationMode(),
                    e.count(), e.adminAccess(), e.tolerations(), e.capacityRequests());
        }
        return new ResourceClaimSpec(List.of(ResourceClaimSpec.Request.exactly("gpu", e)), List.of(), List.of());
    }

    private static Pod withClaims(Pod p, List<PodClaimRef> claims, Map<String, String> statuses) {
        return new Pod(p.ref(), p.uid(), p.labels(), p.creationEpochSec(), p.nodeName(), p.phase(), p.schedulerName(),
                p.requests(), p.priority(), p.priorityClassName(), p.preemptionPolicy(), p.nodeSelector(),
                p.affinity(), p.tolerations(), p.hostPorts(), p.topologySpreadConstraints(), p.schedulingGates(),
                p.podGroupName(), claims, p.nominatedNodeName(), p.terminating(), statuses);
    }

    private static PodGroup withClaims(PodGroup g, PodClaimRef... claims) {
        return new PodGroup(g.ref(), g.uid(), g.generation(), g.creationEpochSec(), g.policy(), g.topologyKeys(),
                List.of(claims), g.disruptionMode(), g.priorityClassName(), g.priority(), g.conditions(),
                g.annotations(), Map.of());
    }
}
