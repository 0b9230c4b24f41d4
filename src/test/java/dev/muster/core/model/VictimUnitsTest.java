package dev.muster.core.model;

import dev.muster.core.model.VictimUnits.Kind;
import dev.muster.core.model.VictimUnits.Unit;
import dev.muster.core.snapshot.Priorities;
import dev.muster.core.testing.Groups;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.muster.core.testing.Groups.member;
import static dev.muster.core.testing.Groups.withPriority;
import static dev.muster.core.testing.Pods.labels;
import static dev.muster.core.testing.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;

class VictimUnitsTest {
    private static final GroupRef ROOT = new GroupRef("default", "root");
    private static final GroupRef INNER = new GroupRef("default", "inner");

    private static CompositePodGroup composite(GroupRef ref, String parent, DisruptionMode mode, Integer priority) {
        return new CompositePodGroup(ref, parent, false, 0, List.of(), mode, null, priority, 0);
    }

    private static Pod running(String name, String node, int priority) {
        return withPriority(pod(name).label("app", name).on(node).build(), priority);
    }

    private static VictimUnits<Pod> units(List<Pod> pods, List<PodGroup> groups, List<CompositePodGroup> composites,
                                          List<PodDisruptionBudget> budgets) {
        ClusterState state = new ClusterState(List.of(), pods, groups, List.of(), budgets, composites);
        return VictimUnits.of(state, Priorities.of(state)::effective);
    }

    private static List<String> names(Unit<Pod> u) {
        return u.pods().stream().map(p -> p.ref().name()).toList();
    }

    private static Unit<Pod> unitNamed(VictimUnits<Pod> units, String pod) {
        return units.all().stream().filter(u -> names(u).contains(pod)).findFirst().orElseThrow();
    }

    @Test
    @DisplayName("only a strictly lower priority may be preempted")
    void strictlyLower() {
        assertThat(VictimUnits.eligible(9, 10)).isTrue();
        assertThat(VictimUnits.eligible(10, 10)).isFalse();
        assertThat(VictimUnits.eligible(11, 10)).isFalse();
    }

    @Test
    @DisplayName("a plain pod and each member of a disruptionMode Pod group go alone; a disruptionMode PodGroup group "
            + "goes whole at its group's priority")
    void podsAndGroups() {
        List<Pod> pods = List.of(running("solo", "n1", 3),
                member(running("each-0", "n1", 50), "each"), member(running("each-1", "n2", 50), "each"),
                member(running("all-0", "n1", 50), "all"), member(running("all-1", "n2", 50), "all"));
        VictimUnits<Pod> u = units(pods, List.of(Groups.basic("each").priority(4).build(),
                Groups.basic("all").priority(5).disruptionMode(DisruptionMode.PodGroup).build()), List.of(), List.of());

        assertThat(u.all()).extracting(Unit::kind)
                .containsExactly(Kind.POD, Kind.POD, Kind.POD, Kind.POD_GROUP);
        assertThat(u.all()).extracting(VictimUnitsTest::names).containsExactly(List.of("solo"), List.of("each-0"),
                List.of("each-1"), List.of("all-0", "all-1"));
        assertThat(u.all()).extracting(Unit::priority).containsExactly(3, 4, 4, 5);
        assertThat(unitNamed(u, "all-1").owner()).isEqualTo(new GroupRef("default", "all"));
    }

    @Test
    @DisplayName("below a composite with disruptionMode PodGroup, every pod of the tree is one unit named by the "
            + "highest such composite, whatever the modes below it")
    void treeIsOneUnit() {
        List<CompositePodGroup> composites = List.of(composite(ROOT, null, DisruptionMode.PodGroup, null),
                composite(INNER, "root", DisruptionMode.PodGroup, null));
        List<PodGroup> groups = List.of(Groups.basic("a").priority(2).build().withParentComposite("inner"),
                Groups.basic("b").priority(7).disruptionMode(DisruptionMode.PodGroup).build()
                        .withParentComposite("root"));
        List<Pod> pods = List.of(member(running("a-0", "n1", 1), "a"), member(running("b-0", "n2", 1), "b"),
                member(running("a-1", "n3", 1), "a"));

        VictimUnits<Pod> u = units(pods, groups, composites, List.of());

        assertThat(u.all()).hasSize(1);
        Unit<Pod> tree = u.all().get(0);
        assertThat(tree.kind()).isEqualTo(Kind.COMPOSITE);
        assertThat(tree.owner()).isEqualTo(ROOT);
        assertThat(names(tree)).containsExactly("a-0", "b-0", "a-1");
        assertThat(tree.priority()).as("the highest of its pods'").isEqualTo(7);
    }

    @Test
    @DisplayName("a composite with disruptionMode Pod makes no tree unit, and a composite's priority stands for its tree")
    void podModeCompositeAndItsPriority() {
        List<PodGroup> groups = List.of(Groups.basic("a").priority(50).build().withParentComposite("root"));
        List<Pod> pods = List.of(member(running("a-0", "n1", 1), "a"), member(running("a-1", "n1", 1), "a"));

        VictimUnits<Pod> u = units(pods, groups, List.of(composite(ROOT, null, DisruptionMode.Pod, 6)), List.of());

        assertThat(u.all()).extracting(Unit::kind).containsExactly(Kind.POD, Kind.POD);
        assertThat(u.all()).extracting(Unit::priority).containsExactly(6, 6);
    }

