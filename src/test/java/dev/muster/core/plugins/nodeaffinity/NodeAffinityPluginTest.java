package dev.muster.core.plugins.nodeaffinity;

import dev.muster.core.framework.Code;
import dev.muster.core.framework.Status;
import dev.muster.core.model.NodeSelectorRequirement.Operator;
import dev.muster.core.testing.Nodes;
import dev.muster.core.testing.Pods;
import dev.muster.core.testing.TestCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.Stream;

import static dev.muster.core.testing.Pods.fieldTerm;
import static dev.muster.core.testing.Pods.req;
import static dev.muster.core.testing.Pods.term;
import static org.assertj.core.api.Assertions.assertThat;

class NodeAffinityPluginTest {

    /** Node n1: zone=a, gen=5, disk=ssd. */
    static Stream<Arguments> filterCases() {
        return Stream.of(
                Arguments.of("a pod without selector or affinity fits", Pods.pod("p"), true),
                Arguments.of("a matching nodeSelector fits", Pods.pod("p").nodeSelector("zone", "a"), true),
                Arguments.of("a nodeSelector with another value does not fit",
                        Pods.pod("p").nodeSelector("zone", "b"), false),
                Arguments.of("a nodeSelector on a missing label does not fit",
                        Pods.pod("p").nodeSelector("rack", "r1"), false),
                Arguments.of("In matches a listed value",
                        Pods.pod("p").requiredNodeTerm(term(req("zone", Operator.In, "b", "a"))), true),
                Arguments.of("NotIn rejects a listed value",
                        Pods.pod("p").requiredNodeTerm(term(req("zone", Operator.NotIn, "a"))), false),
                Arguments.of("NotIn matches when the label is absent",
                        Pods.pod("p").requiredNodeTerm(term(req("rack", Operator.NotIn, "r1"))), true),
                Arguments.of("Exists matches a present label",
                        Pods.pod("p").requiredNodeTerm(term(req("disk", Operator.Exists))), true),
                Arguments.of("DoesNotExist rejects a present label",
                        Pods.pod("p").requiredNodeTerm(term(req("disk", Operator.DoesNotExist))), false),
                Arguments.of("Gt compares integers",
                        Pods.pod("p").requiredNodeTerm(term(req("gen", Operator.Gt, "4"))), true),
                Arguments.of("Gt is strict",
                        Pods.pod("p").requiredNodeTerm(term(req("gen", Operator.Gt, "5"))), false),
                Arguments.of("Lt compares integers",
                        Pods.pod("p").requiredNodeTerm(term(req("gen", Operator.Lt, "10"))), true),
                Arguments.of("Gt against a non-integer label does not match",
                        Pods.pod("p").requiredNodeTerm(term(req("zone", Operator.Gt, "1"))), false),
                Arguments.of("Gt with a non-integer value does not match",
                        Pods.pod("p").requiredNodeTerm(term(req("gen", Operator.Gt, "x"))), false),
                Arguments.of("requirements of one term are ANDed",
                        Pods.pod("p").requiredNodeTerm(term(req("zone", Operator.In, "a"),
                                req("disk", Operator.In, "hdd"))), false),
                Arguments.of("terms are ORed",
                        Pods.pod("p").requiredNodeTerm(term(req("zone", Operator.In, "b")))
                                .requiredNodeTerm(term(req("disk", Operator.In, "ssd"))), true),
                Arguments.of("required affinity with no terms matches no node",
                        Pods.pod("p").requiredNodeTermsEmpty(), false),
                Arguments.of("a term with neither expressions nor fields matches no node",
                        Pods.pod("p").requiredNodeTerm(term()), false),
                Arguments.of("matchFields on metadata.name matches the node's name",
                        Pods.pod("p").requiredNodeTerm(fieldTerm(req("metadata.name", Operator.In, "n1"))), true),
                Arguments.of("matchFields on metadata.name rejects other names",
                        Pods.pod("p").requiredNodeTerm(fieldTerm(req("metadata.name", Operator.In, "n2"))), false),
                Arguments.of("matchFields on an unsupported field matches nothing",
                        Pods.pod("p").requiredNodeTerm(fieldTerm(req("spec.foo", Operator.Exists))), false),
                Arguments.of("nodeSelector and affinity must both hold",
                        Pods.pod("p").nodeSelector("zone", "b")
                                .requiredNodeTerm(term(req("disk", Operator.Exists))), false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("filterCases")
    void filter(String name, Pods pod, boolean fits) {
        TestCluster c = TestCluster.of(
                List.of(Nodes.node("n1").label("zone", "a").label("gen", "5").label("disk", "ssd").build()),
                List.of(pod.build()));
        Status s = c.filter(new NodeAffinityPlugin(), "p").get("n1");
        if (fits) {
            assertThat(s.isSuccess()).isTrue();
        } else {
            assertThat(s.code()).isEqualTo(Code.UnschedulableAndUnresolvable);
            assertThat(s.reasons()).containsExactly("node(s) didn't match Pod's node affinity/selector");
        }
    }

    @Test
    void preferredTermWeightsAreSummedAndScaledToTheBestNode() {
        TestCluster c = TestCluster.of(List.of(
                        Nodes.node("both").label("zone", "a").label("disk", "ssd").build(),
                        Nodes.node("zoneOnly").label("zone", "a").build(),
                        Nodes.node("diskOnly").label("disk", "ssd").build(),
                        Nodes.node("none").build()),
                List.of(Pods.pod("p")
                        .preferredNodeTerm(30, term(req("zone", Operator.In, "a")))
                        .preferredNodeTerm(10, term(req("disk", Operator.In, "ssd"))).build()));
        assertThat(c.score(new NodeAffinityPlugin(), "p"))
                .containsEntry("both", 100L)
                .containsEntry("zoneOnly", 75L)
                .containsEntry("diskOnly", 25L)
                .containsEntry("none", 0L);
    }

    @Test
    void scoresAreScaledAgainstTheBestFeasibleNodeOnly() {
        TestCluster c = TestCluster.of(List.of(
                        Nodes.node("both").label("zone", "a").label("disk", "ssd").build(),
                        Nodes.node("diskOnly").label("disk", "ssd").build(),
                        Nodes.node("none").build()),
                List.of(Pods.pod("p")
                        .preferredNodeTerm(30, term(req("zone", Operator.In, "a")))
                        .preferredNodeTerm(10, term(req("disk", Operator.In, "ssd"))).build()));
        assertThat(c.score(new NodeAffinityPlugin(), "p", "diskOnly", "none"))
                .containsEntry("diskOnly", 100L).containsEntry("none", 0L);
    }

    @Test
    void aPodWithoutPreferredTermsSkipsScoring() {
        TestCluster c = TestCluster.of(List.of(Nodes.node("n1").build()), List.of(Pods.pod("p").build()));
        assertThat(c.score(new NodeAffinityPlugin(), "p")).isEmpty();
    }
}
