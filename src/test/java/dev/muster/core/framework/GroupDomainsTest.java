package dev.muster.core.framework;

import dev.muster.core.framework.GroupDomains.Domain;
import dev.muster.core.framework.GroupDomains.Pin;
import dev.muster.core.model.Node;
import dev.muster.core.model.Pod;
import dev.muster.core.testing.TestCluster;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static dev.muster.core.testing.Nodes.node;
import static dev.muster.core.testing.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;

/** The domains of a key a group may use: grouping, the parent's cut, and the pin of bound members. */
class GroupDomainsTest {
    private static final String RACK = "rack";

    /** n1 r2, n2 r1, n3 without the label, n4 r1, n5 r3; a pod bound on each node ("on-n1" ...). */
    private final TestCluster cluster = cluster();

    private static TestCluster cluster() {
        List<Node> nodes = List.of(
                node("n1").label(RACK, "r2").build(),
                node("n2").label(RACK, "r1").build(),
                node("n3").build(),
                node("n4").label(RACK, "r1").build(),
                node("n5").label(RACK, "r3").build());
        List<Pod> pods = new ArrayList<>();
        for (String n : List.of("n1", "n2", "n3", "n4", "n5")) {
            pods.add(pod("on-" + n).on(n).build());
        }
        return TestCluster.of(nodes, pods);
    }

    private List<PodInfo> on(String... nodes) {
        return Arrays.stream(nodes).map(n -> cluster.pod("on-" + n)).toList();
    }

    private int[] indices(String... nodes) {
        return Arrays.stream(nodes).mapToInt(cluster::nodeIndex).sorted().toArray();
    }

    /** Each domain as "name [nodes]". */
    private List<String> describe(List<Domain> domains) {
        return domains.stream().map(d -> d.name() + " " + Arrays.stream(d.nodes())
                .mapToObj(i -> cluster.anyNode(i).name()).toList()).toList();
    }

    @Test
    @DisplayName("every node with the label, grouped by value in value order; a node without it is in no domain")
    void groupedByValue() {
        assertThat(describe(GroupDomains.domains(cluster, RACK, Pin.NONE, null)))
                .containsExactly("rack=r1 [n2, n4]", "rack=r2 [n1]", "rack=r3 [n5]");
        assertThat(GroupDomains.domains(cluster, "no-such-key", Pin.NONE, null)).isEmpty();
    }

    @Test
    @DisplayName("each domain is cut to the parent's nodes and left out when none of it is in the parent")
    void cutToTheParent() {
        assertThat(describe(GroupDomains.domains(cluster, RACK, Pin.NONE, indices("n1", "n4"))))
                .containsExactly("rack=r1 [n4]", "rack=r2 [n1]");
        assertThat(GroupDomains.domains(cluster, RACK, Pin.NONE, new int[0])).isEmpty();
    }

    @Test
    @DisplayName("a parent of the snapshot's first nodes is a cut like any other; only every node leaves domains whole")
    void leadingParentIsACut() {
        assertThat(indices("n1", "n2")).containsExactly(0, 1);

        assertThat(describe(GroupDomains.domains(cluster, RACK, Pin.NONE, indices("n1", "n2"))))
                .containsExactly("rack=r1 [n2]", "rack=r2 [n1]");
        int[] all = indices("n1", "n2", "n3", "n4", "n5");
        assertThat(GroupDomains.domains(cluster, RACK, Pin.NONE, all).get(0).nodes())
                .isSameAs(cluster.topologyDomains(RACK).get("r1"));
    }

    @Test
    @DisplayName("no bound member pins nothing; bound members in one domain pin the group to it")
    void pinnedToOneDomain() {
        assertThat(GroupDomains.pin(List.of(), RACK, cluster)).isEqualTo(Pin.NONE);

        Pin pin = GroupDomains.pin(on("n2", "n4"), RACK, cluster);

        assertThat(pin).isEqualTo(new Pin("r1", false, null));
        assertThat(pin.conflict()).isFalse();
        assertThat(describe(GroupDomains.domains(cluster, RACK, pin, indices("n1", "n2", "n5"))))
                .containsExactly("rack=r1 [n2]");
    }

    @Test
    @DisplayName("bound members in two domains leave the group none, either way outside members are counted")
    void boundInTwoDomains() {
        for (Pin pin : List.of(GroupDomains.pin(on("n2", "n1", "n4"), RACK, cluster),
                GroupDomains.pinSkippingOutside(on("n3", "n2", "n1"), RACK, cluster))) {
            assertThat(pin.split()).isTrue();
            assertThat(pin.value()).isEqualTo("r1");
            assertThat(pin.conflict()).isTrue();
            assertThat(pin.admits("r1")).isFalse();
            assertThat(GroupDomains.domains(cluster, RACK, pin, null)).isEmpty();
        }
    }

    @Test
    @DisplayName("a bound member on a node without the label conflicts for pin, naming it; pinSkippingOutside skips it")
    void boundOutsideEveryDomain() {
        Pin strict = GroupDomains.pin(on("n2", "n3", "n1"), RACK, cluster);
        Pin skipping = GroupDomains.pinSkippingOutside(on("n2", "n3", "n4"), RACK, cluster);

        // The first conflict in the members' order is the one reported: here the member on n3, not the split after.
        assertThat(strict.outside()).isEqualTo(cluster.pod("on-n3"));
        assertThat(strict.split()).isFalse();
        assertThat(strict.conflict()).isTrue();
        assertThat(skipping).isEqualTo(new Pin("r1", false, null));
        assertThat(GroupDomains.pinSkippingOutside(on("n3"), RACK, cluster)).isEqualTo(Pin.NONE);
    }

    @Test
    @DisplayName("a split before a member outside every domain is reported as the split")
    void firstConflictWins() {
        Pin pin = GroupDomains.pin(on("n1", "n2", "n3"), RACK, cluster);

        assertThat(pin.split()).isTrue();
        assertThat(pin.outside()).isNull();
    }
}