    @Test
    @DisplayName("pending, terminal and terminating pods are in no unit")
    void onlyRunningPods() {
        List<Pod> pods = List.of(running("up", "n1", 1), pod("pending").build(),
                withPriority(pod("done").on("n1").phase("Succeeded").build(), 1),
                withPriority(pod("leaving").on("n1").terminating().build(), 1));

        assertThat(units(pods, List.of(), List.of(), List.of()).all()).extracting(VictimUnitsTest::names)
                .containsExactly(List.of("up"));
    }

    @Test
    @DisplayName("a preemptor never evicts its own group or its own tree, nor a unit at or above its priority")
    void eligibility() {
        List<CompositePodGroup> composites = List.of(composite(ROOT, null, DisruptionMode.PodGroup, 1));
        List<PodGroup> groups = List.of(Groups.basic("sibling").build().withParentComposite("root"),
                Groups.basic("me").build().withParentComposite("root"), Groups.basic("mine").priority(1).build(),
                Groups.basic("peer").priority(10).disruptionMode(DisruptionMode.PodGroup).build());
        List<Pod> pods = List.of(member(running("sibling-0", "n1", 1), "sibling"),
                member(running("mine-0", "n1", 1), "mine"), member(running("peer-0", "n1", 1), "peer"),
                running("low", "n2", 9), running("equal", "n2", 10));
        VictimUnits<Pod> u = units(pods, groups, composites, List.of());

        assertThat(u.eligible(new GroupRef("default", "me"), 10)).extracting(VictimUnitsTest::names)
                .containsExactly(List.of("mine-0"), List.of("low"));
        assertThat(u.eligible(new GroupRef("default", "mine"), 10)).extracting(VictimUnitsTest::names)
                .containsExactly(List.of("low"), List.of("sibling-0"));
        assertThat(u.eligible(null, 10)).extracting(VictimUnitsTest::names)
                .containsExactly(List.of("mine-0"), List.of("low"), List.of("sibling-0"));
    }

    @Test
    @DisplayName("a unit violates a budget when evicting it alone takes more disruptions than the budget allows; in "
            + "order, budgets are used up unit by unit")
    void budgets() {
        PodDisruptionBudget one = new PodDisruptionBudget(new PodRef("default", "one"), labels("tier", "web"), 1);
        List<Pod> pods = List.of(
                withPriority(pod("web-a").label("tier", "web").on("n1").build(), 1),
                withPriority(pod("web-b").label("tier", "web").on("n2").build(), 1),
                member(withPriority(pod("g-0").label("tier", "web").on("n1").build(), 1), "g"),
                member(withPriority(pod("g-1").label("tier", "web").on("n2").build(), 1), "g"),
                withPriority(pod("other").namespace("elsewhere").label("tier", "web").on("n1").build(), 1));
        VictimUnits<Pod> u = units(pods, List.of(Groups.basic("g").priority(1)
                .disruptionMode(DisruptionMode.PodGroup).build()), List.of(), List.of(one));

        assertThat(unitNamed(u, "web-a").violatesBudget()).isFalse();
        assertThat(unitNamed(u, "g-0").violatesBudget()).as("two pods against one allowed").isTrue();
        assertThat(unitNamed(u, "other").violatesBudget()).as("another namespace's budget").isFalse();
        assertThat(u.violationsInOrder(List.of(unitNamed(u, "web-a"), unitNamed(u, "web-b"), unitNamed(u, "other"))))
                .containsExactly(false, true, false);
    }

    @Test
    @DisplayName("a pod that is not running is evicted in its group's running unit, else alone")
    void unitOfAPodNotRunning() {
        List<Pod> pods = new ArrayList<>(List.of(member(running("all-0", "n1", 1), "all"),
                member(running("all-1", "n2", 1), "all")));
        Pod late = member(pod("all-2").build(), "all");
        Pod stray = withPriority(pod("stray").build(), 4);
        pods.add(late);
        pods.add(stray);
        VictimUnits<Pod> u = units(pods, List.of(Groups.basic("all").priority(3)
                .disruptionMode(DisruptionMode.PodGroup).build()), List.of(), List.of());

        assertThat(names(u.unitOf(late))).containsExactly("all-0", "all-1");
        assertThat(u.unitOf(stray).kind()).isEqualTo(Kind.POD);
        assertThat(u.unitOf(stray).priority()).isEqualTo(4);
        assertThat(u.unitOf(pods.get(1))).isSameAs(u.unitOf(pods.get(0)));
    }

    @Test
    @DisplayName("most important first: priority, a group before a pod, the bigger group, the older, then the first pod")
    void importance() {
        List<Pod> pods = List.of(running("p-old", "n1", 5), running("p-new", "n1", 5),
                member(running("g-0", "n1", 1), "g"), member(running("h-0", "n1", 1), "h"),
                member(running("h-1", "n1", 1), "h"), running("top", "n1", 9));
        List<PodGroup> groups = List.of(Groups.basic("g").priority(5).disruptionMode(DisruptionMode.PodGroup).build(),
                Groups.basic("h").priority(5).disruptionMode(DisruptionMode.PodGroup).build());
        List<Pod> dated = new ArrayList<>();
        for (Pod p : pods) {
            dated.add(Groups.created(p, p.ref().name().equals("p-new") ? 200 : 100));
        }
        List<Unit<Pod>> sorted = new ArrayList<>(units(dated, groups, List.of(), List.of()).all());
        sorted.sort(VictimUnits.MOST_IMPORTANT_FIRST);

        assertThat(sorted).extracting(x -> x.first().name()).containsExactly("top", "h-0", "g-0", "p-old", "p-new");
    }
}
