package dev.muster.core.plugins.interpodaffinity;

import dev.muster.core.framework.Code;
import dev.muster.core.framework.Status;
import dev.muster.core.model.LabelSelector;
import dev.muster.core.model.Node;
import dev.muster.core.model.Pod;
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

import static dev.muster.core.testing.Pods.affinityTerm;
import static dev.muster.core.testing.Pods.labels;
import static org.assertj.core.api.Assertions.assertThat;

class InterPodAffinityPluginTest {
    private static final String ZONE = "topology.kubernetes.io/zone";
    private static final String HOST = "kubernetes.io/hostname";
    private static final String OK = "ok";
    private static final String AFF = InterPodAffinityPlugin.REASON_AFFINITY;
    private static final String ANTI = InterPodAffinityPlugin.REASON_ANTI_AFFINITY;
    private static final String EXISTING = InterPodAffinityPlugin.REASON_EXISTING_ANTI_AFFINITY;

    /** n1, n2 in zone a; n3 in zone b; n4 has no zone label. Every node has its hostname label. */
    private static List<Node> nodes() {
        return List.of(
                Nodes.node("n1").label(ZONE, "a").label(HOST, "n1").build(),
                Nodes.node("n2").label(ZONE, "a").label(HOST, "n2").build(),
                Nodes.node("n3").label(ZONE, "b").label(HOST, "n3").build(),
                Nodes.node("n4").label(HOST, "n4").build());
    }

