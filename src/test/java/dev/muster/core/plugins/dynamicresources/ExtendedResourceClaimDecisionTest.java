package dev.muster.core.plugins.dynamicresources;

import dev.muster.core.decision.Decision;
import dev.muster.core.decision.DecisionEngine;
import dev.muster.core.decision.DecisionOptions;
import dev.muster.core.decision.DecisionRequest;
import dev.muster.core.decision.EngineConfig;
import dev.muster.core.decision.Outcome;
import dev.muster.core.dra.AllocationResult;
import dev.muster.core.dra.ClaimConsumer;
import dev.muster.core.dra.DeviceClass;
import dev.muster.core.dra.DraObjects;
import dev.muster.core.dra.ResourceClaim;
import dev.muster.core.dra.ResourceClaimSpec;
import dev.muster.core.model.ClusterState;
import dev.muster.core.model.ExtendedClaimStatus;
import dev.muster.core.model.ExtendedRequest;
import dev.muster.core.model.Node;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodGroup;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.muster.core.plugins.dynamicresources.DynamicResourcesDecisionTest.DRIVER;
import static dev.muster.core.plugins.dynamicresources.DynamicResourcesDecisionTest.cpuNode;
import static dev.muster.core.plugins.dynamicresources.DynamicResourcesDecisionTest.gpus;
import static dev.muster.core.testing.Groups.gang;
import static dev.muster.core.testing.Groups.member;
import static dev.muster.core.testing.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The claim kube-scheduler made for a pod's extended-resource requests, as the pod's
 * {@code status.extendedResourceClaimStatus} names it or as its annotation and controlling owner tie it to the pod:
 * released with its pod in a preemption trial, and never reused by a pending pod (upstream deletes such a leftover
 * before trying again).
 */
class ExtendedResourceClaimDecisionTest {
    private static final String GPU = "example.com/gpu";
    private final DecisionEngine engine = new DecisionEngine(EngineConfig.DEFAULT);

    private static DeviceClass gpuClass() {
        return new DeviceClass("gpu", List.of(new DynamicResourcesDecisionTest.DriverIs(DRIVER)), List.of(), GPU, 1);
    }

    /** The pod with one container "main" asking for {@code count} GPUs, and the status naming its claim (or none). */
    private static Pod gpuPod(Pod p, long count, String claimName) {
        ExtendedClaimStatus status = claimName == null ? null : new ExtendedClaimStatus(claimName,
                List.of(new ExtendedClaimStatus.Mapping("main", GPU, "container-0-request-1")));
        return new Pod(p.ref(), p.uid(), p.labels(), p.creationEpochSec(), p.nodeName(), p.phase(), p.schedulerName(),
                p.requests(), p.priority(), p.priorityClassName(), p.preemptionPolicy(), p.nodeSelector(),
                p.affinity(), p.tolerations(), p.hostPorts(), p.topologySpreadConstraints(), p.schedulingGates(),
                p.podGroupName(), p.resourceClaims(), p.nominatedNodeName(), p.terminating(),
                p.resourceClaimStatuses(), p.role(),
                List.of(new ExtendedRequest(0, "main", GPU, 1, count, false)), status);
    }

    /** The extended-resource claim as kube-scheduler wrote it: allocated to {@code device} on node a. */
    private static ResourceClaim madeClaim(String pod, String name, String device) {
        ResourceClaimSpec spec = new ResourceClaimSpec(List.of(ResourceClaimSpec.Request.exactly(
                "container-0-request-1", ResourceClaimSpec.ExactRequest.of("gpu", 1))), List.of(), List.of());
        return new ResourceClaim("default", name, "uid-" + name, spec,
                new AllocationResult(List.of(AllocationResult.DeviceResult.of("container-0-request-1", DRIVER, "a",
                        device)), List.of(), null), List.of(ClaimConsumer.pod(pod, "uid-default-" + pod)), false);
    }

    /** {@link #madeClaim} annotated as an extended-resource claim whose controlling owner is {@code owner}. */
    private static ResourceClaim owned(ResourceClaim c, String owner, String ownerUid) {
        return new ResourceClaim(c.namespace(), c.name(), c.uid(), c.spec(), c.allocation(), c.reservedFor(),
                c.deleting(), new ResourceClaim.MadeFor(owner, ownerUid));
    }

    private enum Link { STATUS, OWNER, NONE }

    private Decision decide(List<Node> nodes, List<Pod> pods, List<PodGroup> groups, List<ResourceClaim> claims) {
        DraObjects dra = new DraObjects(List.of(gpuClass()), List.of(gpus("a", 2)), claims, List.of());
        return engine.decide(new DecisionRequest(new ClusterState(nodes, pods, groups, List.of(), List.of()), null,
                new DecisionOptions(true, true), dra)).decisions().stream()
                .filter(d -> d.podGroup().name().equals("train")).findFirst().orElseThrow();
    }

