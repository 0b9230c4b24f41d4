package dev.muster.core.framework;

import dev.muster.core.testing.RecordingReserve;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * FrameworkRuntime's rules for combining plugin verdicts, with tiny fake plugins that only answer what they are told
 * and count their calls. Pods, nodes and groups are irrelevant to these rules and are passed as null.
 */
class FrameworkRuntimeTest {

    /** A named fake that counts how often its extension point was called. */
    abstract static class Fake implements Plugin {
        final String name;
        int calls;

        Fake(String name) {
            this.name = name;
        }

        @Override
        public String name() {
            return name;
        }
    }

    /** PreFilter and Filter under one name, each answering a fixed status; counts Filter calls. */
    static class FakeFilter extends Fake implements PreFilterPlugin, FilterPlugin {
        final Status pre;
        final Status verdict;

        FakeFilter(String name, Status pre, Status verdict) {
            super(name);
            this.pre = pre;
            this.verdict = verdict;
        }

        /** A Filter whose PreFilter always passes. */
        FakeFilter(String name, Status verdict) {
            this(name, Status.SUCCESS, verdict);
        }

        @Override
        public Status preFilter(CycleState state, PodInfo pod, ClusterView cluster) {
            return pre;
        }

        @Override
        public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
            calls++;
            return verdict;
        }
    }

    static class FakePermit extends Fake implements PermitPlugin {
        final Status verdict;

        FakePermit(String name, Status verdict) {
            super(name);
            this.verdict = verdict;
        }

        @Override
        public Status permit(GroupContext group, PodInfo pod, NodeInfo node, int placedInCycle) {
            calls++;
            return verdict;
        }
    }

    /** Scores placements from a fixed list; optionally normalizes by scaling the maximum to 100. */
    static class FakePlacementScore implements PlacementScorePlugin {
        final String name;
        final long[] raw;
        final boolean normalize;

        FakePlacementScore(String name, boolean normalize, long... raw) {
            this.name = name;
            this.raw = raw;
            this.normalize = normalize;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public long scorePlacement(GroupContext group, ClusterView cluster, Proposal proposal) {
            return raw[Integer.parseInt(proposal.placement())];
        }

        @Override
        public void normalizePlacementScores(long[] scores) {
            if (!normalize) {
                return;
            }
            long max = Arrays.stream(scores).max().orElse(0);
            for (int i = 0; i < scores.length; i++) {
                scores[i] = max == 0 ? 0 : scores[i] * ScorePlugin.MAX_SCORE / max;
            }
        }
    }

    static class FakePostFilter extends Fake implements PostFilterPlugin {
        final Result result;

        FakePostFilter(String name, Result result) {
            super(name);
            this.result = result;
        }

        @Override
        public Result postFilter(GroupContext group, int groupPriority, Simulation simulation) {
            calls++;
            return result;
        }
    }

    private static FrameworkRuntime runtime(Plugin... plugins) {
        Profile.Builder b = Profile.builder();
        for (Plugin p : plugins) {
            b.add(p);
        }
        return new FrameworkRuntime(b.build());
    }

    private static Status parse(String s) {
        return switch (s) {
            case "Success" -> Status.SUCCESS;
            case "Skip" -> Status.SKIP;
            case "Wait" -> Status.waiting("P", "wait");
            case "Unschedulable" -> Status.unschedulable("P", "no");
            case "Unresolvable" -> Status.unresolvable("P", "never");
            case "Error" -> Status.error("P", "broken");
            default -> throw new IllegalArgumentException(s);
        };
    }

    // ---- PreFilter / Filter ----

    @Test
    @DisplayName("a PreFilter Skip flags only the Filter of the same name, which then never runs")
    void preFilterSkipFlagsSameNamedFilter() {
        FakeFilter skipping = new FakeFilter("A", Status.SKIP, Status.unresolvable("A", "A would reject"));
        FakeFilter running = new FakeFilter("B", Status.SUCCESS, Status.SUCCESS);
        FrameworkRuntime rt = runtime(skipping, running);
        boolean[] skipped = new boolean[rt.filterCount()];

        Status pre = rt.runPreFilter(new CycleState(), null, null, skipped);
        Status filter = rt.runFilter(new CycleState(), null, null, skipped);

        assertThat(pre).isNull();
        assertThat(skipped).containsExactly(true, false);
        assertThat(filter).isNull();
        assertThat(skipping.calls).isZero();
        assertThat(running.calls).isEqualTo(1);
    }

    @Test
    @DisplayName("without a Skip the same Filter runs and its rejection is returned")
    void withoutSkipTheFilterRejects() {
        FakeFilter rejecting = new FakeFilter("A", Status.SUCCESS, Status.unresolvable("A", "A rejects"));
        FrameworkRuntime rt = runtime(rejecting);
        boolean[] skipped = new boolean[rt.filterCount()];

        rt.runPreFilter(new CycleState(), null, null, skipped);

        assertThat(skipped).containsExactly(false);
        assertThat(rt.runFilter(new CycleState(), null, null, skipped).message()).isEqualTo("A rejects");
    }

    @Test
    @DisplayName("a PreFilter rejection without a plugin name is attributed to the plugin that returned it")
    void preFilterFailureAttributed() {
        FakeFilter failing = new FakeFilter("A", new Status(Code.UnschedulableAndUnresolvable, List.of("bad"), null),
                Status.SUCCESS);
        FrameworkRuntime rt = runtime(new FakeFilter("Z", Status.SUCCESS, Status.SUCCESS), failing);

        Status s = rt.runPreFilter(new CycleState(), null, null, new boolean[rt.filterCount()]);

        assertThat(s.plugin()).isEqualTo("A");
        assertThat(s.message()).isEqualTo("bad");
        assertThat(s.code()).isEqualTo(Code.UnschedulableAndUnresolvable);
    }

    @Test
    @DisplayName("the first Filter rejection in profile order wins and later Filters do not run")
    void firstFilterRejectionWins() {
        FakeFilter pass = new FakeFilter("F1", Status.SUCCESS);
        FakeFilter first = new FakeFilter("F2", Status.unschedulable("F2", "Insufficient cpu"));
        FakeFilter second = new FakeFilter("F3", Status.unresolvable("F3", "untolerated taint"));
        FrameworkRuntime rt = runtime(pass, first, second);

        Status s = rt.runFilter(new CycleState(), null, null, new boolean[3]);

        assertThat(s.plugin()).isEqualTo("F2");
        assertThat(s.message()).isEqualTo("Insufficient cpu");
        assertThat(pass.calls).isEqualTo(1);
        assertThat(second.calls).isZero();
    }

    // ---- Permit ----

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        "Success,Success|Success",
        "Success,Wait|Wait",
        "Wait,Success|Wait",
        "Wait,Unschedulable|Unschedulable",
        "Unresolvable,Wait|UnschedulableAndUnresolvable",
        "Success,Error,Wait|Error",
        "Wait,Wait,Success|Wait",
        "|Success",
    })
    @DisplayName("Permit: a rejection or Error wins over Wait, and Wait over Success")
    void permitCombination(String verdicts, Code expected) {
        List<Plugin> plugins = new ArrayList<>();
        if (verdicts != null) {
            int i = 0;
            for (String v : verdicts.split(",")) {
                plugins.add(new FakePermit("P" + i++, parse(v)));
            }
        }

        Status s = runtime(plugins.toArray(Plugin[]::new)).runPermit(null, null, null, 1);

        assertThat(s.code()).isEqualTo(expected);
    }

    @Test
    @DisplayName("Permit stops at the first rejection: later plugins are not asked")
    void permitStopsAtRejection() {
        FakePermit waiting = new FakePermit("W", Status.waiting("W", "later"));
        FakePermit rejecting = new FakePermit("R", Status.unschedulable("R", "no"));
        FakePermit after = new FakePermit("S", Status.SUCCESS);

        Status s = runtime(waiting, rejecting, after).runPermit(null, null, null, 1);

        assertThat(s.plugin()).isEqualTo("R");
        assertThat(after.calls).isZero();
    }

    // ---- Reserve ----

    @Test
    @DisplayName("a Reserve failure unreserves the plugins that had reserved, newest first, and not the one that failed")
    void reserveFailureUnreservesNewestFirst() {
        List<String> log = new ArrayList<>();
        RecordingReserve r1 = new RecordingReserve("R1", log);
        RecordingReserve r2 = new RecordingReserve("R2", log);
        RecordingReserve r3 = new RecordingReserve("R3", log).rejectingAll("no device");
        RecordingReserve r4 = new RecordingReserve("R4", log);
        FrameworkRuntime rt = runtime(r1, r2, r3, r4);

        Status s = rt.runReserve(new CycleState(), null, null, null);

        assertThat(s.code()).isEqualTo(Code.Unschedulable);
        assertThat(s.plugin()).as("attributed to the failing plugin").isEqualTo("R3");
        assertThat(s.message()).isEqualTo("no device");
        assertThat(log).containsExactly("reserve R1 ?", "reserve R2 ?", "reserve R3 ?", "unreserve R2 ?",
                "unreserve R1 ?");
        assertThat(r1.held()).isEmpty();
        assertThat(r2.held()).isEmpty();
    }

    @Test
    @DisplayName("Reserve succeeds when every plugin does; Unreserve then gives back newest first")
    void reserveThenUnreserve() {
        List<String> log = new ArrayList<>();
        FrameworkRuntime rt = runtime(new RecordingReserve("R1", log), new RecordingReserve("R2", log));

        assertThat(rt.runReserve(new CycleState(), null, null, null)).isEqualTo(Status.SUCCESS);
        rt.runUnreserve(new CycleState(), null, null, null);

        assertThat(log).containsExactly("reserve R1 ?", "reserve R2 ?", "unreserve R2 ?", "unreserve R1 ?");
        assertThat(rt.hasReserve()).isTrue();
        assertThat(runtime().hasReserve()).isFalse();
    }

    // ---- PlacementScore ----

    private static List<PlacementScorePlugin.Proposal> proposals(int n) {
        List<PlacementScorePlugin.Proposal> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new PlacementScorePlugin.Proposal(String.valueOf(i), new int[0], new PodInfo[0], new int[0]));
        }
        return out;
    }

    private static List<ClusterView> views(int n) {
        return Arrays.asList(new ClusterView[n]);
    }

    @Test
    @DisplayName("PlacementScore adds weight x normalized score of each plugin per placement")
    void placementScoreWeightsAndNormalisation() {
        Profile profile = Profile.builder()
                .add(new FakePlacementScore("Normalizing", true, 10, 20, 40), 2)
                .add(new FakePlacementScore("Raw", false, 7, 0, 1), 3)
                .build();

        long[] totals = new FrameworkRuntime(profile).runPlacementScore(null, null, views(3), proposals(3)).scores();

        // Normalizing: 25, 50, 100 (x2); Raw: 7, 0, 1 (x3).
        assertThat(totals).containsExactly(2 * 25 + 3 * 7, 2 * 50, 2 * 100 + 3);
    }

    @Test
    @DisplayName("PlacementScore: the highest total wins, the first among equals")
    void placementScoreBestIsFirstHighest() {
        Profile profile = Profile.builder().add(new FakePlacementScore("Raw", false, 3, 9, 9), 1).build();

        PlacementScorePlugin.Ranking r = new FrameworkRuntime(profile).runPlacementScore(null, null, views(3),
                proposals(3));

        assertThat(r.best()).isEqualTo(1);
    }

    @Test
    @DisplayName("PlacementScore: a plugin that ranks a group alone replaces every weighted score")
    void placementStrategyRanksAlone() {
        PlacementScorePlugin strategy = new FakePlacementScore("Strategy", false, 0, 0, 0) {
            @Override
            public Ranking rankAlone(GroupContext group, ClusterView cluster, List<Proposal> proposals) {
                return new Ranking(new long[]{-5, -1, -3}, 2); // its own order, not the highest score
            }
        };
        Profile profile = Profile.builder()
                .add(new FakePlacementScore("Raw", false, 100, 0, 0), 5)
                .add(strategy, 1)
                .build();

        PlacementScorePlugin.Ranking r = new FrameworkRuntime(profile).runPlacementScore(null, null, views(3),
                proposals(3));

        assertThat(r.scores()).containsExactly(-5, -1, -3);
        assertThat(r.best()).isEqualTo(2);
    }

    @Test
    @DisplayName("a placement score plugin added with weight 0 is not run at all")
    void placementScoreWeightZeroIgnored() {
        Profile profile = Profile.builder()
                .add(new FakePlacementScore("Zero", false, 1000, 0), 0)
                .add(new FakePlacementScore("One", false, 1, 2), 1)
                .build();

        assertThat(new FrameworkRuntime(profile).runPlacementScore(null, null, views(2), proposals(2)).scores())
                .containsExactly(1, 2);
    }

    // ---- PostFilter ----

    private static PostFilterPlugin.Result failure(String plugin, String reason) {
        return new PostFilterPlugin.Result(List.of(), Status.unschedulable(plugin, reason));
    }

    @Test
    @DisplayName("PostFilter stops at the first result the caller accepts, each plugin on a fresh simulation")
    void postFilterStopsAtAccepted() {
        PodInfo victim = new PodInfo(null, new long[0], 0, 0, 0, 0, 0);
        FakePostFilter failing = new FakePostFilter("PF1", failure("PF1", "nothing to evict"));
        FakePostFilter finding = new FakePostFilter("PF2",
                new PostFilterPlugin.Result(List.of(victim), Status.SUCCESS));
        FakePostFilter never = new FakePostFilter("PF3", failure("PF3", "unused"));
        int[] simulations = {0};

        PostFilterPlugin.Result r = runtime(failing, finding, never).runPostFilter(null, 5, () -> {
            simulations[0]++;
            return null;
        }, res -> !res.victims().isEmpty());

        assertThat(r).isSameAs(finding.result);
        assertThat(never.calls).isZero();
        assertThat(simulations[0]).isEqualTo(2);
    }

    @Test
    @DisplayName("when no PostFilter result is accepted the first failure is returned, without victims")
    void postFilterReturnsFirstFailure() {
        PodInfo victim = new PodInfo(null, new long[0], 0, 0, 0, 0, 0);
        FakePostFilter rejectedByCaller = new FakePostFilter("PF0",
                new PostFilterPlugin.Result(List.of(victim), Status.SUCCESS));
        FakePostFilter first = new FakePostFilter("PF1", failure("PF1", "first reason"));
        FakePostFilter second = new FakePostFilter("PF2", failure("PF2", "second reason"));

        PostFilterPlugin.Result r = runtime(rejectedByCaller, first, second)
                .runPostFilter(null, 5, () -> null, res -> false);

        assertThat(r.victims()).isEmpty();
        assertThat(r.status().message()).isEqualTo("first reason");
        assertThat(r.status().plugin()).isEqualTo("PF1");
        assertThat(second.calls).isEqualTo(1);
    }

    @Test
    @DisplayName("PostFilter with no failing plugin and nothing accepted returns Success without victims")
    void postFilterNothingAcceptedNoFailure() {
        PostFilterPlugin.Result r = runtime(new FakePostFilter("PF", new PostFilterPlugin.Result(List.of(),
                Status.SUCCESS))).runPostFilter(null, 5, () -> null, res -> false);

        assertThat(r.victims()).isEmpty();
        assertThat(r.status()).isEqualTo(Status.SUCCESS);
    }

    // ---- Score ----

    /** Score plugin under one name with a PreScore that answers a fixed status. */
    static class FakeScore implements PreScorePlugin, ScorePlugin {
        final String name;
        final Status pre;
        final long score;

        FakeScore(String name, Status pre, long score) {
            this.name = name;
            this.pre = pre;
            this.score = score;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public Status preScore(CycleState state, PodInfo pod, ClusterView cluster, int[] feasibleNodes) {
            return pre;
        }

        @Override
        public long score(CycleState state, PodInfo pod, NodeInfo node) {
            return score;
        }
    }

    @Test
    @DisplayName("a PreScore Skip zeroes its Score and leaves it out of the weighted total")
    void preScoreSkip() {
        Profile profile = Profile.builder().add(new FakeScore("S1", Status.SKIP, 80), 2)
                .add(new FakeScore("S2", Status.SUCCESS, 30), 3).build();
        FrameworkRuntime rt = new FrameworkRuntime(profile);
        boolean[] skipped = new boolean[rt.scoreCount()];

        rt.runPreScore(new CycleState(), null, null, new int[0], skipped);

        assertThat(skipped).containsExactly(true, false);
        assertThat(rt.runScore(0, new CycleState(), null, null, skipped)).isZero();
        assertThat(rt.runScore(1, new CycleState(), null, null, skipped)).isEqualTo(30);
        assertThat(rt.weightedTotal(new long[][] {{80}, {30}}, 0, skipped)).isEqualTo(90);
        assertThat(rt.weightedTotal(new long[][] {{80}, {30}}, 0, new boolean[2])).isEqualTo(2 * 80 + 90);
    }
}