    static Stream<Arguments> filterCases() {
        return Stream.of(
                Arguments.of("required affinity admits only the domain of a matching pod",
                        List.of(Pods.pod("db").label("app", "db").on("n1")),
                        Pods.pod("p").podAffinity(affinityTerm(labels("app", "db"), ZONE)),
                        List.of(OK, OK, AFF, AFF)),
                Arguments.of("the first pod of a self-affine set may go to any node with the topology key",
                        List.of(),
                        Pods.pod("p").label("app", "web").podAffinity(affinityTerm(labels("app", "web"), ZONE)),
                        List.of(OK, OK, OK, AFF)),
                Arguments.of("without a match anywhere a pod not matching its own terms fits nowhere",
                        List.of(),
                        Pods.pod("p").podAffinity(affinityTerm(labels("app", "db"), ZONE)),
                        List.of(AFF, AFF, AFF, AFF)),
                Arguments.of("a self-affine pod must join existing matches once there are any",
                        List.of(Pods.pod("w1").label("app", "web").on("n3")),
                        Pods.pod("p").label("app", "web").podAffinity(affinityTerm(labels("app", "web"), ZONE)),
                        List.of(AFF, AFF, OK, AFF)),
                Arguments.of("a matching pod must match all affinity terms to count",
                        List.of(Pods.pod("db").label("app", "db").on("n1")),
                        Pods.pod("p").podAffinity(affinityTerm(labels("app", "db"), ZONE))
                                .podAffinity(affinityTerm(labels("tier", "cache"), ZONE)),
                        List.of(AFF, AFF, AFF, AFF)),
                Arguments.of("required anti-affinity keeps the pod out of a matching pod's domain",
                        List.of(Pods.pod("w1").label("app", "web").on("n1")),
                        Pods.pod("p").podAntiAffinity(affinityTerm(labels("app", "web"), ZONE)),
                        List.of(ANTI, ANTI, OK, OK)),
                Arguments.of("an existing pod's anti-affinity keeps a matching pod out of its domain",
                        List.of(Pods.pod("lonely").on("n1").podAntiAffinity(affinityTerm(labels("app", "web"), ZONE))),
                        Pods.pod("p").label("app", "web"),
                        List.of(EXISTING, EXISTING, OK, OK)),
                Arguments.of("an existing pod's anti-affinity ignores pods it does not select",
                        List.of(Pods.pod("lonely").on("n1").podAntiAffinity(affinityTerm(labels("app", "web"), ZONE))),
                        Pods.pod("p").label("app", "db"),
                        List.of(OK, OK, OK, OK)),
                Arguments.of("a term without namespaces only sees the pod's own namespace",
                        List.of(Pods.pod("db").namespace("other").label("app", "db").on("n1")),
                        Pods.pod("p").podAffinity(affinityTerm(labels("app", "db"), ZONE)),
                        List.of(AFF, AFF, AFF, AFF)),
                Arguments.of("listed namespaces are searched",
                        List.of(Pods.pod("db").namespace("other").label("app", "db").on("n1")),
                        Pods.pod("p").podAffinity(affinityTerm(labels("app", "db"), ZONE, List.of("other"), null)),
                        List.of(OK, OK, AFF, AFF)),
                Arguments.of("an empty namespace selector searches every namespace",
                        List.of(Pods.pod("db").namespace("other").label("app", "db").on("n3")),
                        Pods.pod("p").podAffinity(affinityTerm(labels("app", "db"), ZONE, List.of(),
                                LabelSelector.EVERYTHING)),
                        List.of(AFF, AFF, OK, AFF)),
                Arguments.of("a namespace selector matches the namespace's name label",
                        List.of(Pods.pod("db").namespace("other").label("app", "db").on("n3")),
                        Pods.pod("p").podAffinity(affinityTerm(labels("app", "db"), ZONE, List.of(),
                                labels("kubernetes.io/metadata.name", "other"))),
                        List.of(AFF, AFF, OK, AFF)),
                Arguments.of("a pod without any affinity fits everywhere",
                        List.of(Pods.pod("w1").label("app", "web").on("n1")), Pods.pod("p"),
                        List.of(OK, OK, OK, OK)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("filterCases")
    void filter(String name, List<Pods> existing, Pods pod, List<String> expected) {
        List<Pod> pods = new ArrayList<>();
        existing.forEach(p -> pods.add(p.build()));
        pods.add(pod.build());
        TestCluster c = TestCluster.of(nodes(), pods);
        Map<String, Status> r = c.filter(new InterPodAffinityPlugin(), "p");
        List<String> actual = new ArrayList<>();
        r.values().forEach(s -> actual.add(s.isSuccess() ? OK : s.message()));
        assertThat(actual).containsExactlyElementsOf(expected);
    }

    @Test
    void affinityFailuresAreUnresolvableAndAntiAffinityFailuresAreNot() {
        TestCluster c = TestCluster.of(nodes(), List.of(
                Pods.pod("w1").label("app", "web").on("n1").build(),
                Pods.pod("a").podAffinity(affinityTerm(labels("app", "web"), ZONE)).build(),
                Pods.pod("b").podAntiAffinity(affinityTerm(labels("app", "web"), ZONE)).build()));
        assertThat(c.filter(new InterPodAffinityPlugin(), "a").get("n3").code())
                .isEqualTo(Code.UnschedulableAndUnresolvable);
        assertThat(c.filter(new InterPodAffinityPlugin(), "b").get("n1").code()).isEqualTo(Code.Unschedulable);
    }

    @Test
    void membersAssumedEarlierInTheCycleCountForAntiAffinity() {
        TestCluster c = TestCluster.of(nodes(), List.of(
                Pods.pod("m1").label("group", "g").podAntiAffinity(affinityTerm(labels("group", "g"), HOST)).build(),
                Pods.pod("m2").label("group", "g").podAntiAffinity(affinityTerm(labels("group", "g"), HOST)).build()));
        assertThat(c.feasible(new InterPodAffinityPlugin(), "m2")).containsExactly("n1", "n2", "n3", "n4");
        c.assume("m1", "n2");
        assertThat(c.feasible(new InterPodAffinityPlugin(), "m2")).containsExactly("n1", "n3", "n4");
    }

    @Test
    void membersAssumedEarlierInTheCycleSatisfyAffinity() {
        TestCluster c = TestCluster.of(nodes(), List.of(
                Pods.pod("m1").label("group", "g").podAffinity(affinityTerm(labels("group", "g"), ZONE)).build(),
                Pods.pod("m2").label("group", "g").podAffinity(affinityTerm(labels("group", "g"), ZONE)).build()));
        c.assume("m1", "n3");
        assertThat(c.feasible(new InterPodAffinityPlugin(), "m2")).containsExactly("n3");
    }

    @Test
    void preferredAffinityFavoursTheDomainOfMatchingPods() {
        TestCluster c = TestCluster.of(nodes(), List.of(
                Pods.pod("db").label("app", "db").on("n1").build(),
                Pods.pod("p").preferredPodAffinity(10, affinityTerm(labels("app", "db"), ZONE)).build()));
        assertThat(c.score(new InterPodAffinityPlugin(), "p"))
                .containsEntry("n1", 100L).containsEntry("n2", 100L).containsEntry("n3", 0L).containsEntry("n4", 0L);
    }

    @Test
    void preferredAntiAffinityDisfavoursTheDomainOfMatchingPods() {
        TestCluster c = TestCluster.of(nodes(), List.of(
                Pods.pod("db").label("app", "db").on("n1").build(),
                Pods.pod("p").preferredPodAntiAffinity(10, affinityTerm(labels("app", "db"), ZONE)).build()));
        assertThat(c.score(new InterPodAffinityPlugin(), "p"))
                .containsEntry("n1", 0L).containsEntry("n2", 0L).containsEntry("n3", 100L).containsEntry("n4", 100L);
    }

    @Test
    void weightsCombineAndScaleMinToMax() {
        // zone a: +20 (db) ; host n3: +5 (cache on n3 via hostname term); raw n1=20, n2=20, n3=5, n4=0
        TestCluster c = TestCluster.of(nodes(), List.of(
                Pods.pod("db").label("app", "db").on("n1").build(),
                Pods.pod("cache").label("app", "cache").on("n3").build(),
                Pods.pod("p").preferredPodAffinity(20, affinityTerm(labels("app", "db"), ZONE))
                        .preferredPodAffinity(5, affinityTerm(labels("app", "cache"), HOST)).build()));
        InterPodAffinityPlugin plugin = new InterPodAffinityPlugin();
        assertThat(c.rawScore(plugin, "p", "n2")).isEqualTo(20);
        assertThat(c.rawScore(plugin, "p", "n3")).isEqualTo(5);
        assertThat(c.score(plugin, "p"))
                .containsEntry("n1", 100L).containsEntry("n2", 100L).containsEntry("n3", 25L).containsEntry("n4", 0L);
    }

    @Test
    void existingPodsPreferencesAndRequiredAffinityAttractAMatchingPod() {
        // svc on n3 prefers (weight 7) web pods in its zone; api on n1 requires web pods in its zone (hard weight 1)
        TestCluster c = TestCluster.of(nodes(), List.of(
                Pods.pod("svc").on("n3").preferredPodAffinity(7, affinityTerm(labels("app", "web"), ZONE)).build(),
                Pods.pod("api").on("n1").podAffinity(affinityTerm(labels("app", "web"), ZONE)).build(),
                Pods.pod("p").label("app", "web").build()));
        InterPodAffinityPlugin plugin = new InterPodAffinityPlugin();
        assertThat(c.rawScore(plugin, "p", "n3")).isEqualTo(7);
        assertThat(c.rawScore(plugin, "p", "n2")).isEqualTo(1);
        assertThat(c.rawScore(plugin, "p", "n4")).isZero();
    }

    @Test
    void existingPodsPreferredAntiAffinityRepelsAMatchingPod() {
        TestCluster c = TestCluster.of(nodes(), List.of(
                Pods.pod("svc").on("n3").preferredPodAntiAffinity(4, affinityTerm(labels("app", "web"), ZONE)).build(),
                Pods.pod("p").label("app", "web").build()));
        assertThat(c.score(new InterPodAffinityPlugin(), "p"))
                .containsEntry("n3", 0L).containsEntry("n1", 100L).containsEntry("n4", 100L);
    }

    @Test
    void noAffinityAnywhereSkipsScoring() {
        TestCluster c = TestCluster.of(nodes(), List.of(Pods.pod("x").on("n1").build(), Pods.pod("p").build()));
        assertThat(c.score(new InterPodAffinityPlugin(), "p")).isEmpty();
    }
}
