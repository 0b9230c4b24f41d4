package dev.muster.core.plugins.podtopologyspread;

import dev.muster.core.framework.Code;
import dev.muster.core.framework.Status;
import dev.muster.core.model.Node;
import dev.muster.core.model.Pod;
import dev.muster.core.model.TaintEffect;
import dev.muster.core.model.TopologySpreadConstraint;
import dev.muster.core.testing.Nodes;
import dev.muster.core.testing.Pods;
import dev.muster.core.testing.TestCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static dev.muster.core.testing.Pods.hardSpread;
import static dev.muster.core.testing.Pods.labels;
import static dev.muster.core.testing.Pods.softSpread;
import static org.assertj.core.api.Assertions.assertThat;

class PodTopologySpreadPluginTest {
    private static final String ZONE = "topology.kubernetes.io/zone";
    private static final String HOST = "kubernetes.io/hostname";
    private static final String OK = "ok";
    private static final String SKEW = "skew";
    private static final String MISSING = "missing";

    /** n1, n2 in zone a; n3, n4 in zone b; n5 has no zone label. */
    private static List<Node> nodes() {
        return List.of(
                Nodes.node("n1").label(ZONE, "a").label(HOST, "n1").build(),
                Nodes.node("n2").label(ZONE, "a").label(HOST, "n2").build(),
                Nodes.node("n3").label(ZONE, "b").label(HOST, "n3").build(),
                Nodes.node("n4").label(ZONE, "b").label(HOST, "n4").build(),
                Nodes.node("n5").label(HOST, "n5").build());
    }

    private static Pods web(String name, String node) {
        return Pods.pod(name).label("app", "web").on(node);
    }

    private static final TopologySpreadConstraint ZONE_WEB = hardSpread(1, ZONE, labels("app", "web"));

