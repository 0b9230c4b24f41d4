package dev.muster.core.cycle;

import dev.muster.core.framework.FrameworkRuntime;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.model.ClusterState;
import dev.muster.core.model.Node;
import dev.muster.core.model.Pod;
import dev.muster.core.plugins.InTreePlugins;
import dev.muster.core.snapshot.SnapshotOverlay;
import dev.muster.core.testing.Pods;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

import static dev.muster.core.testing.Nodes.node;
import static dev.muster.core.testing.Pods.affinityTerm;
import static dev.muster.core.testing.Pods.labels;
import static dev.muster.core.testing.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The evaluators behind {@link PodScheduler}, with the default profile on six nodes of different sizes and four
 * identical pods: evaluation reuse brings a kept evaluation up to date at the cost of the nodes that changed, and
 * what it gives is what the plain evaluator gives.
 */
class PodEvaluationsTest {
    private static final String HOSTNAME = "kubernetes.io/hostname";
    private static final int NODES = 6;

    private final List<PodInfo> pods = new ArrayList<>();
    private SnapshotOverlay snapshot;
    private PlainEvaluations plain;
    private Placement all;

    private void cluster(UnaryOperator<Pods> edit) {
        List<Node> nodes = new ArrayList<>();
        for (int i = 0; i < NODES; i++) {
            String name = "n" + i;
            nodes.add(node(name).label(HOSTNAME, name).allocatable("cpu", String.valueOf(2 + i))
                    .allocatable("memory", "16Gi").build());
        }
        List<Pod> list = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            list.add(edit.apply(pod("web-" + i).label("app", "web").requests("cpu", "1")).build());
        }
        snapshot = new SnapshotOverlay(new ClusterState(nodes, list, List.of(), List.of(), List.of()));
        for (Pod p : list) {
            pods.add(snapshot.pod(p.ref()));
        }
        plain = new PlainEvaluations(new FrameworkRuntime(InTreePlugins.defaultProfile()), snapshot, null,
                Integer.MAX_VALUE);
        all = Placement.allNodes(snapshot);
    }

    /** The reused evaluation equals a full one made now: verdicts, feasible nodes' totals and the chosen node. */
    private void assertSameAsFull(PodEvaluation reused, PodInfo pod) {
        PodEvaluation full = plain.evaluate(pod, all);
        assertThat(reused.verdicts).isEqualTo(full.verdicts);
        for (int i = 0; i < NODES; i++) {
            if (full.verdicts[i] == null) {
                assertThat(reused.totals[i]).as("total of n%d", i).isEqualTo(full.totals[i]);
            }
        }
        assertThat(reused.attempt().node()).isEqualTo(full.attempt().node());
    }

    @Test
    @DisplayName("the plain evaluator keeps nothing: every pod is evaluated on every node")
    void plainEvaluatesInFull() {
        cluster(p -> p);
        PodEvaluation first = plain.evaluate(pods.get(0), all);
        PodEvaluation second = plain.evaluate(pods.get(1), all);
        assertThat(second).isNotSameAs(first);
        assertThat(first.cost).isEqualTo(NODES);
        assertThat(second.cost).isEqualTo(NODES);
    }

    @Test
    @DisplayName("reuse: the next pod of a signature re-evaluates only the node that changed, and gets a full answer")
    void reuseRefreshesChangedNodes() {
        cluster(p -> p);
        SpeedupEvaluationReuse reuse = new SpeedupEvaluationReuse(plain);
        PodEvaluation first = reuse.evaluate(pods.get(0), all);
        assertThat(first.cost).isEqualTo(NODES);
        for (int k = 1; k < pods.size(); k++) {
            snapshot.assume(pods.get(k - 1), reuse.evaluate(pods.get(k - 1), all).attempt().node());
            PodEvaluation next = reuse.evaluate(pods.get(k), all);
            assertThat(next).as("the kept evaluation").isSameAs(first);
            assertThat(next.cost).as("nodes evaluated again").isEqualTo(1);
            assertSameAsFull(next, pods.get(k));
        }
    }

    @Test
    @DisplayName("reuse: with pod anti-affinity the nodes of a changed node's domain are evaluated again")
    void reuseRefreshesDomainsForPodAffinity() {
        cluster(p -> p.podAntiAffinity(affinityTerm(labels("app", "web"), HOSTNAME)));
        SpeedupEvaluationReuse reuse = new SpeedupEvaluationReuse(plain);
        reuse.evaluate(pods.get(0), all);
        for (int k = 1; k < pods.size(); k++) {
            PodEvaluation before = reuse.evaluate(pods.get(k - 1), all);
            int node = before.attempt().node();
            snapshot.assume(pods.get(k - 1), node);
            PodEvaluation next = reuse.evaluate(pods.get(k), all);
            assertThat(next.cost).isLessThan(NODES);
            assertThat(next.verdicts[node]).as("the node the last pod took").isNotNull();
            assertSameAsFull(next, pods.get(k));
        }
    }

    @Test
    @DisplayName("reuse: a forgotten signature is evaluated in full again")
    void forgetMakesTheNextEvaluationFull() {
        cluster(p -> p);
        SpeedupEvaluationReuse reuse = new SpeedupEvaluationReuse(plain);
        PodEvaluation first = reuse.evaluate(pods.get(0), all);
        reuse.forget(pods.get(1), all);
        PodEvaluation second = reuse.evaluate(pods.get(1), all);
        assertThat(second).isNotSameAs(first);
        assertThat(second.cost).isEqualTo(NODES);
        reuse.clear();
        assertThat(reuse.evaluate(pods.get(2), all)).isNotSameAs(second);
    }
}
