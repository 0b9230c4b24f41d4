package dev.muster.adapter.rest;

import dev.muster.core.choice.ClusterChoice;
import dev.muster.core.choice.Fit;
import dev.muster.core.decision.Assignment;
import dev.muster.core.decision.ClaimDecision;
import dev.muster.core.decision.Decision;
import dev.muster.core.decision.DecisionResult;
import dev.muster.core.decision.Explanation;
import dev.muster.core.decision.Outcome;
import dev.muster.core.decision.PodMessage;
import dev.muster.core.decision.PodStatus;
import dev.muster.core.dra.AllocationResult;
import dev.muster.core.dra.ClaimConsumer;
import dev.muster.core.dra.OpaqueConfig;
import dev.muster.core.dra.ResourceClaimSpec;
import dev.muster.core.model.Condition;
import dev.muster.core.model.GroupRef;
import dev.muster.core.model.NodeSelectorRequirement;
import dev.muster.core.model.NodeSelectorTerm;
import dev.muster.core.model.PodRef;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Hand-built decision results, one per seed, that reach what the engine seldom or never produces: every field null,
 * empty or set at random (each branch of the encoding at least a quarter of the time), device results with
 * tolerations, shares, consumed capacity and binding conditions, device configs with raw opaque parameters, node
 * selectors with empty terms, explanations with and without search, candidates and shortage, strings that need
 * escapes or are not ASCII, and numbers at their limits.
 */
final class RandomResults {
    /** Pieces strings are made of: plain, empty, JSON escapes, control characters, non-ASCII, lone surrogates. */
    private static final String[] PIECES = {"a", "web-0", "", "\"quoted\"", "back\\slash", "tab\t", "line\nbreak",
            "\r", "\u0000", "\u001f", "\u007f", "/", "</script>", "é", "Zürich", "日本語", "\uD83D\uDE80",
            "\u2028\u2029", "\uD800", "\uDC00x", "\uFEFF", "0:Insufficient cpu.", "example.com/gpu", " "};
    /** Raw JSON the parameters of an opaque config may hold, written as they are. */
    private static final String[] RAW = {"null", "{}", "[]", "{\"sharing\":{\"strategy\":\"TimeSlicing\"}}",
            "[1, 2 ,3]", " {\"k\" : \"é\\u0041\\n\"} ", "\"text\"", "42", "true", "{\"nested\":{\"a\":[{},[null]]}}",
            "{\"日本\":\"\uD83D\uDE80\"}"};
    private static final long[] LONGS = {0, 1, -1, 42, Long.MAX_VALUE, Long.MIN_VALUE, Integer.MAX_VALUE + 1L};
    private static final int[] INTS = {0, 1, -1, 7, Integer.MAX_VALUE, Integer.MIN_VALUE};

    private final SplittableRandom r;

    private RandomResults(long seed) {
        this.r = new SplittableRandom(seed);
    }

    static DecisionResult result(long seed) {
        return new RandomResults(seed).result();
    }

    /** Choices of random clusters over random results. */
    static List<ClusterChoice> choices(long seed) {
        RandomResults g = new RandomResults(seed);
        return g.list(() -> new ClusterChoice(g.nullable(g::string), g.anInt(), g.pick(Fit.values()), g.result(),
                g.anInt(), g.anInt(), g.aLong(), g.nullable(g::string)));
    }

    private DecisionResult result() {
        return new DecisionResult(list(this::decision), list(() -> new PodStatus(nullable(this::podRef),
                nullable(this::string), nullable(this::string))));
    }

    private Decision decision() {
        return new Decision(nullable(this::groupRef), nullable(() -> pick(Outcome.values())), list(this::assignment),
                list(() -> new PodMessage(nullable(this::podRef), nullable(this::string))), list(this::assignment),
                list(this::assignment), list(this::claim), list(this::condition), nullable(this::string),
                nullable(this::explanation), nullable(this::groupRef), nullable(this::podRef), aLong());
    }

    private Assignment assignment() {
        return new Assignment(r.nextInt(8) == 0 ? null : podRef(), nullable(this::string));
    }

    private Condition condition() {
        return new Condition(nullable(this::string), nullable(this::string), nullable(this::string),
                nullable(this::string), nullable(this::aLong), nullable(this::string));
    }

    private ClaimDecision claim() {
        List<NodeSelectorTerm> selector = nullable(() -> list(() -> new NodeSelectorTerm(list(this::requirement),
                list(this::requirement))));
        AllocationResult allocation = new AllocationResult(list(this::device), list(this::config), selector);
        return new ClaimDecision(nullable(this::podRef), nullable(this::string), allocation,
                list(() -> new ClaimConsumer(nullable(this::string), string(), string(), nullable(this::string))));
    }

