package dev.muster.adapter.kube;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The streaming decoders (Node, Pod, ResourceSlice and everything under them) against plain databind with the same strict
 * settings: on valid documents both give equal records, and on thousands of broken ones (every value replaced by
 * values of every wrong type, every prefix, corrupted bytes) both give the same 400 message and field path.
 */
class StreamingDecodersTest {
    private static final ObjectMapper TREE = new ObjectMapper();
    private static final KubeCodec STREAMING = new KubeCodec(KubeCodec.Limits.DEFAULT);
    private static final KubeCodec DATABIND = new KubeCodec(KubeCodec.Limits.DEFAULT, false);
    /** Values of every JSON type and edge, put in place of every value of the document in turn. */
    private static final String[] REPLACEMENTS = {"\"x\"", "\"\"", "7", "-1", "2.5", "2.0", "true", "false", "null",
            "{}", "[]", "[null]", "[\"s\"]", "[1]", "[{}]", "{\"k\":null}", "{\"k\":1}", "{\"k\":\"v\"}", "{\"k\":{}}",
            "3000000000", "99999999999999999999", "1e400", "-0"};

    private static byte[] every;

    @BeforeAll
    static void load() throws IOException {
        try (InputStream in = StreamingDecodersTest.class.getResourceAsStream("/decode/every-hot-field.json")) {
            every = in.readAllBytes();
        }
    }

    @Test
    void everyHotFieldDecodesAsDatabindDecodesIt() throws Exception {
        RequestDocument fast = STREAMING.readJson(every);
        RequestDocument plain = DATABIND.readJson(every);
        assertThat(fast).isEqualTo(plain);
        assertThat(fast.toString()).isEqualTo(plain.toString());
        // spot checks that the fixture really reaches the streamed fields (equality alone would pass on nulls)
        Kube.Pod pod = fast.snapshot().pods().get(0);
        assertThat(pod.metadata().generation()).isEqualTo(9007199254740993L);
        assertThat(pod.spec().affinity().podAffinity().requiredDuringSchedulingIgnoredDuringExecution().get(0)
                .namespaceSelector().matchExpressions().get(0).values()).containsExactly("prod");
        assertThat(pod.spec().containers().get(0).ports().get(0).hostIP()).isEqualTo("0.0.0.0");
        assertThat(pod.spec().containers().get(1).resources().requests().get("cpu").text()).isEqualTo("0.5");
        assertThat(pod.spec().containers().get(0).resources().requests().get("nvidia.com/gpu").text()).isEqualTo("1");
        assertThat(pod.spec().tolerations().get(0).tolerationSeconds()).isEqualTo(300L);
        assertThat(pod.spec().schedulingGroup().podGroupName()).isEqualTo("pg");
        assertThat(pod.spec().topologySpreadConstraints().get(0).minDomains()).isEqualTo(2);
        assertThat(pod.status().nominatedNodeName()).isEqualTo("node-b");
        Kube.Node node = fast.snapshot().nodes().get(0);
        assertThat(node.spec().unschedulable()).isTrue();
        assertThat(node.spec().taints()).extracting(Kube.Taint::key).containsExactly("dedicated", "maintenance");
        assertThat(node.status().capacity().get("pods").text()).isEqualTo("110");
        assertThat(node.metadata().labels()).containsKeys("kubernetes.io/hostname", "topology.kubernetes.io/zone", "pool");
        KubeDra.ResourceSliceSpec slice = fast.snapshot().resourceSlices().get(0).spec();
        assertThat(slice.pool().generation()).isEqualTo(2L);
        assertThat(slice.perDeviceNodeSelection()).isTrue();
        assertThat(slice.sharedCounters().get(0).counters().get("mem").value().text()).isEqualTo("80Gi");
        KubeDra.Device gpu = slice.devices().get(0);
        assertThat(gpu.attributes().keySet()).containsExactly("index", "model", "healthy", "driverVersion",
                "example.com/pcie");
        assertThat(gpu.attributes().get("driverVersion").versionValue()).isEqualTo("1.2.3");
        assertThat(gpu.capacity().get("cores").requestPolicy().validRange().max().text()).isEqualTo("132");
        assertThat(gpu.bindingFailureConditions()).containsExactly("failed");
        assertThat(gpu.nodeSelector().nodeSelectorTerms()).hasSize(1);
        // the second slice repeats a device's maps byte for byte: recalled, so one object
        KubeDra.Device again = fast.snapshot().resourceSlices().get(1).spec().devices().get(0);
        assertThat(again.capacity()).isEqualTo(slice.devices().get(1).capacity())
                .isSameAs(slice.devices().get(1).capacity());
        assertThat(fast.snapshot().pods().get(2)).isEqualTo(new Kube.Pod(null, null, null));
        assertThat(fast.snapshot().pods().get(3)).isEqualTo(new Kube.Pod(null, null, null));
    }

