package dev.muster.core.plugins.topologyplacement;

import dev.muster.core.framework.Code;
import dev.muster.core.framework.GroupContext;
import dev.muster.core.framework.PlacementGeneratePlugin.Candidate;
import dev.muster.core.framework.PlacementGeneratePlugin.Result;
import dev.muster.core.framework.Status;
import dev.muster.core.model.Node;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodGroup;
import dev.muster.core.testing.Contexts;
import dev.muster.core.testing.Groups;
import dev.muster.core.testing.TestCluster;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;

import static dev.muster.core.testing.Nodes.node;
import static dev.muster.core.testing.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;

/** TopologyPlacementGenerator on its own: which candidate node sets it proposes, in which order and tier. */
class TopologyPlacementGeneratorPluginTest {
    private static final String RACK = "rack";
    private static final String BLOCK = "block";
    private static final String ZONE = "zone";
    private final TopologyPlacementGeneratorPlugin plugin = new TopologyPlacementGeneratorPlugin();

    /**
     * n1 r2/bA/z1, n2 r1/bA/z1, n3 no labels, n4 r1/bA/z1, n5 r3/bB/z1 (zone only on some). Pods bound: "on-n1",
     * "on-n2", "on-n3", "on-n4"; pending: "p".
     */
    private static TestCluster cluster() {
        List<Node> nodes = List.of(
                node("n1").label(RACK, "r2").label(BLOCK, "bA").label(ZONE, "z1").build(),
                node("n2").label(RACK, "r1").label(BLOCK, "bA").label(ZONE, "z1").build(),
                node("n3").build(),
                node("n4").label(RACK, "r1").label(BLOCK, "bA").label(ZONE, "z1").build(),
                node("n5").label(RACK, "r3").label(BLOCK, "bB").label(ZONE, "z1").build());
        List<Pod> pods = new ArrayList<>();
        for (String n : List.of("n1", "n2", "n3", "n4")) {
            pods.add(pod("on-" + n).on(n).build());
        }
        pods.add(pod("p").build());
        return TestCluster.of(nodes, pods);
    }

    private final TestCluster cluster = cluster();

    private int[] all() {
        return IntStream.range(0, cluster.nodeCount()).toArray();
    }

    private GroupContext pendingOnly(PodGroup group) {
        return Contexts.of(group).pending(cluster.pod("p")).build();
    }

    private GroupContext boundOn(PodGroup group, String... nodes) {
        Contexts c = Contexts.of(group).pending(cluster.pod("p"));
        for (String n : nodes) {
            c.bound(cluster.pod("on-" + n));
        }
        return c.build();
    }

    /** Each candidate as "name tier [nodes]". */
    private List<String> describe(Result r) {
        List<String> out = new ArrayList<>();
        for (Candidate c : r.candidates()) {
            List<String> names = Arrays.stream(c.nodes()).mapToObj(i -> cluster.anyNode(i).name()).toList();
            out.add(c.name() + " " + c.tier() + " " + names);
        }
        return out;
    }

    @Test
    @DisplayName("a group without a topology key or levels annotation is left unchanged (null candidates, Success)")
    void noTopologyUnchanged() {
        Result r = plugin.generate(pendingOnly(Groups.gang("g", 1).build()), cluster, all());

        assertThat(r.candidates()).isNull();
        assertThat(r.status()).isEqualTo(Status.SUCCESS);
    }

    @Test
    @DisplayName("a required key gives one tier-0 candidate per domain in value order, leaving out nodes without the label")
    void oneCandidatePerDomain() {
        Result r = plugin.generate(pendingOnly(Groups.gang("g", 1).topology(RACK).build()), cluster, all());

        assertThat(r.status()).isEqualTo(Status.SUCCESS);
        assertThat(describe(r)).containsExactly(
                "rack=r1 0 [n2, n4]",
                "rack=r2 0 [n1]",
                "rack=r3 0 [n5]");
    }

    @Test
    @DisplayName("a required key no node carries gives an empty candidate list with Success (no placement is valid)")
    void noNodeHasTheKey() {
        Result r = plugin.generate(pendingOnly(Groups.gang("g", 1).topology("no-such-key").build()), cluster, all());

        assertThat(r.status()).isEqualTo(Status.SUCCESS);
        assertThat(r.candidates()).isNotNull().isEmpty();
    }

    @Test
    @DisplayName("a candidate holds only the domain's nodes that are in the parent, and empty domains are dropped")
    void restrictedToParent() {
        int[] parent = {cluster.nodeIndex("n1"), cluster.nodeIndex("n4")};
        Arrays.sort(parent);

        Result r = plugin.generate(pendingOnly(Groups.gang("g", 1).topology(RACK).build()), cluster, parent);

        assertThat(describe(r)).containsExactly("rack=r1 0 [n4]", "rack=r2 0 [n1]");
    }

    @Test
    @DisplayName("a parent of the first nodes only is still a restriction: a domain reaching past it is cut down")
    void restrictedToLeadingParent() {
        int[] parent = {cluster.nodeIndex("n1"), cluster.nodeIndex("n2")};
        assertThat(parent).containsExactly(0, 1);

        Result r = plugin.generate(pendingOnly(Groups.gang("g", 1).topology(RACK).build()), cluster, parent);

        assertThat(describe(r)).containsExactly("rack=r1 0 [n2]", "rack=r2 0 [n1]");
    }

