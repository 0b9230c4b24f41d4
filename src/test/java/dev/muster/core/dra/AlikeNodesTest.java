package dev.muster.core.dra;

import dev.muster.core.model.Node;
import dev.muster.core.model.PodRef;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.muster.core.dra.DraFixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A first fit found on one node answers for a node whose devices look and are held alike: with that node's pool and
 * name, exactly as a search on it finds, and never across nodes held differently or answers that name a claim.
 */
class AlikeNodesTest {
    private static final Node N1 = node(NODE1, REGION1);
    private static final Node N2 = node(NODE2, REGION1);
    private static final Node N3 = node("node-3", REGION1);

    /** Three nodes, each its own pool of two devices; node-3's second device differs in a field (a taint). */
    private static DraObjects objects() {
        Device.Taint taint = new Device.Taint("k", "v", Device.Taint.NO_SCHEDULE);
        return new DraObjects(List.of(deviceClass(CLASS_A, DRIVER_A)), List.of(
                slice(SLICE1, NODE1, POOL1, DRIVER_A, dev(DEVICE0), dev(DEVICE1)),
                slice(SLICE2, NODE2, POOL2, DRIVER_A, dev(DEVICE0), dev(DEVICE1)),
                slice(SLICE3, "node-3", POOL3, DRIVER_A, dev(DEVICE0), dev(DEVICE1).taint(taint))), null, null);
    }

    private static List<ClaimBook.ClaimUse> uses(ResourceClaimSpec spec, int i) {
        return List.of(new ClaimBook.ClaimUse("ns/c" + i, "t", spec, ClaimConsumer.pod("p" + i, "u" + i)));
    }

    private static final ResourceClaimSpec ONE = claimWithRequest("ns/one", REQ0, CLASS_A).spec();

    /**
     * The same moves on a book that shares first fits between alike nodes and on one that searches every node: a
     * one-device member reserved on each of {@code reserveOn}, then the first fit of {@code ask} on each of
     * {@code filter}. Returns the sharing book's answers, in that order.
     */
    private static List<Allocator.Outcome> both(ResourceClaimSpec ask, List<Node> filter, List<Node> reserveOn) {
        List<Allocator.Outcome> sharing = run(new ClaimBook(new ClaimCatalog(objects()), 1_000, 0, true), ask,
                filter, reserveOn);
        List<Allocator.Outcome> searching = run(new ClaimBook(new ClaimCatalog(objects()), 1_000, 0, false), ask,
                filter, reserveOn);
        assertThat(sharing).as("sharing first fits changes no answer").isEqualTo(searching);
        return sharing;
    }

    private static List<Allocator.Outcome> run(ClaimBook book, ResourceClaimSpec ask, List<Node> filter,
                                               List<Node> reserveOn) {
        List<Allocator.Outcome> out = new ArrayList<>();
        int i = 0;
        for (Node n : reserveOn) {
            out.add(book.allocate(n, uses(ONE, i)));
            assertThat(book.reserve(new PodRef("ns", "p" + i), n, uses(ONE, i), 0)).isNull();
            i++;
        }
        for (Node n : filter) {
            out.add(book.allocate(n, uses(ask, 99)));
        }
        return out;
    }

    private static Allocator.Allocated allocated(Allocator.Outcome o) {
        assertThat(o).isInstanceOf(Allocator.Allocated.class);
        return (Allocator.Allocated) o;
    }

