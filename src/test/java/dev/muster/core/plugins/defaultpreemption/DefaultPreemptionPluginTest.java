package dev.muster.core.plugins.defaultpreemption;

import dev.muster.core.framework.Code;
import dev.muster.core.framework.GroupContext;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.framework.PostFilterPlugin.Result;
import dev.muster.core.model.DisruptionMode;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodDisruptionBudget;
import dev.muster.core.model.PodGroup;
import dev.muster.core.model.PodRef;
import dev.muster.core.testing.Contexts;
import dev.muster.core.testing.FakeSimulation;
import dev.muster.core.testing.Groups;
import dev.muster.core.testing.Pods;
import dev.muster.core.testing.TestCluster;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;

import static dev.muster.core.testing.Groups.member;
import static dev.muster.core.testing.Groups.withPriority;
import static dev.muster.core.testing.Nodes.node;
import static dev.muster.core.testing.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * DefaultPreemption against a {@link FakeSimulation}: which running pods it treats as victim units and which it
 * gives back, with "the group fits" reduced to a rule over the evicted pods.
 */
class DefaultPreemptionPluginTest {
    private static final int PREEMPTOR = 10;
    private final DefaultPreemptionPlugin plugin = new DefaultPreemptionPlugin();

    private static Pod running(String name, String node, int priority) {
        return withPriority(pod(name).label("app", name).on(node).build(), priority);
    }

    /** The preemptor "g" (one pending member "g-0", priority 10) plus the given running pods on n1/n2. */
    private static TestCluster cluster(List<Pod> running, List<PodGroup> groups, List<PodDisruptionBudget> pdbs,
                                       Pod preemptor) {
        List<Pod> pods = new ArrayList<>(running);
        pods.add(preemptor);
        List<PodGroup> all = new ArrayList<>(groups);
        all.add(Groups.gang("g", 1).priority(PREEMPTOR).build());
        return TestCluster.of(List.of(node("n1").build(), node("n2").build()), pods, all, pdbs);
    }

    private static TestCluster cluster(List<Pod> running, List<PodGroup> groups, List<PodDisruptionBudget> pdbs) {
        return cluster(running, groups, pdbs, member(pod("g-0").build(), "g"));
    }

    private static GroupContext preemptor(TestCluster c, PodGroup group) {
        return Contexts.of(group).pending(c.pod("g-0")).build();
    }

    private static GroupContext preemptor(TestCluster c) {
        return preemptor(c, c.snapshot().podGroups().values().stream()
                .filter(g -> g.ref().name().equals("g")).findFirst().orElseThrow());
    }

    private static List<String> names(List<PodInfo> pods) {
        return pods.stream().map(p -> p.ref().name()).toList();
    }

    @Test
    @DisplayName("a group with a topology constraint frees only pods inside one domain of its key")
    void topologyGroupPreemptsInsideOneDomain() {
        List<Pod> pods = new ArrayList<>(List.of(running("low-a", "n1", 1), running("low-b", "n2", 2)));
        pods.add(member(pod("g-0").build(), "g"));
        List<PodGroup> groups = List.of(Groups.gang("g", 1).priority(PREEMPTOR).topology("rack").build());
        TestCluster c = TestCluster.of(List.of(node("n1").label("rack", "r1").build(),
                node("n2").label("rack", "r2").build()), pods, groups, List.of());
        // Either eviction alone makes room; the domain whose victim is least important wins.
        FakeSimulation sim = FakeSimulation.fitsOnceAnyEvicted(c, "low-a", "low-b");

        Result r = plugin.postFilter(preemptor(c, groups.get(0)), PREEMPTOR, sim);

        assertThat(names(r.victims())).containsExactly("low-a");
        assertThat(sim.evicted()).containsExactly("low-a");
    }