    @Test
    void theOpenApiExamplesDecodeAsDatabindDecodesThem() throws Exception {
        try (var files = Files.list(Path.of("openapi/examples"))) {
            List<Path> json = files.filter(f -> f.toString().endsWith(".json")).sorted().toList();
            assertThat(json).isNotEmpty();
            for (Path f : json) {
                byte[] body = Files.readAllBytes(f);
                assertThat(outcome(STREAMING, body)).as(f.toString()).isEqualTo(outcome(DATABIND, body));
            }
        }
    }

    @Test
    void repeatedValuesAreSharedButStayEqual() throws Exception {
        String json = "{\"snapshot\":{\"pods\":[" + pod("a") + "," + pod("b") + "]}}";
        RequestDocument doc = STREAMING.readJson(json.getBytes(StandardCharsets.UTF_8));
        Kube.Pod a = doc.snapshot().pods().get(0);
        Kube.Pod b = doc.snapshot().pods().get(1);
        assertThat(a.metadata().namespace()).isEqualTo("ns").isSameAs(b.metadata().namespace());
        assertThat(a.spec().containers().get(0).resources().requests().get("cpu"))
                .isEqualTo(Qty.of("250m")).isSameAs(b.spec().containers().get(0).resources().requests().get("cpu"));
        assertThat(a.metadata().name()).isEqualTo("a");
        assertThat(b.metadata().name()).isEqualTo("b");
        assertThat(doc).isEqualTo(DATABIND.readJson(json.getBytes(StandardCharsets.UTF_8)));
    }

    private static String pod(String name) {
        return "{\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"ns\"},\"spec\":{\"containers\":[{\"name\":\"c\","
                + "\"resources\":{\"requests\":{\"cpu\":\"250m\"}}}]}}";
    }

    @Test
    void everyValueOfEveryWrongTypeFailsOrPassesAsInDatabind() throws Exception {
        JsonNode root = TREE.readTree(every);
        List<Consumer<String>> sites = new ArrayList<>();
        List<String> where = new ArrayList<>();
        collect(root, "", sites, where);
        assertThat(sites.size()).as("value positions in the fixture").isGreaterThan(200);
        int failures = 0;
        for (int i = 0; i < sites.size(); i++) {
            for (String replacement : REPLACEMENTS) {
                JsonNode copy = root.deepCopy();
                List<Consumer<String>> copySites = new ArrayList<>();
                collect(copy, "", copySites, new ArrayList<>());
                copySites.get(i).accept(replacement);
                byte[] body = TREE.writeValueAsBytes(copy);
                String plain = outcome(DATABIND, body);
                assertThat(outcome(STREAMING, body)).as(where.get(i) + " = " + replacement).isEqualTo(plain);
                if (plain.startsWith("400")) {
                    failures++;
                }
            }
        }
        // the comparison means something only if many of the mutants are rejected, with paths inside pods and nodes
        assertThat(failures).isGreaterThan(1000);
    }