    @Test
    @DisplayName("bound members pin the group to their domain")
    void boundMembersPin() {
        Result r = plugin.generate(boundOn(Groups.gang("g", 2).topology(RACK).build(), "n2", "n4"), cluster, all());

        assertThat(describe(r)).containsExactly("rack=r1 0 [n2, n4]");
    }

    @Test
    @DisplayName("bound members in two domains of a required key make the group unresolvable")
    void boundMembersInTwoDomains() {
        Result r = plugin.generate(boundOn(Groups.gang("g", 2).topology(RACK).build(), "n1", "n2"), cluster, all());

        assertThat(r.candidates()).isNull();
        assertThat(r.status().code()).isEqualTo(Code.UnschedulableAndUnresolvable);
        assertThat(r.status().message()).isEqualTo("more than 1 domain found for pod group");
        assertThat(r.status().plugin()).isEqualTo(TopologyPlacementGeneratorPlugin.NAME);
    }

    @Test
    @DisplayName("a bound member on a node without the required key makes the group unresolvable, naming the pod")
    void boundMemberWithoutDomain() {
        Result r = plugin.generate(boundOn(Groups.gang("g", 2).topology(RACK).build(), "n3"), cluster, all());

        assertThat(r.candidates()).isNull();
        assertThat(r.status().code()).isEqualTo(Code.UnschedulableAndUnresolvable);
        assertThat(r.status().message()).isEqualTo("no topology domain found for pod on-n3");
    }

    @Test
    @DisplayName("levels annotated tightest first become tiers, the required key last: rack, then block, then zone")
    void multiLevelTiers() {
        PodGroup g = Groups.gang("g", 1).topology(ZONE).annotation(TopologyPlacementGeneratorPlugin.LEVELS,
                "rack, block").build();

        Result r = plugin.generate(pendingOnly(g), cluster, all());

        assertThat(describe(r)).containsExactly(
                "rack=r1 0 [n2, n4]",
                "rack=r2 0 [n1]",
                "rack=r3 0 [n5]",
                "block=bA 1 [n1, n2, n4]",
                "block=bB 1 [n5]",
                "zone=z1 2 [n1, n2, n4, n5]");
    }

    @Test
    @DisplayName("a bound member conflicting on a tight level skips that tier but keeps the wider ones")
    void conflictSkipsTightTier() {
        PodGroup g = Groups.gang("g", 2).topology(BLOCK).annotation(TopologyPlacementGeneratorPlugin.LEVELS, RACK)
                .build();

        Result r = plugin.generate(boundOn(g, "n1", "n2"), cluster, all());

        assertThat(r.status()).isEqualTo(Status.SUCCESS);
        assertThat(describe(r)).containsExactly("block=bA 1 [n1, n2, n4]");
    }

    @Test
    @DisplayName("Preferred mode adds a last tier '*' with every parent node after the levels")
    void preferredAddsEverything() {
        PodGroup g = Groups.gang("g", 1).topology(BLOCK)
                .annotation(TopologyPlacementGeneratorPlugin.LEVELS, RACK)
                .annotation(TopologyPlacementGeneratorPlugin.MODE, "preferred").build();

        Result r = plugin.generate(pendingOnly(g), cluster, all());

        assertThat(describe(r)).containsExactly(
                "rack=r1 0 [n2, n4]",
                "rack=r2 0 [n1]",
                "rack=r3 0 [n5]",
                "block=bA 1 [n1, n2, n4]",
                "block=bB 1 [n5]",
                "* 2 [n1, n2, n3, n4, n5]");
    }

    @Test
    @DisplayName("levels annotated without a spec key are soft: a Preferred '*' tier follows, and conflicts are not fatal")
    void annotationOnlyIsPreferred() {
        PodGroup g = Groups.gang("g", 2).annotation(TopologyPlacementGeneratorPlugin.LEVELS, RACK).build();

        Result r = plugin.generate(boundOn(g, "n1", "n3"), cluster, all());

        assertThat(r.status()).isEqualTo(Status.SUCCESS);
        assertThat(describe(r)).containsExactly("* 1 [n1, n2, n3, n4, n5]");
    }

    @ParameterizedTest(name = "levels \"{0}\", spec key \"{1}\" -> {2}")
    @CsvSource(delimiter = '|', value = {
        "rack,block|zone|rack,block,zone",
        "rack,zone,region|zone|rack,zone",
        "rack, rack ,,block||rack,block",
        "|zone|zone",
        "zone|zone|zone",
    })
    @DisplayName("levels: annotated keys tightest first, duplicates and blanks dropped, nothing wider than the spec key")
    void levels(String annotated, String specKey, String expected) {
        Groups b = Groups.gang("g", 1);
        if (annotated != null) {
            b.annotation(TopologyPlacementGeneratorPlugin.LEVELS, annotated);
        }
        if (specKey != null) {
            b.topology(specKey);
        }

        assertThat(TopologyPlacementGeneratorPlugin.levels(b.build())).containsExactly(expected.split(","));
    }
}
