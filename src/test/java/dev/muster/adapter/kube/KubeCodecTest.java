package dev.muster.adapter.kube;

import dev.muster.core.decision.DecisionRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class KubeCodecTest {
    private final KubeCodec codec = new KubeCodec(KubeCodec.Limits.DEFAULT);

    private static final String GROUP = "{\"snapshot\":{\"nodes\":[],\"podGroups\":[{\"metadata\":{\"name\":\"pg\"},"
            + "\"spec\":{\"schedulingPolicy\":{\"gang\":{\"minCount\":%s}}}}]}}";

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "a string for an integer is a wrong type      | '\"2\"'  | snapshot.podGroups[0].spec.schedulingPolicy.gang.minCount",
            "a fraction for an integer is a wrong type    | 2.5      | snapshot.podGroups[0].spec.schedulingPolicy.gang.minCount",
            "a whole float for an integer is a wrong type | 2.0      | snapshot.podGroups[0].spec.schedulingPolicy.gang.minCount",
            "a boolean for an integer is a wrong type     | true     | snapshot.podGroups[0].spec.schedulingPolicy.gang.minCount",
            "an integer beyond int32 is a wrong type      | 3000000000 | ",
            "an object for an integer is a wrong type     | {}       | snapshot.podGroups[0].spec.schedulingPolicy.gang.minCount",
    })
    void rejectsWrongTypesNamingTheField(String name, String value, String field) {
        byte[] body = GROUP.formatted(value).getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> codec.readJson(body))
                .isInstanceOf(DecodeException.class)
                .satisfies(e -> {
                    if (field != null) {
                        assertThat(((DecodeException) e).field()).isEqualTo(field);
                        assertThat(e.getMessage()).startsWith(field + ": ");
                    }
                });
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "a number for a name is a wrong type     | {\"snapshot\":{\"nodes\":[{\"metadata\":{\"name\":7}}]}}                       | snapshot.nodes[0].metadata.name",
            "a number for a label value is wrong      | {\"snapshot\":{\"nodes\":[{\"metadata\":{\"name\":\"n\",\"labels\":{\"a\":1}}}]}} | snapshot.nodes[0].metadata.labels[a]",
            "a string for a boolean is a wrong type   | {\"snapshot\":{\"nodes\":[{\"metadata\":{\"name\":\"n\"},\"spec\":{\"unschedulable\":\"true\"}}]}} | snapshot.nodes[0].spec.unschedulable",
            "a string for a list is a wrong type      | {\"snapshot\":{\"nodes\":\"all\"}}                                               | snapshot.nodes",
            "a number for a list's kind is wrong      | {\"snapshot\":{\"nodes\":{\"kind\":1}}}                                         | snapshot.nodes.kind",
            "a boolean for a quantity is a wrong type | {\"snapshot\":{\"nodes\":[{\"status\":{\"allocatable\":{\"cpu\":true}}}]}}       | snapshot.nodes[0].status.allocatable[cpu]",
            "a null inside a list is a wrong type     | {\"snapshot\":{\"nodes\":[null]}}                                              | snapshot.nodes[0]",
            "a null label value is a wrong type       | {\"snapshot\":{\"nodes\":[{\"metadata\":{\"name\":\"n\",\"labels\":{\"a\":null}}}]}} | snapshot.nodes[0].metadata.labels[a]",
            "a string for the options is wrong        | {\"snapshot\":{\"nodes\":[]},\"options\":\"fast\"}                              | options",
    })
    void rejectsOtherWrongTypes(String name, String json, String field) {
        assertThatThrownBy(() -> codec.readJson(json.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(DecodeException.class)
                .extracting(e -> ((DecodeException) e).field()).isEqualTo(field);
    }

    @Test
    void trailingBytesAfterTheDocumentAreRejected() {
        assertThatThrownBy(() -> codec.readJson("{\"snapshot\":{\"nodes\":[]}} {}".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(DecodeException.class).hasMessageContaining("trailing");
        assertThatThrownBy(() -> codec.readJson("{\"snapshot\":{\"nodes\":[]}}x".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(DecodeException.class);
    }

    @Test
    void aSecondYamlDocumentIsTrailingContent() {
        assertThatThrownBy(() -> codec.readYaml("snapshot:\n  nodes: []\n---\nsnapshot: {}\n".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(DecodeException.class);
    }

    @Test
    void invalidUtf8IsRejectedInJsonAndYaml() {
        byte[] json = "{\"snapshot\":{\"nodes\":[{\"metadata\":{\"name\":\"n?\"}}]}}".getBytes(StandardCharsets.UTF_8);
        json[json.length - 8] = (byte) 0xC3; // a lead byte followed by '"': malformed
        assertThatThrownBy(() -> codec.readJson(json)).isInstanceOf(DecodeException.class)
                .hasMessageContaining("UTF-8");
        byte[] yaml = "snapshot:\n  nodes:\n  - metadata:\n      name: n?\n".getBytes(StandardCharsets.UTF_8);
        yaml[yaml.length - 2] = (byte) 0xFF;
        assertThatThrownBy(() -> codec.readYaml(yaml)).isInstanceOf(DecodeException.class);
    }

    @Test
    void notJsonAtAllIsRejected() {
        assertThatThrownBy(() -> codec.readJson("<xml/>".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(DecodeException.class).hasMessageContaining("not valid JSON");
        assertThatThrownBy(() -> codec.readJson(new byte[0])).isInstanceOf(DecodeException.class);
        assertThatThrownBy(() -> codec.readJson("{\"snapshot\":".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(DecodeException.class);
    }

    @Test
    void unknownFieldsAreIgnoredEverywhere() throws Exception {
        String json = "{\"apiVersion\":\"muster/v1\",\"snapshot\":{\"extra\":[1,2],\"nodes\":[{\"kind\":\"Node\","
                + "\"metadata\":{\"name\":\"n\",\"managedFields\":[{\"x\":{}}]},\"spec\":{\"podCIDR\":\"10.0.0.0/24\"},"
                + "\"status\":{\"conditions\":[],\"allocatable\":{\"cpu\":4}}}]},\"future\":{\"a\":true}}";
        RequestDocument doc = codec.readJson(json.getBytes(StandardCharsets.UTF_8));
        assertThat(doc.snapshot().nodes()).hasSize(1);
        assertThat(doc.snapshot().nodes().get(0).status().allocatable().get("cpu").text()).isEqualTo("4");
    }

    @Test
    void nestingBeyondTheLimitIsRejected() {
        KubeCodec shallow = new KubeCodec(new KubeCodec.Limits(8, 1000, 20, 1 << 20));
        String deep = "{\"a\":".repeat(20) + "1" + "}".repeat(20);
        assertThatThrownBy(() -> shallow.readJson(deep.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(DecodeException.class).hasMessageContaining("limit");
    }

    @Test
    void theSameRequestInYamlDecodesToTheSameModel() throws Exception {
        byte[] json = Files.readAllBytes(Path.of("openapi/examples/training-job.json"));
        byte[] yaml = getClass().getResourceAsStream("/training-job.yaml").readAllBytes();
        DecisionRequest fromJson = KubeMapper.toDecisionRequest(codec.readJson(json));
        DecisionRequest fromYaml = KubeMapper.toDecisionRequest(codec.readYaml(yaml));
        assertThat(fromYaml).isEqualTo(fromJson);
        assertThat(fromJson.cluster().pods()).hasSize(4);
    }

    @Test
    void aNullDocumentIsAWrongTypeNotAnEmptyRequest() {
        for (String body : new String[] {"null", " null\n"}) {
            assertThatThrownBy(() -> codec.readJson(body.getBytes(java.nio.charset.StandardCharsets.UTF_8)))
                    .isInstanceOf(DecodeException.class).hasMessageContaining("not null");
        }
        assertThatThrownBy(() -> codec.readYaml("null".getBytes(java.nio.charset.StandardCharsets.UTF_8)))
                .isInstanceOf(DecodeException.class).hasMessageContaining("not null");
    }
}
