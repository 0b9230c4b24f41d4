package dev.muster.core.properties;

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
import dev.muster.core.dra.DraObjects;
import dev.muster.core.dra.ResourceClaim;
import dev.muster.core.dra.ResourceClaimSpec;
import dev.muster.core.dra.ResourceClaimTemplate;
import dev.muster.core.dra.ResourceSlice;
import dev.muster.core.model.ClusterState;
import dev.muster.core.model.Node;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodClaimRef;
import dev.muster.core.model.PodGroup;
import dev.muster.core.model.TaintEffect;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
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
 * A candidate placement equivalent to one that ran already is not run again: it gets that run's outcome on its own
 * nodes. On clusters of racks that are copies of each other with small random differences (a bound pod, a taint, a
 * label a member selects by, a GPU held by a snapshot claim, a zone label), the engine that shares work decides
 * exactly as the engine that runs every candidate in full: same placements, same placement reports, same claims.
 */
class PlacementSymmetryEquivalenceTest {
    private static final String RACK = "topology.kubernetes.io/rack";
    private static final String DRIVER = "gpu.example.com";
    private static final DecisionEngine SHARED = new DecisionEngine(EngineConfig.DEFAULT);
    private static final DecisionEngine FULL = new DecisionEngine(new EngineConfig(
            EngineConfig.DEFAULT.searchBudget(), 1, EngineConfig.DEFAULT.parallelThreshold(), false));

    static LongStream seeds() {
        return LongStream.rangeClosed(1, 200);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    @DisplayName("sharing work between equivalent racks changes no decision")
    void symmetryChangesNoDecision(long seed) {
        DecisionRequest request = request(seed);
        assertThat(SHARED.decide(request)).as("seed %d", seed).isEqualTo(FULL.decide(request));
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    @DisplayName("racks a zone boundary splits at different positions: equivalent for members with devices")
    void zoneSplitsChangeNoDecisionForMembersWithDevices(long seed) {
        // members claiming devices make the bounded search merge no nodes, so how labels split a rack's nodes does
        // not keep racks apart; the full run must agree
        DecisionRequest request = request(seed, true);
        assertThat(SHARED.decide(request)).as("seed %d", seed).isEqualTo(FULL.decide(request));
    }

    @Test
    @DisplayName("the generated racks place some gangs and fail others, with and without devices")
    void generatorCoversBothOutcomes() {
        int scheduled = 0;
        int failed = 0;
        for (long seed = 1; seed <= 200; seed++) {
            for (Decision d : SHARED.decide(request(seed)).decisions()) {
                if (d.outcome() == Outcome.Scheduled) {
                    scheduled++;
                } else {
                    failed++;
                }
            }
        }
        assertThat(scheduled).isGreaterThan(40);
        assertThat(failed).isGreaterThan(20);
    }

    static DecisionRequest request(long seed) {
        return request(seed, false);
    }

    /** @param zoneSplits every rack has devices and a zone boundary at a random position of its own */
    static DecisionRequest request(long seed, boolean zoneSplits) {
        Random rnd = new Random(seed);
        boolean devices = rnd.nextBoolean() || zoneSplits;
        int racks = 3 + rnd.nextInt(4);
        int perRack = 2 + rnd.nextInt(3);
        int cpu = 2 + rnd.nextInt(3);
        int gpus = 1 + rnd.nextInt(3);
        List<Node> nodes = new ArrayList<>();
        List<Pod> pods = new ArrayList<>();
        List<ResourceSlice> slices = new ArrayList<>();
        List<ResourceClaim> claims = new ArrayList<>();
        for (int r = 0; r < racks; r++) {
            int boundary = zoneSplits ? rnd.nextInt(perRack + 1) : 0;
            for (int i = 0; i < perRack; i++) {
                String name = String.format("r%d-n%d", r, i);
                var b = node(name).label(RACK, "rack-" + r).label("kubernetes.io/hostname", name)
                        .allocatable("cpu", String.valueOf(cpu)).allocatable("memory", "16Gi");
                if (zoneSplits) {
                    b.label("topology.kubernetes.io/zone", i < boundary ? "z0" : "z1");
                }
                int change = rnd.nextInt(12);
                if (change == 0) {
                    b.taint("maintenance", "true", TaintEffect.NoSchedule);
                } else if (change == 1) {
                    b.label("disk", "slow");
                } else if (change == 2) {
                    b.label("topology.kubernetes.io/zone", "z" + rnd.nextInt(2));
                } else if (change == 3) {
                    pods.add(pod("busy-" + name).requests("cpu", "1").on(name).build());
                }
                nodes.add(b.build());
                if (devices) {
                    List<Device> list = new ArrayList<>();
                    for (int d = 0; d < gpus; d++) {
                        list.add(Device.of("gpu-" + d, Map.of("index", new DeviceAttribute.IntValue(d)), Map.of()));
                    }
                    slices.add(ResourceSlice.onNode(name + "-gpus", DRIVER, new ResourceSlice.Pool(name, 1, 1), name,
                            list));
                    if (change == 4) {
                        claims.add(new ResourceClaim("default", "held-" + name, "uid-held-" + name, oneGpu(),
                                new AllocationResult(List.of(AllocationResult.DeviceResult.of("gpu", DRIVER, name,
                                        "gpu-0")), List.of(), null),
                                List.of(ClaimConsumer.pod("other-" + name, "uid-other-" + name)), false));
                    }
                }
            }
        }
        List<PodGroup> groups = new ArrayList<>();
        int groupCount = 1 + rnd.nextInt(2);
        for (int g = 0; g < groupCount; g++) {
            String group = "g" + g;
            int members = 1 + rnd.nextInt(perRack * Math.max(cpu, gpus));
            groups.add(gang(group, members).topology(RACK).created(1_700_000_000L + g).build());
            boolean selects = rnd.nextInt(4) == 0;
            for (int m = 0; m < members; m++) {
                var pb = pod(group + "-" + m).requests("cpu", String.valueOf(1 + rnd.nextInt(2)));
                if (selects) {
                    pb.nodeSelector("disk", "slow");
                }
                Pod p = member(pb.build(), group);
                if (devices) {
                    p = withClaims(p, new PodClaimRef("gpu", null, "one-gpu"));
                }
                pods.add(p);
            }
        }
        DraObjects dra = devices
                ? new DraObjects(List.of(new DeviceClass("gpu", List.of(new DraBatchingEquivalenceTest.Driver()),
                List.of())), slices, claims, List.of(new ResourceClaimTemplate("default", "one-gpu", oneGpu())))
                : null;
        return new DecisionRequest(new ClusterState(nodes, pods, groups, List.of(), List.of()), null,
                new DecisionOptions(true, true), dra);
    }

    private static ResourceClaimSpec oneGpu() {
        return new ResourceClaimSpec(List.of(ResourceClaimSpec.Request.exactly("gpu",
                ResourceClaimSpec.ExactRequest.of("gpu", 1))), List.of(), List.of());
    }

    private static Pod withClaims(Pod p, PodClaimRef... claims) {
        return new Pod(p.ref(), p.uid(), p.labels(), p.creationEpochSec(), p.nodeName(), p.phase(), p.schedulerName(),
                p.requests(), p.priority(), p.priorityClassName(), p.preemptionPolicy(), p.nodeSelector(),
                p.affinity(), p.tolerations(), p.hostPorts(), p.topologySpreadConstraints(), p.schedulingGates(),
                p.podGroupName(), List.of(claims), p.nominatedNodeName(), p.terminating(), Map.of());
    }
}