    @Test
    void wrongTypesDeepInsideAPodNameTheirField() {
        String json = "{\"snapshot\":{\"pods\":[{},{\"spec\":{\"containers\":[{\"name\":\"c\",\"resources\":"
                + "{\"requests\":{\"cpu\":true}}}]}}]}}";
        assertThatThrownBy(() -> STREAMING.readJson(json.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(DecodeException.class)
                .extracting(e -> ((DecodeException) e).field())
                .isEqualTo("snapshot.pods[1].spec.containers[0].resources.requests[cpu]");
        String nul = "{\"snapshot\":{\"pods\":[{\"spec\":{\"tolerations\":[{},null]}}]}}";
        assertThatThrownBy(() -> STREAMING.readJson(nul.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(DecodeException.class)
                .extracting(e -> ((DecodeException) e).field()).isEqualTo("snapshot.pods[0].spec.tolerations[1]");
        String fraction = "{\"snapshot\":{\"pods\":[{\"spec\":{\"priority\":1.5}}]}}";
        assertThatThrownBy(() -> STREAMING.readJson(fraction.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(DecodeException.class)
                .extracting(e -> ((DecodeException) e).field()).isEqualTo("snapshot.pods[0].spec.priority");
        String label = "{\"snapshot\":{\"nodes\":[{\"metadata\":{\"labels\":{\"a\":\"b\",\"c\":[]}}}]}}";
        assertThatThrownBy(() -> STREAMING.readJson(label.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(DecodeException.class)
                .extracting(e -> ((DecodeException) e).field()).isEqualTo("snapshot.nodes[0].metadata.labels[c]");
    }

    @Test
    void everyPrefixAndCorruptedByteFailsAsInDatabind() throws Exception {
        byte[] compact = TREE.writeValueAsBytes(TREE.readTree(every));
        int rejected = 0;
        for (int n = 0; n < compact.length; n++) {
            byte[] prefix = java.util.Arrays.copyOf(compact, n);
            String plain = outcome(DATABIND, prefix);
            assertThat(outcome(STREAMING, prefix)).as("prefix of " + n + " bytes").isEqualTo(plain);
            rejected += plain.startsWith("400") ? 1 : 0;
        }
        assertThat(rejected).isEqualTo(compact.length);
        for (byte b : new byte[]{(byte) 0xC3, (byte) 0xFF, '"', '}', ']', ',', '1', 'n'}) {
            for (int i = 0; i < compact.length; i++) {
                byte[] bad = compact.clone();
                bad[i] = b;
                assertThat(outcome(STREAMING, bad)).as("byte " + i + " = " + b).isEqualTo(outcome(DATABIND, bad));
            }
        }
    }

    @Test
    void duplicateFieldsKeepTheLastValueAsInDatabind() throws Exception {
        String json = "{\"snapshot\":{\"pods\":[{\"metadata\":{\"name\":\"a\",\"name\":\"b\",\"labels\":{\"k\":\"1\","
                + "\"k\":\"2\"}},\"spec\":{\"priority\":1,\"priority\":2}}]}}";
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        RequestDocument doc = STREAMING.readJson(body);
        assertThat(doc).isEqualTo(DATABIND.readJson(body));
        assertThat(doc.snapshot().pods().get(0).metadata().name()).isEqualTo("b");
        assertThat(doc.snapshot().pods().get(0).metadata().labels()).containsEntry("k", "2").hasSize(1);
        assertThat(doc.snapshot().pods().get(0).spec().priority()).isEqualTo(2);
    }

    /** "200 " + the records, or "400 " + field + message: what a client would see. */
    private static String outcome(KubeCodec codec, byte[] body) {
        try {
            return "200 " + codec.readJson(body);
        } catch (DecodeException e) {
            return "400 " + e.field() + " | " + e.getMessage();
        }
    }

    /** Every value position (object field or array element) of the tree, depth first, with a setter for raw JSON. */
    private static void collect(JsonNode node, String path, List<Consumer<String>> sites, List<String> where) {
        if (node instanceof ObjectNode o) {
            List<String> names = new ArrayList<>();
            o.fieldNames().forEachRemaining(names::add);
            for (String name : names) {
                sites.add(raw -> o.set(name, parse(raw)));
                where.add(path + "." + name);
                collect(o.get(name), path + "." + name, sites, where);
            }
        } else if (node instanceof ArrayNode a) {
            for (int i = 0; i < a.size(); i++) {
                int ix = i;
                sites.add(raw -> a.set(ix, parse(raw)));
                where.add(path + "[" + i + "]");
                collect(a.get(i), path + "[" + i + "]", sites, where);
            }
        }
    }

    private static JsonNode parse(String raw) {
        try {
            return TREE.readTree(raw);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