    @Test
    @DisplayName("a group with a topology constraint gets no victims when no domain of its key has any")
    void topologyGroupWithoutDomains() {
        TestCluster c = cluster(List.of(running("low", "n1", 1)), List.of(), List.of());
        FakeSimulation sim = FakeSimulation.fitsOnceEvicted(c, "low");

        Result r = plugin.postFilter(preemptor(c, Groups.gang("g", 1).priority(PREEMPTOR).topology("rack").build()),
                PREEMPTOR, sim);

        assertThat(r.victims()).isEmpty();
        assertThat(r.status().code()).isEqualTo(Code.Unschedulable);
        assertThat(sim.evicted()).isEmpty();
    }

    @Test
    @DisplayName("a member with preemptionPolicy Never makes the group ineligible, with upstream's reason")
    void preemptionPolicyNever() {
        TestCluster c = cluster(List.of(running("low", "n1", 1)), List.of(), List.of(),
                member(Pods.pod("g-0").preemptionPolicy("Never").build(), "g"));
        FakeSimulation sim = FakeSimulation.fitsOnceEvicted(c, "low");

        Result r = plugin.postFilter(preemptor(c), PREEMPTOR, sim);

        assertThat(r.victims()).isEmpty();
        assertThat(r.status().code()).isEqualTo(Code.UnschedulableAndUnresolvable);
        assertThat(r.status().message()).isEqualTo("not eligible due to preemptionPolicy=Never.");
        assertThat(sim.everEvicted()).isEmpty();
    }

    @Test
    @DisplayName("only pods of strictly lower priority are ever evicted, and just the ones the group needs stay victims")
    void strictlyLowerOnly() {
        TestCluster c = cluster(List.of(running("low-a", "n1", 1), running("low-b", "n2", 9),
                running("equal", "n1", PREEMPTOR), running("high", "n2", 50)), List.of(), List.of());
        FakeSimulation sim = FakeSimulation.fitsOnceEvicted(c, "low-b");

        Result r = plugin.postFilter(preemptor(c), PREEMPTOR, sim);

        assertThat(r.status().isSuccess()).isTrue();
        assertThat(names(r.victims())).containsExactly("low-b");
        assertThat(sim.everEvicted()).containsExactlyInAnyOrder("low-a", "low-b");
        assertThat(sim.evicted()).containsExactly("low-b");
    }

    @Test
    @DisplayName("with no lower-priority pod running there is no victim to look for")
    void noLowerPriority() {
        TestCluster c = cluster(List.of(running("equal", "n1", PREEMPTOR), running("high", "n2", 50)), List.of(),
                List.of());
        FakeSimulation sim = new FakeSimulation(c, ev -> new int[] {0});

        Result r = plugin.postFilter(preemptor(c), PREEMPTOR, sim);

        assertThat(r.victims()).isEmpty();
        assertThat(r.status().code()).isEqualTo(Code.UnschedulableAndUnresolvable);
        assertThat(r.status().message()).isEqualTo("No preemption victims found for incoming preemptor");
        assertThat(sim.tries()).isZero();
    }

    @Test
    @DisplayName("when evicting every lower-priority pod still does not fit, nothing stays evicted and the group is unschedulable")
    void notEnough() {
        TestCluster c = cluster(List.of(running("low-a", "n1", 1), running("low-b", "n2", 1)), List.of(), List.of());
        FakeSimulation sim = new FakeSimulation(c, ev -> null);

        Result r = plugin.postFilter(preemptor(c), PREEMPTOR, sim);

        assertThat(r.victims()).isEmpty();
        assertThat(r.status().code()).isEqualTo(Code.Unschedulable);
        assertThat(r.status().message())
                .isEqualTo("not enough lower-priority victims to make the pod group schedulable");
        assertThat(sim.everEvicted()).containsExactlyInAnyOrder("low-a", "low-b");
        assertThat(sim.evicted()).isEmpty();
    }

