package dev.muster.adapter.kube;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The snapshot's lists as the list objects kubectl prints, on the byte path, the Jackson path and YAML. */
class KubeListDecodingTest {
    private static final KubeCodec CODEC = new KubeCodec(KubeCodec.Limits.DEFAULT);
    private static final KubeCodec DATABIND = new KubeCodec(KubeCodec.Limits.DEFAULT, false);

    private static final String NODE = "{\"metadata\":{\"name\":\"n%d\",\"labels\":{\"zone\":\"a\"}},"
            + "\"status\":{\"allocatable\":{\"cpu\":\"4\",\"pods\":\"110\"}}}";
    private static final String POD = "{\"metadata\":{\"name\":\"p%d\",\"namespace\":\"ns\"},"
            + "\"spec\":{\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":\"1\"}}}]}}";
    private static final String PC = "{\"metadata\":{\"name\":\"high\"},\"value\":1000}";

    private static String items(String one, int n) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < n; i++) {
            sb.append(i > 0 ? "," : "").append(String.format(one, i));
        }
        return sb.append(']').toString();
    }

    private static String list(String kind, String items) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"" + kind + "\",\"metadata\":{\"resourceVersion\":\"42\","
                + "\"continue\":\"\"},\"items\":" + items + "}";
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void theBytePathReadsListObjectsAsTheArraysTheyHold() throws Exception {
        String arrays = "{\"snapshot\":{\"nodes\":" + items(NODE, 3) + ",\"pods\":" + items(POD, 2)
                + ",\"priorityClasses\":[" + PC + "]}}";
        String lists = "{\"snapshot\":{\"nodes\":" + list("NodeList", items(NODE, 3)) + ",\"pods\":"
                + list("List", items(POD, 2)) + ",\"priorityClasses\":" + list("PriorityClassList", "[" + PC + "]")
                + "}}";
        RequestDocument fast = CODEC.readBytes(bytes(lists));
        assertThat(fast).as("the byte path does not leave list objects to Jackson").isNotNull();
        RequestDocument plain = CODEC.readJson(bytes(arrays));
        assertThat(fast).isEqualTo(plain);
        assertThat(CODEC.readJackson(bytes(lists))).isEqualTo(plain);
        assertThat(DATABIND.readJson(bytes(lists))).isEqualTo(plain);

        assertThat(fast.snapshot().nodes()).isInstanceOf(KubeList.class).hasSize(3);
        assertThat(((KubeList<?>) fast.snapshot().nodes()).kind()).isEqualTo("NodeList");
        assertThat(((KubeList<?>) fast.snapshot().nodes()).apiVersion()).isEqualTo("v1");
        assertThat(((KubeList<?>) fast.snapshot().pods()).kind()).isEqualTo("List");
        assertThat(((KubeList<?>) CODEC.readJackson(bytes(lists)).snapshot().priorityClasses()).kind())
                .isEqualTo("PriorityClassList");
        assertThat(plain.snapshot().nodes()).isNotInstanceOf(KubeList.class);
    }

    @Test
    void yamlReadsListObjects() throws Exception {
        String yaml = """
                snapshot:
                  nodes:
                    apiVersion: v1
                    kind: List
                    metadata:
                      resourceVersion: "7"
                    items:
                    - metadata: {name: n0}
                      status: {allocatable: {cpu: "4"}}
                  pods:
                    kind: PodList
                    items: []
                """;
        RequestDocument doc = CODEC.readYaml(bytes(yaml));
        assertThat(doc.snapshot().nodes()).hasSize(1);
        assertThat(doc.snapshot().nodes().get(0).metadata().name()).isEqualTo("n0");
        assertThat(((KubeList<?>) doc.snapshot().nodes()).kind()).isEqualTo("List");
        assertThat(((KubeList<?>) doc.snapshot().pods()).kind()).isEqualTo("PodList");
        assertThat(doc.snapshot().pods()).isEmpty();
    }

    @Test
    void missingOrNullItemsReadAsNoItemsAndUnknownWrapperFieldsAreIgnored() throws Exception {
        String json = "{\"snapshot\":{\"nodes\":{\"kind\":\"List\",\"extra\":{\"a\":[1,2]}},"
                + "\"pods\":{\"kind\":\"List\",\"items\":null}}}";
        for (RequestDocument doc : List.of(CODEC.readBytes(bytes(json)), CODEC.readJackson(bytes(json)))) {
            assertThat(doc.snapshot().nodes()).isInstanceOf(KubeList.class).isEmpty();
            assertThat(doc.snapshot().pods()).isInstanceOf(KubeList.class).isEmpty();
        }
    }

    @Test
    void anItemFailureKeepsTheArrayFormPath() {
        String json = "{\"snapshot\":{\"nodes\":" + list("List", "[" + String.format(NODE, 0) + "]")
                + ",\"pods\":" + list("List", "[" + String.format(POD, 0) + ",{\"spec\":{\"priority\":\"high\"}}]")
                + "}}";
        assertThatThrownBy(() -> CODEC.readJson(bytes(json))).isInstanceOf(DecodeException.class)
                .satisfies(e -> assertThat(((DecodeException) e).field()).isEqualTo("snapshot.pods[1].spec.priority"));
    }

    @Test
    void aWrapperFieldOfTheWrongTypeIsA400NamingIt() {
        for (String bad : new String[]{"{\"kind\":5,\"items\":[]}", "{\"kind\":\"List\",\"apiVersion\":[],\"items\":[]}",
                "{\"kind\":\"List\",\"items\":\"x\"}", "{\"kind\":\"List\",\"items\":{}}"}) {
            String json = "{\"snapshot\":{\"nodes\":" + bad + "}}";
            assertThat(CODEC.readBytes(bytes(json))).as(bad).isNull();
            assertThatThrownBy(() -> CODEC.readJson(bytes(json))).as(bad).isInstanceOf(DecodeException.class)
                    .satisfies(e -> assertThat(((DecodeException) e).field()).startsWith("snapshot.nodes"));
        }
        assertThatThrownBy(() -> CODEC.readJson(bytes("{\"snapshot\":{\"nodes\":{\"kind\":5}}}")))
                .satisfies(e -> assertThat(((DecodeException) e).field()).isEqualTo("snapshot.nodes.kind"));
    }

    @Test
    void aRepeatedWrapperFieldLeavesTheBytePathAndTheLastCounts() throws Exception {
        String json = "{\"snapshot\":{\"nodes\":{\"kind\":\"Bogus\",\"items\":[],\"kind\":\"List\",\"items\":"
                + items(NODE, 2) + "}}}";
        assertThat(CODEC.readBytes(bytes(json))).isNull();
        RequestDocument doc = CODEC.readJson(bytes(json));
        assertThat(doc.snapshot().nodes()).hasSize(2);
        assertThat(((KubeList<?>) doc.snapshot().nodes()).kind()).isEqualTo("List");
    }

    @Test
    void aBareSnapshotAndTheDerivationsJobsReadListObjects() throws Exception {
        String snapshot = "{\"nodes\":" + list("NodeList", items(NODE, 2)) + "}";
        RequestDocument.Snapshot s = CODEC.readJson(bytes(snapshot), RequestDocument.Snapshot.class);
        assertThat(s.nodes()).hasSize(2).isInstanceOf(KubeList.class);
    }
}