    static Stream<Arguments> filterCases() {
        return Stream.of(
                Arguments.of("balanced zones admit the pod in every zone",
                        List.of(web("w1", "n1"), web("w2", "n3")),
                        Pods.pod("p").label("app", "web").spread(ZONE_WEB),
                        List.of(OK, OK, OK, OK, MISSING)),
                Arguments.of("a zone already ahead by maxSkew is rejected",
                        List.of(web("w1", "n1"), web("w2", "n2")),
                        Pods.pod("p").label("app", "web").spread(ZONE_WEB),
                        List.of(SKEW, SKEW, OK, OK, MISSING)),
                Arguments.of("a pod its own selector does not match does not count itself",
                        List.of(web("w1", "n1")),
                        Pods.pod("p").label("app", "db").spread(ZONE_WEB),
                        List.of(OK, OK, OK, OK, MISSING)),
                Arguments.of("pods in other namespaces are not counted",
                        List.of(web("w1", "n1").namespace("other"), web("w2", "n2").namespace("other")),
                        Pods.pod("p").label("app", "web").spread(ZONE_WEB),
                        List.of(OK, OK, OK, OK, MISSING)),
                Arguments.of("terminating pods are not counted",
                        List.of(web("w1", "n1").terminating(), web("w2", "n2").terminating()),
                        Pods.pod("p").label("app", "web").spread(ZONE_WEB),
                        List.of(OK, OK, OK, OK, MISSING)),
                Arguments.of("fewer domains than minDomains make the global minimum zero",
                        List.of(web("w1", "n1"), web("w2", "n3")),
                        Pods.pod("p").label("app", "web").spread(new TopologySpreadConstraint(1, ZONE, true,
                                labels("app", "web"), 3, true, false, List.of())),
                        List.of(SKEW, SKEW, SKEW, SKEW, MISSING)),
                Arguments.of("a larger maxSkew tolerates the imbalance",
                        List.of(web("w1", "n1"), web("w2", "n2")),
                        Pods.pod("p").label("app", "web").spread(hardSpread(3, ZONE, labels("app", "web"))),
                        List.of(OK, OK, OK, OK, MISSING)),
                Arguments.of("with nodeAffinityPolicy Honor, zones outside the pod's node selector are not domains",
                        List.of(web("w1", "n1")),
                        Pods.pod("p").label("app", "web").nodeSelector(ZONE, "a").spread(ZONE_WEB),
                        List.of(OK, OK, OK, OK, MISSING)),
                Arguments.of("with nodeAffinityPolicy Ignore, every zone is a domain",
                        List.of(web("w1", "n1")),
                        Pods.pod("p").label("app", "web").nodeSelector(ZONE, "a").spread(new TopologySpreadConstraint(
                                1, ZONE, true, labels("app", "web"), null, false, false, List.of())),
                        List.of(SKEW, SKEW, OK, OK, MISSING)),
                Arguments.of("hostname spreading compares single nodes",
                        List.of(web("w1", "n1")),
                        Pods.pod("p").label("app", "web").spread(hardSpread(1, HOST, labels("app", "web"))),
                        List.of(SKEW, OK, OK, OK, OK)),
                Arguments.of("a null selector matches no pod, so nothing is skewed",
                        List.of(web("w1", "n1"), web("w2", "n2")),
                        Pods.pod("p").label("app", "web").spread(hardSpread(1, ZONE, null)),
                        List.of(OK, OK, OK, OK, MISSING)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("filterCases")
    void filter(String name, List<Pods> existing, Pods pod, List<String> expected) {
        List<Pod> pods = new ArrayList<>();
        existing.forEach(p -> pods.add(p.build()));
        pods.add(pod.build());
        TestCluster c = TestCluster.of(nodes(), pods);
        List<String> actual = new ArrayList<>();
        for (Status s : c.filter(new PodTopologySpreadPlugin(), "p").values()) {
            if (s.isSuccess()) {
                actual.add(OK);
            } else if (s.code() == Code.UnschedulableAndUnresolvable) {
                assertThat(s.reasons()).containsExactly(
                        "node(s) didn't match pod topology spread constraints (missing required label)");
                actual.add(MISSING);
            } else {
                assertThat(s.code()).isEqualTo(Code.Unschedulable);
                assertThat(s.reasons()).containsExactly("node(s) didn't match pod topology spread constraints");
                actual.add(SKEW);
            }
        }
        assertThat(actual).containsExactlyElementsOf(expected);
    }

    @Test
    void withNodeTaintsPolicyHonorTaintedNodesDoNotFormDomains() {
        List<Node> nodes = List.of(
                Nodes.node("n1").label(ZONE, "a").build(),
                Nodes.node("n2").label(ZONE, "b").taint("maint", "", TaintEffect.NoSchedule).build());
        TopologySpreadConstraint honor = new TopologySpreadConstraint(1, ZONE, true, labels("app", "web"), null,
                true, true, List.of());
        TopologySpreadConstraint ignore = new TopologySpreadConstraint(1, ZONE, true, labels("app", "web"), null,
                true, false, List.of());
        TestCluster c = TestCluster.of(nodes, List.of(web("w1", "n1").build(),
                Pods.pod("honor").label("app", "web").spread(honor).build(),
                Pods.pod("ignore").label("app", "web").spread(ignore).build()));
        // honour: only zone a is a domain (min 1), so a: 1+1-1 = 1 fits
        assertThat(c.filter(new PodTopologySpreadPlugin(), "honor").get("n1").isSuccess()).isTrue();
        // ignore: zone b counts with 0 pods, so a: 1+1-0 = 2 > 1
        assertThat(c.filter(new PodTopologySpreadPlugin(), "ignore").get("n1").code()).isEqualTo(Code.Unschedulable);
    }

    @Test
    void membersAssumedEarlierInTheCycleAreCounted() {
        TestCluster c = TestCluster.of(nodes(), List.of(
                Pods.pod("m1").label("app", "web").spread(ZONE_WEB).build(),
                Pods.pod("m2").label("app", "web").spread(ZONE_WEB).build()));
        assertThat(c.feasible(new PodTopologySpreadPlugin(), "m2")).containsExactly("n1", "n2", "n3", "n4");
        c.assume("m1", "n1");
        assertThat(c.feasible(new PodTopologySpreadPlugin(), "m2")).containsExactly("n3", "n4");
    }

    @Test
    void aPodWithoutHardConstraintsSkipsFiltering() {
        TestCluster c = TestCluster.of(nodes(), List.of(
                Pods.pod("p").spread(softSpread(1, ZONE, labels("app", "web"))).build()));
        assertThat(c.feasible(new PodTopologySpreadPlugin(), "p")).hasSize(5);
    }

    @Test
    void softSpreadingFavoursTheEmptierZoneAndZeroesNodesWithoutTheKey() {
        // zone a has 2 matches; weight log(2 domains + 2); a: round(2*1.386) = 3, b: 0
        TestCluster c = TestCluster.of(nodes(), List.of(web("w1", "n1").build(), web("w2", "n2").build(),
                Pods.pod("p").label("app", "web").spread(softSpread(1, ZONE, labels("app", "web"))).build()));
        PodTopologySpreadPlugin plugin = new PodTopologySpreadPlugin();
        assertThat(c.rawScore(plugin, "p", "n1")).isEqualTo(3);
        assertThat(c.score(plugin, "p")).containsEntry("n1", 0L).containsEntry("n2", 0L)
                .containsEntry("n3", 100L).containsEntry("n4", 100L).containsEntry("n5", 0L);
    }

    @Test
    void maxSkewWatersDownDifferences() {
        // maxSkew 3 adds 2 to every node: a = round(2*1.386 + 2) = 5, b = 2; 100*(5+2-s)/5 -> a 40, b 100
        TestCluster c = TestCluster.of(nodes(), List.of(web("w1", "n1").build(), web("w2", "n2").build(),
                Pods.pod("p").label("app", "web").spread(softSpread(3, ZONE, labels("app", "web"))).build()));
        Map<String, Long> scores = c.score(new PodTopologySpreadPlugin(), "p", "n1", "n3");
        assertThat(scores).containsEntry("n1", 40L).containsEntry("n3", 100L);
    }

    @Test
    void hostnameSpreadingCountsPerNode() {
        // weight log(5 feasible + 2) = 1.946; n1 has 2 matches -> round(3.89) = 4, others 0
        TestCluster c = TestCluster.of(nodes(), List.of(web("w1", "n1").build(), web("w2", "n1").build(),
                Pods.pod("p").label("app", "web").spread(softSpread(1, HOST, labels("app", "web"))).build()));
        PodTopologySpreadPlugin plugin = new PodTopologySpreadPlugin();
        assertThat(c.rawScore(plugin, "p", "n1")).isEqualTo(4);
        assertThat(c.score(plugin, "p")).containsEntry("n1", 0L).containsEntry("n2", 100L).containsEntry("n5", 100L);
    }

    @Test
    void noMatchesAnywhereGivesEveryQualifiedNodeTheMaximum() {
        TestCluster c = TestCluster.of(nodes(), List.of(
                Pods.pod("p").label("app", "web").spread(softSpread(1, ZONE, labels("app", "web"))).build()));
        assertThat(c.score(new PodTopologySpreadPlugin(), "p")).containsEntry("n1", 100L).containsEntry("n4", 100L)
                .containsEntry("n5", 0L);
    }

    @Test
    void aPodWithoutSoftConstraintsSkipsScoring() {
        TestCluster c = TestCluster.of(nodes(), List.of(Pods.pod("p").spread(ZONE_WEB).build()));
        assertThat(c.score(new PodTopologySpreadPlugin(), "p")).isEmpty();
    }
}
