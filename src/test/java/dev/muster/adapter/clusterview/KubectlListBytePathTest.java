package dev.muster.adapter.clusterview;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.adapter.kube.KubeCodec;
import dev.muster.adapter.kube.KubeList;
import dev.muster.adapter.validation.ValidationLimits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Files of {@code kubectl get -o json} read on the byte path give the part Jackson gives, and every other file goes
 * to Jackson. The corpus: the nodes, pods and ResourceSlices of every golden request, and of the decoder's corpus,
 * written as kubectl writes them (each item opening with apiVersion and kind).
 */
class KubectlListBytePathTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final KubeCodec codec = new KubeCodec(KubeCodec.Limits.DEFAULT);

    @TempDir
    Path dir;

    private static Object skipped(String kind) {
        return SnapshotKind.ofKind(kind) == null ? new SnapshotPart.Skipped(kind) : null;
    }

    private KubeList<Object> fast(String json) {
        return codec.readKubectlList(json.getBytes(StandardCharsets.UTF_8), KubectlListBytePathTest::skipped);
    }

    private SnapshotPart jackson(String json) throws Exception {
        return SnapshotPart.of(codec.readJson(json.getBytes(StandardCharsets.UTF_8), SnapshotPart.Document.class));
    }

    /** {@code object} as kubectl prints an item: apiVersion, kind, then its other fields. */
    private static ObjectNode item(JsonNode object, String apiVersion, String kind) {
        ObjectNode out = JSON.createObjectNode();
        out.put("apiVersion", apiVersion);
        out.put("kind", kind);
        object.fields().forEachRemaining(e -> {
            if (!e.getKey().equals("apiVersion") && !e.getKey().equals("kind")) {
                out.set(e.getKey(), e.getValue());
            }
        });
        return out;
    }

    /** The snapshot's nodes, pods and slices (and one Service) as one kubectl List, or null when it has none. */
    private static String asKubectlList(JsonNode snapshot) {
        ArrayNode items = JSON.createArrayNode();
        add(items, snapshot.path("resourceSlices"), "resource.k8s.io/v1", "ResourceSlice");
        add(items, snapshot.path("pods"), "v1", "Pod");
        items.add(item(JSON.createObjectNode().set("metadata", JSON.createObjectNode().put("name", "svc")), "v1",
                "Service"));
        add(items, snapshot.path("nodes"), "v1", "Node");
        if (items.size() == 1) {
            return null;
        }
        ObjectNode list = JSON.createObjectNode();
        list.put("apiVersion", "v1");
        list.set("items", items);
        list.put("kind", "List");
        list.set("metadata", JSON.createObjectNode().put("resourceVersion", ""));
        return list.toString();
    }

    private static void add(ArrayNode items, JsonNode list, String apiVersion, String kind) {
        JsonNode objects = list.isObject() ? list.path("items") : list;
        for (JsonNode o : objects) {
            if (o.isObject()) {
                items.add(item(o, apiVersion, kind));
            }
        }
    }

    private static List<Path> corpus() throws IOException {
        List<Path> out = new ArrayList<>();
        try (Stream<Path> s = Files.walk(Path.of("src/test/resources"))) {
            s.filter(p -> p.getFileName().toString().equals("request.json")
                    || p.getParent().getFileName().toString().equals("decode")).sorted().forEach(out::add);
        }
        return out;
    }

    @Test
    void kubectlFilesOfTheCorpusGiveJacksonsPartOnTheBytePath() throws Exception {
        int files = 0;
        int objects = 0;
        for (Path request : corpus()) {
            JsonNode root = JSON.readTree(request.toFile());
            String json = asKubectlList(root.has("snapshot") ? root.get("snapshot") : root);
            if (json == null) {
                continue;
            }
            SnapshotPart expected = jackson(json);
            KubeList<Object> fast = fast(json);
            assertThat(fast).as("%s takes the byte path", request).isNotNull();
            SnapshotPart actual = SnapshotPart.of(SnapshotPart.Document.ofList(fast.kind(), fast));

            for (SnapshotKind k : SnapshotKind.values()) {
                assertThat(actual.lists()[k.ordinal()]).as("%s: %s", request, k).isEqualTo(expected.lists()[k.ordinal()]);
                assertThat(actual.items()[k.ordinal()]).as("%s: %s", request, k).isEqualTo(expected.items()[k.ordinal()]);
                objects += expected.lists()[k.ordinal()] == null ? 0 : expected.lists()[k.ordinal()].size();
            }
            assertThat(actual.skipped()).isEqualTo(expected.skipped()).containsEntry("Service", 1);
            files++;
        }
        assertThat(files).isGreaterThan(50);
        assertThat(objects).isGreaterThan(400);
    }

    @Test
    void otherFilesGoToJackson() {
        String node = "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\"}}";
        assertThat(fast("{\"apiVersion\":\"v1\",\"items\":[" + node + "],\"kind\":\"List\"}")).hasSize(1);

        // a kind the byte path does not decode, in a List it would otherwise read
        assertThat(fast("{\"items\":[" + node + ",{\"apiVersion\":\"scheduling.k8s.io/v1alpha2\",\"kind\":"
                + "\"PodGroup\",\"metadata\":{\"name\":\"g\"}}],\"kind\":\"List\"}")).isNull();
        // an item whose kind does not come first (after apiVersion)
        assertThat(fast("{\"items\":[{\"metadata\":{\"name\":\"n1\"},\"kind\":\"Node\"}],\"kind\":\"List\"}")).isNull();
        // a typed list's item of another kind: Jackson's error
        assertThat(fast("{\"kind\":\"PodList\",\"items\":[" + node + "]}")).isNull();
        // a snapshot object, a repeated field, an unknown field, no kind, trailing bytes, a kind that is no string
        assertThat(fast("{\"nodes\":[" + node + "]}")).isNull();
        assertThat(fast("{\"kind\":\"List\",\"items\":[],\"items\":[" + node + "]}")).isNull();
        assertThat(fast("{\"kind\":\"List\",\"items\":[" + node + "],\"nodes\":[]}")).isNull();
        assertThat(fast("{\"items\":[" + node + "]}")).isNull();
        assertThat(fast("{\"kind\":\"List\",\"items\":[" + node + "]} x")).isNull();
        assertThat(fast("{\"kind\":7,\"items\":[" + node + "]}")).isNull();
        // a value the decoders refuse
        assertThat(fast("{\"kind\":\"List\",\"items\":[{\"kind\":\"Node\",\"metadata\":{\"name\":7}}]}")).isNull();
    }

    @Test
    void aFileLeftToJacksonStillLoadsOrFailsWithJacksonsMessage() throws IOException {
        Files.writeString(dir.resolve("a.json"), "{\"kind\":\"List\",\"items\":[{\"apiVersion\":\"v1\",\"kind\":\"Node\","
                + "\"metadata\":{\"name\":\"n1\"}},{\"apiVersion\":\"scheduling.k8s.io/v1alpha2\",\"kind\":\"PodGroup\","
                + "\"metadata\":{\"name\":\"g\",\"namespace\":\"ns\"},\"spec\":{\"schedulingPolicy\":{\"basic\":{}}}}]}");
        FileClusterViewSource ok = new FileClusterViewSource(dir, 0, () -> 0L, (s, where) -> null,
                FileClusterViewSource.Limits.DEFAULT);
        assertThat(ok.lastError()).isEmpty();
        assertThat(ok.current().state().nodes()).hasSize(1);
        assertThat(ok.current().state().podGroups()).hasSize(1);

        Files.writeString(dir.resolve("a.json"), "{\"kind\":\"PodList\",\"items\":[{\"apiVersion\":\"v1\",\"kind\":"
                + "\"Node\",\"metadata\":{\"name\":\"n1\"}}]}");
        FileClusterViewSource bad = new FileClusterViewSource(dir, 0, () -> 0L, (s, where) -> null,
                new FileClusterViewSource.Limits(1 << 20, KubeCodec.Limits.DEFAULT, ValidationLimits.DEFAULT, 1));
        assertThat(bad.lastError()).hasValueSatisfying(e -> assertThat(e)
                .startsWith("a.json: items[0].kind: a PodList holds Pod objects, not Node"));
    }
}