    @Test
    @DisplayName("a disruptionMode PodGroup group is one unit at its group priority: evicted whole, whatever its pods' own priority")
    void podGroupUnitAtGroupPriority() {
        List<Pod> batch = List.of(member(running("batch-0", "n1", 50), "batch"),
                member(running("batch-1", "n2", 50), "batch"));
        TestCluster c = cluster(batch,
                List.of(Groups.basic("batch").priority(5).disruptionMode(DisruptionMode.PodGroup).build()), List.of());
        FakeSimulation sim = FakeSimulation.fitsOnceEvicted(c, "batch-0");

        Result r = plugin.postFilter(preemptor(c), PREEMPTOR, sim);

        assertThat(r.status().isSuccess()).isTrue();
        assertThat(names(r.victims())).containsExactly("batch-0", "batch-1");
    }

    @Test
    @DisplayName("in disruptionMode Pod each member is its own unit: only the one the group needs is a victim")
    void podModeMembersAreSeparateUnits() {
        List<Pod> batch = List.of(member(running("batch-0", "n1", 50), "batch"),
                member(running("batch-1", "n2", 50), "batch"));
        TestCluster c = cluster(batch, List.of(Groups.basic("batch").priority(5).build()), List.of());
        FakeSimulation sim = FakeSimulation.fitsOnceEvicted(c, "batch-0");

        Result r = plugin.postFilter(preemptor(c), PREEMPTOR, sim);

        assertThat(names(r.victims())).containsExactly("batch-0");
    }

    @Test
    @DisplayName("a disruptionMode PodGroup group at the preemptor's priority is never evicted, even if its pods' own priority is lower")
    void podGroupUnitAtEqualGroupPriority() {
        List<Pod> batch = List.of(member(running("batch-0", "n1", 1), "batch"));
        TestCluster c = cluster(batch, List.of(Groups.basic("batch").priority(PREEMPTOR)
                .disruptionMode(DisruptionMode.PodGroup).build()), List.of());
        FakeSimulation sim = FakeSimulation.fitsOnceEvicted(c, "batch-0");

        Result r = plugin.postFilter(preemptor(c), PREEMPTOR, sim);

        assertThat(r.victims()).isEmpty();
        assertThat(r.status().message()).isEqualTo("No preemption victims found for incoming preemptor");
        assertThat(sim.everEvicted()).isEmpty();
    }

    @Test
    @DisplayName("the preemptor's own running members are never victims")
    void ownMembersNeverVictims() {
        TestCluster c = cluster(List.of(member(running("g-bound", "n1", 1), "g"), running("low", "n2", 1)), List.of(),
                List.of());
        FakeSimulation sim = FakeSimulation.fitsOnceAnyEvicted(c, "g-bound", "low");

        Result r = plugin.postFilter(preemptor(c), PREEMPTOR, sim);

        assertThat(names(r.victims())).containsExactly("low");
        assertThat(sim.everEvicted()).doesNotContain("g-bound");
    }

    @ParameterizedTest(name = "PDB on \"{0}\" allowing {1} disruption(s): victim {2}")
    @CsvSource({
        "'', 0, b",
        "b, 0, a",
        "b, 1, b",
        "a, 0, b",
    })
    @DisplayName("of two equal pods either of which would do, a PDB-violating one is given back first; else the more important (by name)")
    void pdbViolatingReprievedFirst(String protectedApp, int allowed, String victim) {
        List<PodDisruptionBudget> pdbs = protectedApp.isEmpty() ? List.of()
                : List.of(new PodDisruptionBudget(new PodRef("default", "pdb"), Pods.labels("app", protectedApp),
                        allowed));
        TestCluster c = cluster(List.of(running("a", "n1", 1), running("b", "n2", 1)), List.of(), pdbs);
        FakeSimulation sim = FakeSimulation.fitsOnceAnyEvicted(c, "a", "b");

        Result r = plugin.postFilter(preemptor(c), PREEMPTOR, sim);

        assertThat(names(r.victims())).containsExactly(victim);
    }
}