    private NodeSelectorRequirement requirement() {
        return new NodeSelectorRequirement(nullable(this::string), pick(NodeSelectorRequirement.Operator.values()),
                list(this::string));
    }

    private AllocationResult.DeviceResult device() {
        return new AllocationResult.DeviceResult(string(), string(), string(), string(), r.nextBoolean(),
                list(() -> new ResourceClaimSpec.Toleration(nullable(this::string),
                        nullable(() -> pick(ResourceClaimSpec.Toleration.Operator.values())), nullable(this::string),
                        nullable(this::string), nullable(this::aLong))),
                nullable(this::string), capacity(), list(this::string), list(this::string));
    }

    /** Consumed capacity in a hash, insertion or sorted order, now and then a null quantity. */
    private Map<String, String> capacity() {
        Map<String, String> m = switch (r.nextInt(3)) {
            case 0 -> new java.util.HashMap<>();
            case 1 -> new LinkedHashMap<>();
            default -> new TreeMap<>();
        };
        int n = r.nextInt(4) == 0 ? 0 : r.nextInt(5);
        for (int i = 0; i < n; i++) {
            m.put(key(), r.nextInt(10) == 0 ? null : string());
        }
        return m;
    }

    /**
     * A capacity name: ordered by UTF-16 code units, escapes, non-ASCII, never a lone surrogate (Jackson writes a
     * field name's lone surrogate as bytes no parser reads back, which the coverage test must).
     */
    private String key() {
        return pick("memory", "cores", "Memory", "b", "a", "ü", "日", "\uD83D\uDE80", "", "\"q\"", "\t")
                + pick("", "-0", "é", "\u0000");
    }

    private AllocationResult.AllocationConfig config() {
        return new AllocationResult.AllocationConfig(pick(AllocationResult.ConfigSource.values()), list(this::string),
                new OpaqueConfig(string(), r.nextInt(10) == 0 ? null : pick(RAW)));
    }

    private Explanation explanation() {
        Explanation.Shortage shortage = nullable(() -> new Explanation.Shortage(anInt(),
                list(() -> new Explanation.Fit(nullable(this::string), anInt())), nullable(this::string),
                list(this::reasonCount), list(this::string)));
        return new Explanation(anInt(), nullable(() -> list(this::reasonCount)),
                nullable(() -> list(() -> new Explanation.Member(r.nextInt(8) == 0 ? null : podRef(),
                        nullable(() -> list(this::reasonCount))))),
                nullable(() -> new Explanation.Search(r.nextBoolean(), aLong(), aLong(), r.nextBoolean(),
                        r.nextBoolean())),
                nullable(this::string),
                nullable(() -> list(() -> new Explanation.Candidate(nullable(this::string), anInt(), anInt(),
                        r.nextBoolean(), r.nextBoolean(), aLong(), anInt(), nullable(this::string)))),
                nullable(() -> list(this::string)), shortage);
    }

    private Explanation.ReasonCount reasonCount() {
        return new Explanation.ReasonCount(nullable(this::string), anInt());
    }

    private PodRef podRef() {
        return new PodRef(string(), string());
    }

    private GroupRef groupRef() {
        return new GroupRef(string(), string());
    }

    /** Zero to three pieces; now and then one long enough to cross the generator's output buffer. */
    private String string() {
        if (r.nextInt(200) == 0) {
            return "long-" + "x\u00e9\"".repeat(3000 + r.nextInt(100));
        }
        StringBuilder b = new StringBuilder();
        int n = r.nextInt(4);
        for (int i = 0; i < n; i++) {
            b.append(pick(PIECES));
        }
        return b.toString();
    }

    private long aLong() {
        return r.nextBoolean() ? pickLong() : r.nextLong();
    }

    private long pickLong() {
        return LONGS[r.nextInt(LONGS.length)];
    }

    private int anInt() {
        return r.nextBoolean() ? INTS[r.nextInt(INTS.length)] : r.nextInt();
    }

    /** Empty a quarter of the time, else one to four elements. */
    private <T> List<T> list(Supplier<T> element) {
        int n = r.nextInt(4) == 0 ? 0 : 1 + r.nextInt(4);
        List<T> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(element.get());
        }
        return out;
    }

    /** Null a quarter of the time. */
    private <T> T nullable(Supplier<T> value) {
        return r.nextInt(4) == 0 ? null : value.get();
    }

    @SafeVarargs
    private <T> T pick(T... values) {
        return values[r.nextInt(values.length)];
    }
}
