package dev.muster.core.cycle;

import dev.muster.core.framework.GroupContext;
import dev.muster.core.framework.PlacementGeneratePlugin.Candidate;
import dev.muster.core.framework.PlacementScorePlugin;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.framework.Profile;
import dev.muster.core.framework.ResourceIndex;
import dev.muster.core.model.ClusterState;
import dev.muster.core.model.GroupRef;
import dev.muster.core.model.Node;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodGroup;
import dev.muster.core.plugins.gangscheduling.GangSchedulingPlugin;
import dev.muster.core.plugins.interpodaffinity.InterPodAffinityPlugin;
import dev.muster.core.plugins.noderesourcesfit.NodeResourcesFitPlugin;
import dev.muster.core.snapshot.SnapshotOverlay;
import dev.muster.core.testing.Pods;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

import static dev.muster.core.testing.Groups.gang;
import static dev.muster.core.testing.Groups.member;
import static dev.muster.core.testing.Nodes.node;
import static dev.muster.core.testing.Pods.affinityTerm;
import static dev.muster.core.testing.Pods.labels;
import static dev.muster.core.testing.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The trial runners behind placement selection, on two racks of two nodes and a gang of two one-CPU members: the
 * speed-ups give what the plain runner gives, with fewer trials or fewer assumes.
 */
class TrialsTest {
    private static final GroupRef G = new GroupRef("default", "g");
    private static final Candidate RACK_A = new Candidate("rack-a", new int[]{0, 1}, 0);
    private static final Candidate RACK_B = new Candidate("rack-b", new int[]{2, 3}, 0);

    /** One decision run over racks a (n1, n2) and b (n3, n4), with what the test's trials need. */
    private static final class Run {
        final SnapshotOverlay snapshot;
        final SchedulingScope scope;
        final GroupContext group;
        final PlainTrials plain;
        final Counting counting;

        Run(String lastNodeCpu, UnaryOperator<Pods> memberEdit) {
            List<Node> nodes = List.of(rackNode("n1", "rack-a", "4"), rackNode("n2", "rack-a", "4"),
                    rackNode("n3", "rack-b", "4"), rackNode("n4", "rack-b", lastNodeCpu));
            List<Pod> pods = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                pods.add(member(memberEdit.apply(pod("g-" + i).label("app", "g").requests("cpu", "1")).build(), "g"));
            }
            PodGroup pg = gang("g", 2).topology("rack").build();
            snapshot = new SnapshotOverlay(new ClusterState(nodes, pods, List.of(pg), List.of(), List.of()));
            Profile profile = Profile.builder().add(new NodeResourcesFitPlugin()).add(new InterPodAffinityPlugin())
                    .add(new GangSchedulingPlugin()).build();
            scope = new SchedulingScope(snapshot, profile, null, 1024);
            List<PodInfo> pending = new ArrayList<>(snapshot.members(G));
            pending.sort(PodGroupCycle.MEMBER_ORDER);
            group = new GroupContext(snapshot.podGroups().get(G), List.of(), pending, List.of());
            plain = new PlainTrials(scope, new PodGroupCycle(scope, 0), group);
            counting = new Counting(plain);
        }

        Run() {
            this("4", p -> p);
        }

