package dev.muster.core.dra;

import dev.muster.core.model.Node;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodClaimRef;
import dev.muster.core.model.PodRef;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.muster.core.dra.DraFixtures.*;
import static dev.muster.core.testing.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ClaimBook#resolve}: what the pod's fields decide is worked out once per pod object, whether each claim can
 * still be reserved is checked on every call.
 */
class ClaimResolutionTest {
    static final Node N1 = node(NODE1, REGION1);
    static final ResourceClaimSpec SPEC = claimWithRequest("ns/x", REQ0, CLASS_A).spec();
    static final AllocationResult HELD = allocated("driver-a/pool-1/" + DEVICE1).get(0);

    static Pod withClaims(Pod p, Map<String, String> statuses, PodClaimRef... claims) {
        return new Pod(p.ref(), p.uid(), p.labels(), p.creationEpochSec(), p.nodeName(), p.phase(), p.schedulerName(),
                p.requests(), p.priority(), p.priorityClassName(), p.preemptionPolicy(), p.nodeSelector(),
                p.affinity(), p.tolerations(), p.hostPorts(), p.topologySpreadConstraints(), p.schedulingGates(),
                p.podGroupName(), List.of(claims), p.nominatedNodeName(), p.terminating(), statuses);
    }

    static ClaimBook book(List<ClaimConsumer> sharedReservedFor) {
        ResourceClaim shared = new ResourceClaim("default", "shared", "uid-shared", SPEC, HELD, sharedReservedFor, false);
        ResourceClaim recorded = new ResourceClaim("default", "recorded", "uid-recorded", SPEC, null, List.of(), false);
        DraObjects objects = new DraObjects(List.of(deviceClass(CLASS_A, DRIVER_A)),
                List.of(slice(SLICE1, NODE1, POOL1, DRIVER_A, dev(DEVICE1), dev(DEVICE2))), List.of(shared, recorded),
                List.of(new ResourceClaimTemplate("default", "one-gpu", SPEC)));
        return new ClaimBook(new ClaimCatalog(objects), 1_000);
    }

    @Test
    void theReservationCheckStillRunsOnEveryCall() {
        List<ClaimConsumer> others = new ArrayList<>();
        for (int i = 0; i < ClaimBook.MAX_CONSUMERS - 1; i++) {
            others.add(ClaimConsumer.pod("other-" + i, "uid-other-" + i));
        }
        ClaimBook book = book(others);
        PodClaimRef entry = new PodClaimRef("gpu", "shared", null);
        Pod a = withClaims(pod("a").build(), Map.of(), entry);
        Pod b = withClaims(pod("b").build(), Map.of(), entry);
        ClaimBook.Resolution forB = book.resolve(b, null);
        assertThat(forB.ok()).isTrue();
        assertThat(book.resolve(b, null).uses()).isEqualTo(forB.uses());
        ClaimBook.Resolution forA = book.resolve(a, null);
        assertThat(book.reserve(a.ref(), N1, forA.uses(), 0)).isNull();
        assertThat(book.resolve(b, null).failure()).as("256 consumers now")
                .isEqualTo("resourceclaim \"shared\" is in use: it is reserved for 256 consumers already");
        assertThat(book.resolve(a, null).ok()).as("already reserved for a").isTrue();
        book.unreserve(a.ref());
        assertThat(book.resolve(b, null).ok()).isTrue();
    }

    @Test
    void anotherPodObjectWithTheSameNameIsResolvedAfresh() {
        ClaimBook book = book(List.of());
        PodClaimRef entry = new PodClaimRef("gpu", null, "one-gpu");
        Pod fresh = withClaims(pod("w").build(), Map.of(), entry);
        assertThat(book.resolve(fresh, null).uses()).extracting(ClaimBook.ClaimUse::key).containsExactly("default/w-gpu");
        // the same pod once the controller made its claim: its status names it
        Pod created = withClaims(pod("w").build(), Map.of("gpu", "recorded"), entry);
        assertThat(book.resolve(created, null).uses()).extracting(ClaimBook.ClaimUse::key)
                .containsExactly("default/recorded");
        Pod missing = withClaims(pod("w").build(), Map.of(), entry, new PodClaimRef("more", "absent", null));
        assertThat(book.resolve(missing, null).failure())
                .isEqualTo("resourceclaim.resource.k8s.io \"absent\" not found");
        assertThat(book.resolve(fresh, null).uses()).extracting(ClaimBook.ClaimUse::key).containsExactly("default/w-gpu");
    }

    @Test
    void anEarlierEntryInUseIsReportedBeforeALaterMissingOne() {
        ClaimBook book = book(List.of(ClaimConsumer.podGroup("someone-else", "uid-g")));
        Pod p = withClaims(pod("w").build(), Map.of(), new PodClaimRef("gpu", "shared", null),
                new PodClaimRef("more", "absent", null));
        for (int i = 0; i < 2; i++) {
            assertThat(book.resolve(p, null).failure()).as("call %d", i)
                    .isEqualTo("resourceclaim \"shared\" is in use by PodGroup \"someone-else\"");
        }
    }
}
