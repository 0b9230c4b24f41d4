package dev.muster.core.dra;

import dev.muster.core.model.Node;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.muster.core.dra.DraFixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The partitionable "whole vs two halves" gang example: one shared counter of 2; {@code whole} takes 2, {@code half-1}
 * and {@code half-2} take 1 each. Each of two pods has a claim preferring a whole device, else a half. First fit gives
 * the first pod {@code whole} and the second nothing; the cursor's next solution for the first pod is a half, which
 * leaves the other half for the second pod.
 */
class GangAlternativesTest {
    static final DeviceAttribute WHOLE = new DeviceAttribute.StringValue("whole");
    static final DeviceAttribute HALF = new DeviceAttribute.StringValue("half");

    static DraIndex index() {
        return DraIndex.build(List.of(deviceClass(CLASS_A, DRIVER_A)), List.of(
                slice(SLICE1, NODE1, pool(POOL1, 2), DRIVER_A,
                        dev("half-1").attr("kind", HALF).consumes(COUNTER_SET1, "c", "1"),
                        dev("half-2").attr("kind", HALF).consumes(COUNTER_SET1, "c", "1"),
                        dev("whole").attr("kind", WHOLE).consumes(COUNTER_SET1, "c", "2")),
                counterSlice(SLICE2, NODE1, pool(POOL1, 2), DRIVER_A, counterSet(COUNTER_SET1, "c", "2"))), List.of());
    }

    static Allocator.PendingClaim podClaim(String name) {
        return claim(name, firstAvailable("gpu",
                sub("whole", CLASS_A, 1, attributeIs("kind", WHOLE)),
                sub("half", CLASS_A, 1, attributeIs("kind", HALF))));
    }

    static String picked(Allocator.Outcome o) {
        assertThat(o).isInstanceOf(Allocator.Allocated.class);
        AllocationResult.DeviceResult d = ((Allocator.Allocated) o).results().get(0).devices().get(0);
        return d.request() + "=" + d.device();
    }

    @Test
    void firstFitStrandsTheSecondPodAndTheCursorFindsTheHalf() {
        DeviceLedger ledger = index().newLedger();
        Node node = node(NODE1, REGION1);
        List<Allocator.PendingClaim> pod1 = List.of(podClaim("ns/pod-1-gpu"));
        List<Allocator.PendingClaim> pod2 = List.of(podClaim("ns/pod-2-gpu"));

        Allocator.Solutions cursor = Allocator.solutions(ledger, node, pod1, 10_000);
        Allocator.Outcome first = cursor.next();
        assertThat(picked(first)).isEqualTo("gpu/whole=whole");
        assertThat(first).isEqualTo(withSteps(Allocator.allocate(ledger, node, pod1, 10_000), first.steps()));

        int mark = ledger.mark();
        ledger.reserve(((Allocator.Allocated) first).results().get(0));
        assertThat(ledger.availableCounter(DRIVER_A, POOL1, COUNTER_SET1, "c")).isZero();
        Allocator.Outcome second = Allocator.allocate(ledger, node, pod2, 10_000);
        assertThat(second).isInstanceOf(Allocator.Unfit.class);

        // revisit pod 1: take back its reservation, ask for its next solution
        ledger.rollbackTo(mark);
        assertThat(ledger.availableCounter(DRIVER_A, POOL1, COUNTER_SET1, "c")).isEqualByComparingTo("2");
        Allocator.Outcome alternative = cursor.next();
        assertThat(picked(alternative)).isEqualTo("gpu/half=half-1");
        ledger.reserve(((Allocator.Allocated) alternative).results().get(0));
        Allocator.Outcome pod2Again = Allocator.allocate(ledger, node, pod2, 10_000);
        assertThat(picked(pod2Again)).isEqualTo("gpu/half=half-2");
        ledger.reserve(((Allocator.Allocated) pod2Again).results().get(0));
        assertThat(ledger.availableCounter(DRIVER_A, POOL1, COUNTER_SET1, "c")).isZero();

        assertThat(picked(cursor.next())).isEqualTo("gpu/half=half-2");
        Allocator.Outcome end = cursor.next();
        assertThat(end).isInstanceOf(Allocator.Unfit.class);
        assertThat(((Allocator.Unfit) end).reason()).isEqualTo(Allocator.NO_FURTHER_SOLUTION);
        assertThat(cursor.next()).isSameAs(end);
        assertThat(cursor.solutionsGiven()).isEqualTo(3);
    }

    @Test
    void releaseGivesCountersBack() {
        DeviceLedger ledger = index().newLedger();
        Allocator.Outcome o = Allocator.allocate(ledger, node(NODE1, REGION1), List.of(podClaim("ns/a")), 1000);
        AllocationResult r = ((Allocator.Allocated) o).results().get(0);
        ledger.reserve(r);
        assertThat(ledger.isInUse(new AllocatedDevice(DRIVER_A, POOL1, "whole"))).isTrue();
        ledger.release(r);
        assertThat(ledger.isInUse(new AllocatedDevice(DRIVER_A, POOL1, "whole"))).isFalse();
        assertThat(ledger.availableCounter(DRIVER_A, POOL1, COUNTER_SET1, "c")).isEqualByComparingTo("2");
    }

    @Test
    void stepBudgetIsReportedNotThrown() {
        DeviceLedger ledger = index().newLedger();
        Allocator.Outcome o = Allocator.allocate(ledger, node(NODE1, REGION1), List.of(podClaim("ns/a"), podClaim("ns/b")), 2);
        assertThat(o).isInstanceOf(Allocator.Exhausted.class);
        assertThat(o.steps()).isEqualTo(3);
        Allocator.Outcome enough = Allocator.allocate(ledger, node(NODE1, REGION1), List.of(podClaim("ns/a"), podClaim("ns/b")), 1000);
        assertThat(enough).isInstanceOf(Allocator.Allocated.class);
        // deterministic: the same input costs the same steps
        assertThat(Allocator.allocate(ledger, node(NODE1, REGION1), List.of(podClaim("ns/a"), podClaim("ns/b")), 1000).steps())
                .isEqualTo(enough.steps());
    }

    private static Allocator.Outcome withSteps(Allocator.Outcome o, long steps) {
        return new Allocator.Allocated(((Allocator.Allocated) o).results(), steps);
    }
}