        /** Per node: the CPU requested and the pods on it, by name. */
        List<String> nodes() {
            List<String> out = new ArrayList<>();
            for (int i = 0; i < snapshot.nodeCount(); i++) {
                StringBuilder s = new StringBuilder(snapshot.node(i).name()).append(' ')
                        .append(snapshot.node(i).requested(ResourceIndex.CPU));
                for (PodInfo p : snapshot.node(i).pods()) {
                    s.append(' ').append(p.pod().ref());
                }
                out.add(s.toString());
            }
            return out;
        }
    }

    private static Node rackNode(String name, String rack, String cpu) {
        return node(name).label("rack", rack).allocatable("cpu", cpu).allocatable("memory", "8Gi").build();
    }

    /** The plain runner, counting the trials it runs. */
    private static final class Counting implements Trials {
        private final PlainTrials plain;
        int runs;

        Counting(PlainTrials plain) {
            this.plain = plain;
        }

        @Override
        public TrialOutcome run(Candidate candidate) {
            runs++;
            return plain.run(candidate);
        }

        @Override
        public void settle(TrialOutcome outcome, boolean lastOfTier) {
            plain.settle(outcome, lastOfTier);
        }

        @Override
        public SnapshotOverlay boundState() {
            return plain.boundState();
        }

        @Override
        public SnapshotOverlay rankState() {
            return plain.rankState();
        }

        @Override
        public void choose(TrialOutcome chosen) {
            plain.choose(chosen);
        }
    }

    private static void assertSameProposal(PlacementScorePlugin.Proposal actual,
                                           PlacementScorePlugin.Proposal expected) {
        assertThat(actual.placement()).isEqualTo(expected.placement());
        assertThat(actual.nodes()).isEqualTo(expected.nodes());
        assertThat(actual.pods()).isEqualTo(expected.pods());
        assertThat(actual.podNodes()).isEqualTo(expected.podNodes());
    }

    @Test
    @DisplayName("the plain runner leaves the snapshot as it found it, feasible or not")
    void plainRunnerRollsBack() {
        Run run = new Run();
        List<String> before = run.nodes();
        int mark = run.snapshot.mark();
        TrialOutcome a = run.plain.run(RACK_A);
        assertThat(a.feasible()).isTrue();
        assertThat(a.ran()).isTrue();
        assertThat(a.placed()).isEqualTo(2);
        assertThat(run.snapshot.mark()).isEqualTo(mark);
        assertThat(run.nodes()).isEqualTo(before);
    }

    @Test
    @DisplayName("twins: an equivalent candidate is not run, and gets what the plain runner gives it")
    void twinRunsOnceAndCarriesOver() {
        Run run = new Run();
        SpeedupTwins twins = new SpeedupTwins(run.counting, run.scope, run.group);
        TrialOutcome a = twins.run(RACK_A);
        TrialOutcome b = twins.run(RACK_B);
        assertThat(run.counting.runs).as("trials the plain runner ran").isEqualTo(1);
        assertThat(a.ran()).isTrue();
        assertThat(b.ran()).isFalse();

        TrialOutcome reference = run.plain.run(RACK_B);
        assertThat(b.result()).isEqualTo(reference.result());
        assertThat(b.result().members()).allMatch(m -> m.node() == 2 || m.node() == 3);
        assertThat(b.feasible()).isEqualTo(reference.feasible());
        assertThat(b.placed()).isEqualTo(reference.placed());
        assertThat(b.message()).isEqualTo(reference.message());
        assertSameProposal(b.proposal(), reference.proposal());
    }

    @Test
    @DisplayName("twins: a chosen twin is assumed where the plain runner would assume it")
    void chosenTwinIsAssumedOnItsOwnNodes() {
        Run twinRun = new Run();
        SpeedupTwins twins = new SpeedupTwins(twinRun.counting, twinRun.scope, twinRun.group);
        twins.run(RACK_A);
        twins.choose(twins.run(RACK_B));

        Run plainRun = new Run();
        plainRun.plain.run(RACK_A);
        plainRun.plain.choose(plainRun.plain.run(RACK_B));
        assertThat(twinRun.nodes()).isEqualTo(plainRun.nodes());
    }

    @Test
    @DisplayName("twins: a candidate whose nodes differ runs its own trial")
    void differentCandidateRuns() {
        Run run = new Run("8", p -> p);
        SpeedupTwins twins = new SpeedupTwins(run.counting, run.scope, run.group);
        twins.run(RACK_A);
        TrialOutcome b = twins.run(RACK_B);
        assertThat(run.counting.runs).isEqualTo(2);
        assertThat(b.ran()).isTrue();
    }

    @Test
    @DisplayName("twins: members with pod affinity terms are never carried over")
    void podAffinityTurnsTwinsOff() {
        Run run = new Run("4", p -> p.podAntiAffinity(affinityTerm(labels("app", "other"), "rack")));
        SpeedupTwins twins = new SpeedupTwins(run.counting, run.scope, run.group);
        twins.run(RACK_A);
        twins.run(RACK_B);
        assertThat(run.counting.runs).isEqualTo(2);
    }

    @Test
    @DisplayName("kept trial: a trial that is not the tier's last is rolled back when settled")
    void keptTrialRolledBackUnlessLast() {
        Run run = new Run();
        SpeedupKeptTrial kept = new SpeedupKeptTrial(run.plain, run.snapshot);
        List<String> before = run.nodes();
        int mark = run.snapshot.mark();
        TrialOutcome a = kept.run(RACK_A);
        assertThat(run.snapshot.mark()).as("held while settling").isGreaterThan(mark);
        assertThat(kept.boundState()).as("ranking reads a fresh run").isNotSameAs(run.snapshot);
        kept.settle(a, false);
        assertThat(run.snapshot.mark()).isEqualTo(mark);
        assertThat(run.nodes()).isEqualTo(before);
        assertThat(kept.rankState()).as("nothing held: the snapshot itself").isSameAs(run.snapshot);
    }

    @Test
    @DisplayName("kept trial: the held trial, when chosen, stays as it is and holds what the plain runner assumes")
    void chosenKeptTrialIsNotAssumedAgain() {
        Run run = new Run();
        SpeedupKeptTrial kept = new SpeedupKeptTrial(run.plain, run.snapshot);
        kept.settle(kept.run(RACK_A), false);
        TrialOutcome b = kept.run(RACK_B);
        kept.settle(b, true);
        int changes = run.snapshot.changeCount();
        assertThat(kept.rankState()).isNotSameAs(run.snapshot);
        kept.choose(b);
        assertThat(run.snapshot.changeCount()).as("no rollback, no second assume").isEqualTo(changes);

        Run plainRun = new Run();
        plainRun.plain.run(RACK_A);
        plainRun.plain.choose(plainRun.plain.run(RACK_B));
        assertThat(run.nodes()).isEqualTo(plainRun.nodes());
    }

    @Test
    @DisplayName("kept trial: choosing another outcome rolls the held trial back and assumes the chosen one")
    void otherChoiceReplacesKeptTrial() {
        Run run = new Run();
        SpeedupKeptTrial kept = new SpeedupKeptTrial(run.plain, run.snapshot);
        TrialOutcome a = kept.run(RACK_A);
        kept.settle(a, false);
        kept.settle(kept.run(RACK_B), true);
        kept.choose(a);

        Run plainRun = new Run();
        TrialOutcome plainA = plainRun.plain.run(RACK_A);
        plainRun.plain.run(RACK_B);
        plainRun.plain.choose(plainA);
        assertThat(run.nodes()).isEqualTo(plainRun.nodes());
        assertThat(run.nodes()).anyMatch(n -> n.startsWith("n1 ") && n.contains("g-"));
    }
}
