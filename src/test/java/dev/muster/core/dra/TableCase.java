package dev.muster.core.dra;

import dev.muster.core.model.Node;
import dev.muster.core.model.NodeSelectorTerm;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One case of the transcribed upstream allocator table, with a fluent builder and the check. Results of a claim are
 * compared as a multiset of "request driver pool device [admin] [tolerations] [share consumed]" lines, like
 * upstream's order-free matcher; node selectors order-free too.
 */
final class TableCase {
    final String name;
    List<DeviceClass> classes = List.of();
    List<ResourceSlice> slices = List.of();
    List<AllocationResult> allocated = List.of();
    List<Allocator.PendingClaim> claims = List.of();
    Node node = DraFixtures.node(DraFixtures.NODE1, DraFixtures.REGION1);
    List<Want> wants;
    String error;
    String unfitReason;

    /** What one claim should get. */
    record Want(List<NodeSelectorTerm> selector, List<String> results, List<AllocationResult.AllocationConfig> configs) {
    }

    TableCase(String name) {
        this.name = name;
    }

    static TableCase tc(String name) {
        return new TableCase(name);
    }

    TableCase classes(DeviceClass... c) {
        classes = List.of(c);
        return this;
    }

    TableCase slices(ResourceSlice... s) {
        slices = List.of(s);
        return this;
    }

    TableCase allocated(List<AllocationResult> a) {
        allocated = a;
        return this;
    }

    TableCase claims(Allocator.PendingClaim... c) {
        claims = List.of(c);
        return this;
    }

    TableCase node(Node n) {
        node = n;
        return this;
    }

    /** Success with these per-claim results. */
    TableCase want(Want... w) {
        wants = List.of(w);
        return this;
    }

    /** No allocation on this node (upstream: nil results, no error). */
    TableCase unfit() {
        unfitReason = Allocator.CANNOT_ALLOCATE;
        return this;
    }

    TableCase unfit(String reason) {
        unfitReason = reason;
        return this;
    }

    /** An error whose message contains the text. */
    TableCase error(String containing) {
        error = containing;
        return this;
    }

    static Want result(List<NodeSelectorTerm> selector, String... results) {
        return new Want(selector, List.of(results), List.of());
    }

    static Want resultWithConfigs(List<NodeSelectorTerm> selector, List<AllocationResult.AllocationConfig> configs,
                                  String... results) {
        return new Want(selector, List.of(results), configs);
    }

    static String r(String request, String driver, String pool, String device, String... extra) {
        List<String> parts = new ArrayList<>(List.of(request, driver, pool, device));
        parts.addAll(Arrays.asList(extra));
        return String.join(" ", parts);
    }

    static String describe(AllocationResult.DeviceResult d) {
        StringBuilder sb = new StringBuilder(String.join(" ", d.request(), d.driver(), d.pool(), d.device()));
        if (d.adminAccess()) {
            sb.append(" admin");
        }
        if (!d.tolerations().isEmpty()) {
            sb.append(" tol=").append(d.tolerations().stream().map(TableCase::tol).collect(Collectors.joining(",")));
        }
        if (d.shareID() != null) {
            sb.append(" share ").append(new TreeMap<>(d.consumedCapacity()));
        }
        return sb.toString();
    }

    static String tol(ResourceClaimSpec.Toleration t) {
        return t.key() + ":" + t.operator() + ":" + t.value() + ":" + t.effect();
    }

    void check() {
        DraIndex index = DraIndex.build(classes, slices, allocated);
        DeviceLedger ledger = index.newLedger();
        Allocator.Outcome o = Allocator.allocate(ledger, node, claims, Allocator.DEFAULT_STEP_BUDGET);
        if (error != null) {
            assertThat(o).as(name).isInstanceOf(Allocator.Failed.class);
            assertThat(((Allocator.Failed) o).message()).as(name).contains(error);
            return;
        }
        if (unfitReason != null) {
            assertThat(o).as(name).isInstanceOf(Allocator.Unfit.class);
            assertThat(((Allocator.Unfit) o).reason()).as(name).isEqualTo(unfitReason);
            return;
        }
        assertThat(o).as(name).isInstanceOf(Allocator.Allocated.class);
        List<AllocationResult> got = ((Allocator.Allocated) o).results();
        assertThat(got).as(name).hasSize(wants.size());
        for (int i = 0; i < wants.size(); i++) {
            Want w = wants.get(i);
            AllocationResult a = got.get(i);
            assertThat(a.devices().stream().map(TableCase::describe).toList()).as(name + " claim #" + i)
                    .containsExactlyInAnyOrderElementsOf(w.results());
            assertThat(DraFixtures.normalize(a.nodeSelector())).as(name + " node selector #" + i)
                    .isEqualTo(DraFixtures.normalize(w.selector()));
            assertThat(a.config()).as(name + " config #" + i).isEqualTo(w.configs());
            for (AllocationResult.DeviceResult d : a.devices()) {
                if (!d.consumedCapacity().isEmpty()) {
                    assertThat(d.shareID()).as(name).isNotNull();
                }
            }
        }
        // the cursor's first element is the same answer
        Allocator.Outcome first = Allocator.solutions(ledger, node, claims, Allocator.DEFAULT_STEP_BUDGET).next();
        assertThat(first).as(name + " cursor").isInstanceOf(Allocator.Allocated.class);
        assertThat(((Allocator.Allocated) first).results()).as(name + " cursor").isEqualTo(got);
    }

    @Override
    public String toString() {
        return name;
    }
}
