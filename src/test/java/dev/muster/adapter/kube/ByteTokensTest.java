package dev.muster.adapter.kube;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The byte path of {@link KubeCodec#readJson(byte[])} ({@link ByteTokens} under the streaming Reader) against the
 * Jackson path on the same bytes. The contract: whatever the byte path accepts, Jackson accepts with an equal
 * document; whatever it does not accept, it leaves to Jackson (null), so every error is still Jackson's.
 */
class ByteTokensTest {
    private static final ObjectMapper TREE = new ObjectMapper();
    private static final KubeCodec CODEC = new KubeCodec(KubeCodec.Limits.DEFAULT);

    private static byte[] every;

    @BeforeAll
    static void load() throws IOException {
        try (InputStream in = ByteTokensTest.class.getResourceAsStream("/decode/every-hot-field.json")) {
            every = in.readAllBytes();
        }
    }

    /** The byte path's result, checked against Jackson's: null when it bails, and then Jackson decides. */
    private static RequestDocument checked(byte[] body) {
        RequestDocument fast = CODEC.readBytes(body);
        if (fast != null) {
            RequestDocument slow;
            try {
                slow = CODEC.readJackson(body);
            } catch (DecodeException e) {
                throw new AssertionError("the byte path accepted what Jackson rejects (" + e.getMessage() + "): "
                        + new String(body, StandardCharsets.UTF_8), e);
            }
            assertThat(fast).as(new String(body, StandardCharsets.UTF_8)).isEqualTo(slow);
            assertThat(fast.toString()).isEqualTo(slow.toString());
        }
        return fast;
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void theFixturesAndExamplesTakeTheBytePath() throws Exception {
        assertThat(checked(every)).isNotNull();
        assertThat(checked(TREE.writeValueAsBytes(TREE.readTree(every)))).as("compact").isNotNull();
        try (var files = Files.list(Path.of("openapi/examples"))) {
            List<Path> json = files.filter(f -> f.toString().endsWith(".json")).sorted().toList();
            assertThat(json).isNotEmpty();
            for (Path f : json) {
                assertThat(checked(Files.readAllBytes(f))).as(f.toString()).isNotNull();
            }
        }
    }

    @Test
    void escapesUnicodeAndNumbersDecodeAsJacksonDecodesThem() {
        String json = "{\"snapshot\":{\"pods\":[{\"metadata\":{\"name\":\"p\\u00e9\\n\\\"q\\\"\\/\\\\\",\"namespace\":"
                + "\"n\u00e9\u4e2d\ud83d\ude00\",\"labels\":{\"k\\u0041\":\"\\ud83d\\ude00\",\"\u00fc\":\"\\ud800\"},"
                + "\"generation\":-0},\"spec\":{\"priority\":-2147483648,\"containers\":[{\"name\":\"c\",\"resources\":"
                + "{\"requests\":{\"cpu\":1.5e3,\"memory\":12,\"x\":-0.0E-1}}}],\"tolerations\":[{\"tolerationSeconds\":"
                + "9007199254740993}]},\"unknown\":[1e400,-0.5,0,true,false,null,{\"a\":[[[]]],\"\\t\":{}},\"\\b\\f\\r\\t\"]}]}}";
        RequestDocument doc = checked(utf8(json));
        assertThat(doc).isNotNull();
        Kube.Pod pod = doc.snapshot().pods().get(0);
        assertThat(pod.metadata().name()).isEqualTo("p\u00e9\n\"q\"/\\");
        assertThat(pod.metadata().namespace()).isEqualTo("n\u00e9\u4e2d\ud83d\ude00");
        assertThat(pod.metadata().labels()).containsEntry("kA", "\ud83d\ude00").containsEntry("\u00fc", "\ud800");
        assertThat(pod.spec().containers().get(0).resources().requests())
                .containsEntry("cpu", Qty.of("1.5e3")).containsEntry("memory", Qty.of("12"))
                .containsEntry("x", Qty.of("-0.0E-1"));
        assertThat(pod.spec().priority()).isEqualTo(Integer.MIN_VALUE);
        assertThat(pod.spec().tolerations().get(0).tolerationSeconds()).isEqualTo(9007199254740993L);
    }

    @Test
    void inputOutsideTheSubsetIsLeftToJacksonWithTheSameOutcome() throws Exception {
        String[] cases = {
                "\uFEFF{\"snapshot\":{}}", // a byte order mark
                "{\"snapshot\":{},\"snapshot\":{}}", // a repeated envelope field
                "{\"snapshot\":{\"pods\":[{\"x\":123456789012345678901234}]}}", // a big integer, skipped
                "{\"snapshot\":{\"pods\":[{\"spec\":{\"priority\":\"5\"}}]}}".replace("\"5\"", "5000000000"),
                "[]", // not an object: Jackson's error
                // escaped surrogates in field names, read or skipped: Jackson refuses unpaired ones
                "{\"snapshot\":{\"pods\":[{\"x\":{\"a\\ud800\":1}}]}}",
                "{\"snapshot\":{\"pods\":[{\"x\":{\"a\\udc00\":1}}]}}",
                "{\"x\":{\"\\ud800\":1},\"snapshot\":{}}",
                "{\"snapshot\":{\"pods\":[{\"metadata\":{\"labels\":{\"\\udc00\":\"v\"}}}]}}",
                "{\"snapshot\":{\"pods\":[{\"x\":{\"a\\ud83d\\ude00\":1}}]}}", // a pair: accepted by Jackson
        };
        for (String c : cases) {
            byte[] body = utf8(c);
            assertThat(CODEC.readBytes(body)).as(c).isNull();
            assertThat(outcome(body)).as(c).isEqualTo(jacksonOutcome(body));
        }
        assertThat(CODEC.readJson(utf8(cases[0]))).isEqualTo(new RequestDocument(
                new RequestDocument.Snapshot(null, null, null, null, null, null, null, null, null, null), null, null));
    }

    @Test
    void everythingJsonForbidsLeavesTheBytePath() {
        String ok = "{\"snapshot\":{\"pods\":[{\"metadata\":{\"name\":\"n\"},\"x\":[VALUE]}]}}";
        String[] bad = {"\"a\u0001\"", "\"\\x\"", "\"\\u12g4\"", "01", "1.", ".5", "-", "1e", "tru", "nul", "truex",
                "\"a", "1 2", "[1,]", "{\"a\"}", "{\"a\":1,}", "{,}", "NaN", "'a'", "/*c*/1"};
        for (String v : bad) {
            byte[] body = utf8(ok.replace("VALUE", v));
            assertThat(CODEC.readBytes(body)).as(v).isNull();
            assertThat(outcome(body)).as(v).startsWith("400").isEqualTo(jacksonOutcome(body));
        }
        byte[][] badUtf8 = {{(byte) 0xC0, (byte) 0x80}, {(byte) 0x80}, {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
                {(byte) 0xF5, (byte) 0x80, (byte) 0x80, (byte) 0x80}, {(byte) 0xE0, (byte) 0x80, (byte) 0x80},
                {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, {(byte) 0xC3}, {(byte) 0xFF}};
        for (byte[] seq : badUtf8) {
            byte[] head = utf8("{\"snapshot\":{\"pods\":[{\"metadata\":{\"name\":\"a");
            byte[] tail = utf8("\"}}]}}");
            byte[] body = Arrays.copyOf(head, head.length + seq.length + tail.length);
            System.arraycopy(seq, 0, body, head.length, seq.length);
            System.arraycopy(tail, 0, body, head.length + seq.length, tail.length);
            assertThat(CODEC.readBytes(body)).as(Arrays.toString(seq)).isNull();
        }
        assertThat(CODEC.readBytes(utf8("{\"snapshot\":{}} x"))).isNull();
        assertThat(CODEC.readBytes(utf8("{\"snapshot\":{}}  \n"))).isNotNull();
    }

    @Test
    void limitsAreNeverLooserThanJacksons() {
        KubeCodec tight = new KubeCodec(new KubeCodec.Limits(8, 16, 6, 1 << 20));
        String deep = "{\"snapshot\":{\"pods\":[{\"x\":" + "[".repeat(5) + "]".repeat(5) + "}]}}";
        String deeper = "{\"snapshot\":{\"pods\":[{\"x\":" + "[".repeat(6) + "]".repeat(6) + "}]}}";
        String longString = "{\"snapshot\":{\"pods\":[{\"metadata\":{\"name\":\"" + "a".repeat(17) + "\"}}]}}";
        String longNumber = "{\"snapshot\":{\"pods\":[{\"x\":1234567}]}}";
        for (String c : new String[]{deep, deeper, longString, longNumber}) {
            byte[] body = utf8(c);
            RequestDocument fast = tight.readBytes(body);
            String slow = outcome(tight, body, false);
            if (fast != null) {
                assertThat(slow).as(c).startsWith("200");
            }
        }
        assertThat(tight.readBytes(utf8(deeper))).isNull();
        assertThat(tight.readBytes(utf8(longString))).isNull();
        assertThat(tight.readBytes(utf8(longNumber))).isNull();
        assertThat(outcome(tight, utf8(longString), true)).startsWith("400");
    }

    @Test
    void everyPrefixCorruptedInsertedOrDeletedByteIsNeverAcceptedWhereJacksonFails() throws Exception {
        byte[] compact = TREE.writeValueAsBytes(TREE.readTree(every));
        for (int n = 0; n < compact.length; n++) {
            assertThat(CODEC.readBytes(Arrays.copyOf(compact, n))).as("prefix " + n).isNull();
        }
        // bytes StreamingDecodersTest does not already put everywhere (escapes, number parts); a few: each bail is an
        // exception, and thousands in a loop keep the JIT deoptimizing
        byte[] replace = {'\\', 'e'};
        byte[] insert = {'0'};
        int accepted = 0;
        int bailed = 0;
        for (int i = 0; i < compact.length; i++) {
            for (byte x : replace) {
                byte[] replaced = compact.clone();
                replaced[i] = x;
                if (checked(replaced) != null) {
                    accepted++;
                } else {
                    bailed++;
                }
            }
            for (byte x : insert) {
                byte[] inserted = new byte[compact.length + 1];
                System.arraycopy(compact, 0, inserted, 0, i);
                inserted[i] = x;
                System.arraycopy(compact, i, inserted, i + 1, compact.length - i);
                if (checked(inserted) != null) {
                    accepted++;
                } else {
                    bailed++;
                }
            }
        }
        for (int i = 0; i < compact.length; i++) {
            byte[] deleted = new byte[compact.length - 1];
            System.arraycopy(compact, 0, deleted, 0, i);
            System.arraycopy(compact, i + 1, deleted, i, compact.length - i - 1);
            if (checked(deleted) != null) {
                accepted++;
            } else {
                bailed++;
            }
        }
        // both outcomes in numbers, or the comparison would prove nothing
        assertThat(accepted).isGreaterThan(3_000);
        assertThat(bailed).isGreaterThan(3_000);
    }

    @Test
    void generatedDocumentsTakeTheBytePathAndMatchJackson() {
        Random random = new Random(20261123);
        for (int n = 0; n < 300; n++) {
            byte[] body = utf8(document(random));
            assertThat(checked(body)).as("document " + n + ": " + new String(body, StandardCharsets.UTF_8)).isNotNull();
        }
    }

    @Test
    void valuesRepeatedByteForByteAreRecalledOnceDecoded() throws Exception {
        String tolerations = "[{\"key\":\"node.kubernetes.io/not-ready\",\"operator\":\"Exists\",\"effect\":\"NoExecute\","
                + "\"tolerationSeconds\":300}]";
        String affinity = "{\"podAntiAffinity\":{\"preferredDuringSchedulingIgnoredDuringExecution\":[{\"weight\":100,"
                + "\"podAffinityTerm\":{\"labelSelector\":{\"matchLabels\":{\"app\":\"web\"}},\"topologyKey\":\"zone\"}}]}}";
        String other = tolerations.replace("300", "301");
        String json = "{\"snapshot\":{\"pods\":[" + String.join(",",
                "{\"spec\":{\"tolerations\":" + tolerations + ",\"affinity\":" + affinity + "}}",
                "{\"spec\":{\"tolerations\":" + tolerations + ",\"affinity\":" + affinity + "}}",
                "{\"spec\":{\"tolerations\":" + other + ",\"affinity\":" + affinity.replace("web", "db") + "}}")
                + "],\"nodes\":[{\"status\":{\"allocatable\":{\"cpu\":\"4\"},\"capacity\":{\"cpu\":\"4\"}}},"
                + "{\"status\":{\"allocatable\":{\"cpu\":\"4\"},\"capacity\":{\"cpu\":\"8\"}}}],"
                + "\"resourceSlices\":[{\"spec\":{\"devices\":["
                + "{\"name\":\"a\",\"attributes\":{\"m\":{\"string\":\"x\"}},\"capacity\":{\"mem\":{\"value\":\"1\"}},"
                + "\"consumesCounters\":[{\"counterSet\":\"g-0\",\"counters\":{\"mem\":{\"value\":\"10Gi\"}}}]},"
                + "{\"name\":\"b\",\"attributes\":{\"m\":{\"string\":\"x\"}},\"capacity\":{\"mem\":{\"value\":\"2\"}},"
                + "\"consumesCounters\":[{\"counterSet\":\"g-1\",\"counters\":{\"mem\":{\"value\":\"10Gi\"}}},"
                + "{\"counterSet\":\"g-1\",\"counters\":{\"mem\":{\"value\":\"20Gi\"}}}]},"
                + "{\"name\":\"c\",\"attributes\":{\"m\":{\"string\":\"x\"},\"u\":{\"string\":\"c-1\"}}}"
                + "]}}]}}";
        RequestDocument doc = checked(utf8(json));
        assertThat(doc).isNotNull();
        List<Kube.Pod> pods = doc.snapshot().pods();
        assertThat(pods.get(1).spec().tolerations()).isSameAs(pods.get(0).spec().tolerations());
        assertThat(pods.get(1).spec().affinity()).isSameAs(pods.get(0).spec().affinity());
        assertThat(pods.get(2).spec().tolerations().get(0).tolerationSeconds()).isEqualTo(301L);
        assertThat(pods.get(2).spec().affinity().podAntiAffinity().preferredDuringSchedulingIgnoredDuringExecution()
                .get(0).podAffinityTerm().labelSelector().matchLabels()).containsEntry("app", "db");
        List<Kube.Node> nodes = doc.snapshot().nodes();
        assertThat(nodes.get(0).status().capacity()).isSameAs(nodes.get(0).status().allocatable());
        assertThat(nodes.get(1).status().capacity()).containsEntry("cpu", Qty.of("8"));
        ByteTokens tokens = CODEC.tokens(utf8(json));
        assertThat(new StreamingDecoders.Reader(tokens).document()).isEqualTo(doc);
        List<KubeDra.Device> devices = doc.snapshot().resourceSlices().get(0).spec().devices();
        assertThat(devices.get(1).attributes()).isSameAs(devices.get(0).attributes());
        assertThat(devices.get(1).capacity().get("mem").value()).isEqualTo(Qty.of("2"));
        // a map that is new as a whole still shares the attributes it repeats
        assertThat(devices.get(2).attributes().get("m")).isSameAs(devices.get(0).attributes().get("m"));
        assertThat(devices.get(2).attributes().get("u").stringValue()).isEqualTo("c-1");
        // a partition's counters: the same map under another counter set is one object, other values are read
        List<KubeDra.CounterConsumption> consumes = devices.get(1).consumesCounters();
        assertThat(consumes.get(0).counterSet()).isEqualTo("g-1");
        assertThat(consumes.get(0).counters()).isSameAs(devices.get(0).consumesCounters().get(0).counters());
        assertThat(consumes.get(1).counters().get("mem").value()).isEqualTo(Qty.of("20Gi"));
        // tolerations, containers, affinity, node quantities, taints, device attribute maps, device capacities, one
        // device attribute, a device's counters: what was recalled, what was read
        assertThat(tokens.recalls()).containsExactly(1, 0, 1, 2, 0, 1, 0, 1, 1);
        assertThat(tokens.misses()).containsExactly(2, 0, 2, 2, 0, 2, 2, 2, 2);
    }

    @Test
    void aValueThatRepeatsTheOneBeforeIsRecalledWithoutFindingItsEnd() throws Exception {
        String four = "{\"cpu\":\"4\"}";
        String more = "{\"cpu\":\"4\",\"memory\":\"1Gi\"}";
        String json = "{\"snapshot\":{\"nodes\":["
                + "{\"status\":{\"allocatable\":" + four + ",\"capacity\":" + four + "}},"
                + "{\"status\":{\"allocatable\":" + more + ",\"capacity\":" + four + "}},"
                + "{\"status\":{\"allocatable\":" + four + ",\"capacity\":" + more + "}}]}}";
        RequestDocument doc = checked(utf8(json));
        List<Kube.Node> nodes = doc.snapshot().nodes();
        Map<String, Qty> first = nodes.get(0).status().allocatable();
        assertThat(first).containsExactly(Map.entry("cpu", Qty.of("4")));
        // the repeat of the value before, the return of an older one, and of the other: one object each
        assertThat(nodes.get(0).status().capacity()).isSameAs(first);
        assertThat(nodes.get(1).status().capacity()).isSameAs(first);
        assertThat(nodes.get(2).status().allocatable()).isSameAs(first);
        assertThat(nodes.get(1).status().allocatable()).containsEntry("memory", Qty.of("1Gi")).hasSize(2);
        assertThat(nodes.get(2).status().capacity()).isSameAs(nodes.get(1).status().allocatable());
        ByteTokens tokens = CODEC.tokens(utf8(json));
        assertThat(new StreamingDecoders.Reader(tokens).document()).isEqualTo(doc);
        assertThat(tokens.recalls()[FieldReader.NODE_QUANTITIES]).isEqualTo(4);
        assertThat(tokens.misses()[FieldReader.NODE_QUANTITIES]).isEqualTo(2);
    }

    @Test
    void aRepeatIsOnlyFoundWhenItsBytesAreAllThereAtTheSameDepth() {
        byte[] b = utf8("[{\"a\":1},{\"a\":1},{\"a\":1}");
        RepeatMemo memo = new RepeatMemo(b.length, 1);
        int end = RepeatMemo.valueEnd(b, 1, b.length);
        assertThat(memo.find(0, b, 1, end, 2)).isNull();
        Object value = new Object();
        memo.remember(0, value, end);
        assertThat(memo.repeat(0, b, 9, b.length, 2)).isSameAs(value);
        assertThat(memo.lastLength(0)).isEqualTo(end - 1);
        assertThat(memo.repeat(0, b, 9, b.length, 3)).as("another depth").isNull();
        assertThat(memo.repeat(0, b, 17, b.length - 1, 2)).as("the last byte not yet readable").isNull();
        assertThat(memo.repeat(0, b, 17, b.length, 2)).isSameAs(value);
        assertThat(memo.repeat(0, b, 0, b.length, 2)).as("other bytes").isNull();
        assertThat(memo.hits()[0]).isEqualTo(2);
    }

    /** Copies a body into an array in random chunks on another thread, as the event loop does; an {@link Arrival}. */
    private static final class Feeder implements Arrival, Runnable {
        final byte[] full;
        final byte[] arriving;
        final Random random;
        private int filled;

        Feeder(byte[] full, long seed) {
            this.full = full;
            this.arriving = new byte[full.length];
            this.random = new Random(seed);
        }

        @Override
        public void run() {
            while (true) {
                int at;
                synchronized (this) {
                    at = filled;
                }
                if (at == full.length) {
                    return;
                }
                int n = Math.min(full.length - at, 1 + random.nextInt(300));
                System.arraycopy(full, at, arriving, at, n);
                synchronized (this) {
                    filled = at + n;
                    notifyAll();
                }
                if (random.nextInt(4) == 0) {
                    Thread.yield();
                }
            }
        }

        @Override
        public synchronized int await(int atLeast) {
            while (filled < Math.min(atLeast, full.length)) {
                try {
                    wait();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }
            return filled;
        }
    }

    @Test
    void aBodyDecodedWhileItArrivesIsTheWholeBodysDocument() throws Exception {
        Random random = new Random(7);
        List<byte[]> bodies = new java.util.ArrayList<>();
        bodies.add(TREE.writeValueAsBytes(TREE.readTree(every)));
        for (int i = 0; i < 40; i++) {
            bodies.add(utf8(document(random)));
        }
        for (int i = 0; i < bodies.size(); i++) {
            byte[] full = bodies.get(i);
            RequestDocument whole = CODEC.readJackson(full);
            // a window of 64 bytes: most nodes and pods run past what has arrived and are read again
            Feeder feeder = new Feeder(full, i);
            Thread t = new Thread(feeder);
            t.start();
            RequestDocument arriving = CODEC.readBytes(feeder.arriving, feeder, 64);
            t.join();
            assertThat(arriving).as("body " + i).isEqualTo(whole);
            Feeder again = new Feeder(full, 100 + i);
            Thread t2 = new Thread(again);
            t2.start();
            assertThat(CODEC.readJson(again.arriving, again)).as("body " + i + " through readJson").isEqualTo(whole);
            t2.join();
        }
    }

    @Test
    void aBodyThatNeverArrivesWholeFailsWithItsOwnError() {
        byte[] body = utf8("{\"snapshot\":{\"pods\":[{},{},{}]}}");
        IllegalStateException broken = new IllegalStateException("connection reset");
        Arrival partial = atLeast -> {
            if (atLeast > 20) {
                throw broken;
            }
            return 20;
        };
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> CODEC.readJson(body, partial)).isSameAs(broken);
    }

    // ------------------------------------------------------------ helpers

    private static String outcome(byte[] body) {
        return outcome(CODEC, body, true);
    }

    private static String jacksonOutcome(byte[] body) {
        return outcome(CODEC, body, false);
    }

    private static String outcome(KubeCodec codec, byte[] body, boolean bytesFirst) {
        try {
            return "200 " + (bytesFirst ? codec.readJson(body) : codec.readJackson(body));
        } catch (DecodeException e) {
            return "400 " + e.field() + " | " + e.getMessage();
        }
    }

    private static final String[] WORDS = {"a", "web", "zone-a", "node.kubernetes.io/not-ready", "Exists", "NoSchedule",
            "\u00e9t\u00e9", "\u4e2d\u6587", "\ud83d\ude00", "x\"y", "back\\slash", "tab\t", "nl\n", "\u0001ctl", "/"};

    /** A random valid request: pods and nodes with known fields in any order, unknown fields of any JSON. */
    private static String document(Random r) {
        StringBuilder sb = new StringBuilder("{\"snapshot\":{");
        sb.append("\"pods\":[");
        for (int i = 0, n = r.nextInt(4); i < n; i++) {
            sb.append(i > 0 ? "," : "").append(object(r, new String[][]{
                    {"metadata", meta(r)},
                    {"spec", object(r, new String[][]{
                            {"nodeName", string(r)}, {"priority", String.valueOf(r.nextInt())},
                            {"nodeSelector", labels(r)},
                            {"tolerations", "[" + object(r, new String[][]{{"key", string(r)}, {"operator", string(r)},
                                    {"tolerationSeconds", String.valueOf(r.nextLong() % 1_000_000_000_000_000_000L)}})
                                    + "]"},
                            {"containers", "[" + object(r, new String[][]{{"name", string(r)},
                                    {"resources", object(r, new String[][]{{"requests", quantities(r)},
                                            {"limits", quantities(r)}})}}) + "]"},
                            {"affinity", object(r, new String[][]{{"podAntiAffinity", object(r, new String[][]{
                                    {"requiredDuringSchedulingIgnoredDuringExecution", "[" + object(r, new String[][]{
                                            {"labelSelector", object(r, new String[][]{{"matchLabels", labels(r)}})},
                                            {"topologyKey", string(r)}}) + "]"}})}})},
                            {"schedulingGroup", "{\"podGroupName\":" + string(r) + "}"}})},
                    {"status", object(r, new String[][]{{"phase", string(r)}})}}));
        }
        sb.append("],\"nodes\":[");
        for (int i = 0, n = r.nextInt(3); i < n; i++) {
            sb.append(i > 0 ? "," : "").append(object(r, new String[][]{
                    {"metadata", meta(r)},
                    {"spec", object(r, new String[][]{{"unschedulable", r.nextBoolean() ? "true" : "false"},
                            {"taints", "[" + object(r, new String[][]{{"key", string(r)}, {"effect", string(r)}}) + "]"}})},
                    {"status", object(r, new String[][]{{"allocatable", quantities(r)}, {"capacity", quantities(r)}})}}));
        }
        sb.append("]},\"options\":{\"explain\":").append(r.nextBoolean()).append("}}");
        return sb.toString();
    }

    private static String meta(Random r) {
        return object(r, new String[][]{{"name", string(r)}, {"namespace", string(r)}, {"uid", string(r)},
                {"labels", labels(r)}, {"annotations", labels(r)}, {"generation", String.valueOf(r.nextInt(100))}});
    }

    /** An object with some of {@code fields} in random order, unknown fields of random JSON between them. */
    private static String object(Random r, String[][] fields) {
        StringBuilder sb = new StringBuilder("{");
        boolean first = true;
        for (String[] f : fields) {
            if (r.nextInt(5) == 0) {
                continue;
            }
            if (r.nextInt(3) == 0) {
                sb.append(first ? "" : ",").append(" \"unknown").append(r.nextInt(9)).append("\" :\n").append(any(r, 3));
                first = false;
            }
            sb.append(first ? "" : ",").append('"').append(f[0]).append("\":").append(r.nextInt(8) == 0 ? "null" : f[1]);
            first = false;
        }
        return sb.append('}').toString();
    }

    private static String labels(Random r) {
        StringBuilder sb = new StringBuilder("{");
        for (int i = 0, n = r.nextInt(4); i < n; i++) {
            sb.append(i > 0 ? "," : "").append(string(r)).append(':').append(string(r));
        }
        return sb.append('}').toString();
    }

    private static String quantities(Random r) {
        StringBuilder sb = new StringBuilder("{");
        for (int i = 0, n = r.nextInt(3); i < n; i++) {
            sb.append(i > 0 ? "," : "").append(string(r)).append(':')
                    .append(switch (r.nextInt(3)) {
                        case 0 -> "\"" + r.nextInt(64) + "Gi\"";
                        case 1 -> String.valueOf(r.nextInt(1000));
                        default -> "\"500m\"";
                    });
        }
        return sb.append('}').toString();
    }

    /** A JSON string of random words, escaped as JSON requires (sometimes more: \\u escapes of plain letters). */
    private static String string(Random r) {
        String raw = WORDS[r.nextInt(WORDS.length)] + (r.nextBoolean() ? "" : WORDS[r.nextInt(WORDS.length)]);
        StringBuilder sb = new StringBuilder("\"");
        raw.codePoints().forEach(c -> {
            if (c == '"' || c == '\\') {
                sb.append('\\').appendCodePoint(c);
            } else if (c < 0x20 || c < 0x10000 && r.nextInt(40) == 0) {
                // escaped surrogates are left to Jackson in names (it refuses unpaired ones), so none here
                sb.append(String.format("\\u%04x", c));
            } else {
                sb.appendCodePoint(c);
            }
        });
        return sb.append('"').toString();
    }

    private static String any(Random r, int depth) {
        int k = r.nextInt(depth > 0 ? 9 : 6);
        return switch (k) {
            case 0 -> string(r);
            case 1 -> String.valueOf((r.nextLong() % 1_000_000_000_000_000_000L) >> r.nextInt(60)); // up to 18 digits
            case 2 -> String.valueOf(r.nextDouble() * 1e6 - 5e5);
            case 3 -> r.nextBoolean() ? "true" : "false";
            case 4 -> "null";
            case 5 -> "-0.5e-3";
            case 6, 7 -> {
                StringBuilder sb = new StringBuilder("[");
                for (int i = 0, n = r.nextInt(4); i < n; i++) {
                    sb.append(i > 0 ? " , " : "").append(any(r, depth - 1));
                }
                yield sb.append(']').toString();
            }
            default -> {
                StringBuilder sb = new StringBuilder("{");
                for (int i = 0, n = r.nextInt(4); i < n; i++) {
                    sb.append(i > 0 ? "," : "").append(string(r)).append(":\t").append(any(r, depth - 1));
                }
                yield sb.append('}').toString();
            }
        };
    }
}