    /** Two low-priority pods on node a, each holding one of its two GPUs through its extended-resource claim. */
    private Decision preemptFor(Link link) {
        List<ResourceClaim> claims = new ArrayList<>();
        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            String name = "low-" + i;
            String claim = name + "-extended-resources-x7k2p";
            ResourceClaim made = madeClaim(name, claim, "gpu-" + i);
            claims.add(link == Link.OWNER ? owned(made, name, "uid-default-" + name) : made);
            pods.add(gpuPod(pod(name).requests("cpu", "1").on("a").build(), 1, link == Link.STATUS ? claim : null));
        }
        pods.add(gpuPod(member(pod("w-0").requests("cpu", "1").build(), "train"), 1, null));
        pods.add(gpuPod(member(pod("w-1").requests("cpu", "1").build(), "train"), 1, null));
        return decide(List.of(cpuNode("a")), pods, List.of(gang("train", 2).priority(100).build()), claims);
    }

    @Test
    @DisplayName("a GPU gang preempts pods whose GPUs their extended-resource claims hold: the claims are released "
            + "with their pods and the gang's own claims get those GPUs")
    void preemptionReleasesExtendedClaims() {
        assertReleased(preemptFor(Link.STATUS));
    }

    @Test
    @DisplayName("a victim's extended-resource claim is found by its annotation and controlling owner when the pod's "
            + "status does not name it yet, and released with the pod")
    void ownedClaimsAreReleased() {
        assertReleased(preemptFor(Link.OWNER));
    }

    private static void assertReleased(Decision d) {
        assertThat(d.outcome()).isEqualTo(Outcome.Preempting);
        assertThat(d.victims()).extracting(v -> v.pod().name()).containsExactly("low-0", "low-1");
        assertThat(d.claims()).extracting(c -> c.claim().name())
                .containsExactly("w-0-extended-resources", "w-1-extended-resources");
        assertThat(d.claims()).extracting(c -> c.allocation().devices().get(0).device())
                .containsExactlyInAnyOrder("gpu-0", "gpu-1");
    }

    @Test
    @DisplayName("without the status or an owner linking a victim to its extended-resource claim, its GPU stays held "
            + "and the gang cannot preempt for it")
    void unlinkedClaimsStayHeld() {
        Decision d = preemptFor(Link.NONE);

        assertThat(d.outcome()).isEqualTo(Outcome.Unschedulable);
        assertThat(d.victims()).isEmpty();
        assertThat(d.message()).contains("cannot allocate all claims");
    }

    @Test
    @DisplayName("a victim's extended-resource claim that another running pod also holds is not released")
    void sharedExtendedClaimIsKept() {
        ResourceClaim held = madeClaim("low-0", "low-0-extended-resources-x7k2p", "gpu-0");
        held = new ResourceClaim(held.namespace(), held.name(), held.uid(), held.spec(), held.allocation(),
                List.of(ClaimConsumer.pod("low-0", "uid-default-low-0"),
                        ClaimConsumer.pod("keeper", "uid-default-keeper")), false);
        ResourceClaim other = madeClaim("keeper", "keeper-extended-resources-q9w8e", "gpu-1");
        List<Pod> pods = List.of(
                gpuPod(pod("low-0").requests("cpu", "1").on("a").build(), 1, held.name()),
                gpuPod(member(pod("keeper").requests("cpu", "1").on("a").build(), "vip"), 1, other.name()),
                gpuPod(member(pod("w-0").requests("cpu", "1").build(), "train"), 1, null));
        Decision d = decide(List.of(cpuNode("a")), pods, List.of(gang("train", 1).priority(100).build(),
                gang("vip", 1).priority(1000).build()), List.of(held, other));

        assertThat(d.outcome()).isEqualTo(Outcome.Unschedulable);
        assertThat(d.victims()).isEmpty();
    }

    @Test
    @DisplayName("a pending pod whose status names an extended-resource claim left from an earlier attempt is "
            + "unschedulable until that claim is gone, as upstream deletes it before trying again")
    void leftoverClaimIsNotReused() {
        ResourceClaim leftover = madeClaim("w-0", "w-0-extended-resources-abcde", "gpu-0");
        Pod pending = gpuPod(member(pod("w-0").requests("cpu", "1").build(), "train"), 1, leftover.name());

        Decision blocked = decide(List.of(cpuNode("a")), List.of(pending), List.of(gang("train", 1).build()),
                List.of(leftover));
        assertThat(blocked.outcome()).isEqualTo(Outcome.Unschedulable);
        assertThat(blocked.message()).contains("cannot schedule extended resource claim")
                .contains("w-0-extended-resources-abcde");
        assertThat(blocked.claims()).isEmpty();

        Decision fresh = decide(List.of(cpuNode("a")), List.of(pending), List.of(gang("train", 1).build()), List.of());
        assertThat(fresh.outcome()).as("the claim named is gone: a new one is made").isEqualTo(Outcome.Scheduled);
        assertThat(fresh.claims()).extracting(c -> c.claim().name()).containsExactly("w-0-extended-resources");
    }

    @Test
    @DisplayName("a pending pod's extended-resource claim left from an earlier attempt is found by its annotation and "
            + "controlling owner (name and uid) when the pod's status does not name it, and blocks the pod until deleted")
    void leftoverClaimFoundByOwner() {
        ResourceClaim leftover = owned(madeClaim("w-0", "w-0-extended-resources-fghij", "gpu-0"), "w-0",
                "uid-default-w-0");
        Pod pending = gpuPod(member(pod("w-0").requests("cpu", "1").build(), "train"), 1, null);

        Decision blocked = decide(List.of(cpuNode("a")), List.of(pending), List.of(gang("train", 1).build()),
                List.of(leftover));
        assertThat(blocked.outcome()).isEqualTo(Outcome.Unschedulable);
        assertThat(blocked.message()).contains("cannot schedule extended resource claim")
                .contains("w-0-extended-resources-fghij");
        assertThat(blocked.claims()).isEmpty();

        ResourceClaim ofOlderPod = owned(leftover, "w-0", "uid-of-an-earlier-w-0");
        Decision fresh = decide(List.of(cpuNode("a")), List.of(pending), List.of(gang("train", 1).build()),
                List.of(ofOlderPod));
        assertThat(fresh.outcome()).as("owned by another pod of that name (another uid): not this pod's claim")
                .isEqualTo(Outcome.Scheduled);
        assertThat(fresh.claims()).extracting(c -> c.claim().name()).containsExactly("w-0-extended-resources");
    }
}