    @Test
    void anAnswerCarriedToAnAlikeNodeNamesThatNodesPoolAndNode() {
        List<Allocator.Outcome> out = both(ONE, List.of(N1, N2), List.of());
        AllocationResult onN2 = allocated(out.get(1)).results().get(0);
        assertThat(onN2.devices()).extracting(AllocationResult.DeviceResult::pool, AllocationResult.DeviceResult::device)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(POOL2, DEVICE0));
        assertThat(onN2.nodeSelector().get(0).matchFields().get(0).values()).containsExactly(NODE2);
        assertThat(allocated(out.get(1)).devicesOf(0)[0].pool().name).as("the device taken is node-2's own")
                .isEqualTo(POOL2);
    }

    @Test
    void nodesHeldDifferentlyOrLookingDifferentlyEachGetTheirOwnSearch() {
        // node-1 has device-0 taken: its next first fit is device-1; node-2, untouched, answers device-0
        List<Allocator.Outcome> out = both(ONE, List.of(N1, N2, N3), List.of(N1));
        assertThat(allocated(out.get(1)).results().get(0).devices().get(0).device()).isEqualTo(DEVICE1);
        assertThat(allocated(out.get(2)).results().get(0).devices().get(0).device()).isEqualTo(DEVICE0);
        assertThat(allocated(out.get(3)).results().get(0).devices().get(0).pool()).isEqualTo(POOL3);
        // node-2 held as node-1 is (device-0 taken): node-1's answer, carried
        List<Allocator.Outcome> held = both(ONE, List.of(N1, N2), List.of(N1, N2));
        assertThat(allocated(held.get(3)).results().get(0).devices().get(0))
                .extracting(AllocationResult.DeviceResult::pool, AllocationResult.DeviceResult::device)
                .containsExactly(POOL2, DEVICE1);
    }

    @Test
    void aNodeThatCannotFitAnswersForItsAlikesAndANodeDifferingInADeviceFieldDoesNot() {
        // one of two devices taken on node-1 and node-2: a two-device claim fits on neither; node-3, untouched, does
        // not fit it either, its second device tainted
        ResourceClaimSpec two = claim("ns/two", request(REQ0, CLASS_A, 2)).spec();
        List<Allocator.Outcome> out = both(two, List.of(N1, N2, N3), List.of(N1, N2));
        assertThat(out.subList(2, 5)).allSatisfy(o -> assertThat(o).isInstanceOf(Allocator.Unfit.class));
        // every device of node-1 and node-2 taken: node-3 alone fits one device, its untainted one
        List<Allocator.Outcome> full = both(ONE, List.of(N1, N2, N3), List.of(N1, N2, N1, N2));
        assertThat(full.subList(4, 6)).allSatisfy(o -> assertThat(o).isInstanceOf(Allocator.Unfit.class));
        assertThat(allocated(full.get(6)).results().get(0).devices().get(0).device()).isEqualTo(DEVICE0);
    }

    @Test
    void aVerdictMayBeAnAlikeNodesAnswerButWhatIsTakenIsTheNodesOwn() {
        ClaimBook book = new ClaimBook(new ClaimCatalog(objects()), 1_000, 0, true);
        Allocator.Outcome onN1 = book.allocate(N1, uses(ONE, 0));
        Allocator.Outcome verdict = book.verdict(-1, N2, uses(ONE, 1));
        assertThat(verdict).as("node-2 fits: node-1's answer, as it is").isSameAs(onN1);
        assertThat(book.reserve(new PodRef("ns", "p1"), N2, uses(ONE, 1), 0)).isNull();
        assertThat(allocated(book.allocate(N2, uses(ONE, 2))).results().get(0).devices().get(0))
                .as("node-2's own first device was taken, not node-1's")
                .extracting(AllocationResult.DeviceResult::pool, AllocationResult.DeviceResult::device)
                .containsExactly(POOL2, DEVICE1);
        assertThat(allocated(book.allocate(N1, uses(ONE, 3))).results().get(0).devices().get(0).device())
                .as("node-1 untouched").isEqualTo(DEVICE0);
        ClaimBook searching = new ClaimBook(new ClaimCatalog(objects()), 1_000, 0, false);
        assertThat(searching.verdict(-1, N2, uses(ONE, 1))).as("not sharing: node-2's own answer")
                .isEqualTo(searching.allocate(N2, uses(ONE, 1)));
    }

    @Test
    void aShareOfADeviceIsSearchedOnItsOwnNode() {
        DraObjects objects = new DraObjects(List.of(deviceClass(CLASS_A, DRIVER_A)), List.of(
                slice(SLICE1, NODE1, POOL1, DRIVER_A, dev(DEVICE0).multi().cap(CAPACITY0, "4")),
                slice(SLICE2, NODE2, POOL2, DRIVER_A, dev(DEVICE0).multi().cap(CAPACITY0, "4"))), null, null);
        ResourceClaimSpec spec = claim("ns/s", exact(REQ0, CLASS_A, ResourceClaimSpec.AllocationMode.ExactCount, 1,
                false, null, java.util.Map.of(CAPACITY0, "1"))).spec();
        ClaimBook sharing = new ClaimBook(new ClaimCatalog(objects), 1_000, 0, true);
        ClaimBook searching = new ClaimBook(new ClaimCatalog(objects), 1_000, 0, false);
        for (Node n : List.of(N1, N2)) {
            AllocationResult.DeviceResult got = allocated(sharing.allocate(n, uses(spec, 1))).results().get(0)
                    .devices().get(0);
            assertThat(got.shareID()).as("a share").isNotNull();
            assertThat(got.pool()).isEqualTo(n == N1 ? POOL1 : POOL2);
            assertThat(sharing.allocate(n, uses(spec, 1))).isEqualTo(searching.allocate(n, uses(spec, 1)));
        }
    }
}
