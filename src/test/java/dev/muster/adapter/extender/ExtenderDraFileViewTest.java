package dev.muster.adapter.extender;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.muster.adapter.extender.ExtenderFileViewTest.argsWithNames;
import static dev.muster.adapter.extender.ExtenderFileViewTest.keys;
import static dev.muster.adapter.extender.ExtenderFileViewTest.post;
import static dev.muster.adapter.extender.ExtenderFileViewTest.strings;
import static dev.muster.adapter.extender.Fixtures.gang;
import static dev.muster.adapter.extender.Fixtures.node;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The file cluster view with DRA objects: two roomy nodes, only {@code gpu-node} publishes a ResourceSlice (four
 * GPUs), and gang {@code ml/train} (four members, minCount 4) asks for one GPU per member through a claim template.
 * Filter keeps every member on the GPU node, although {@code cpu-node} would take them on cpu alone.
 */
@QuarkusTest
@TestProfile(ExtenderDraFileViewTest.DraFileView.class)
class ExtenderDraFileViewTest {
    static final Path FILE;

    static {
        try {
            FILE = Path.of("target", "extender-dra-file-view", "snapshot.json").toAbsolutePath();
            Files.createDirectories(FILE.getParent());
            Fixtures.write(FILE, snapshot(true));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static class DraFileView implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("muster.cluster-view.source", "file",
                    "muster.cluster-view.file", FILE.toString(),
                    "muster.cluster-view.file-check-interval", "0s",
                    "muster.extender.view-max-staleness", "0s",
                    "quarkus.http.test-port", "0");
        }
    }

    private static final List<String> NODES = List.of("cpu-node", "gpu-node");

    /** A gang member whose container uses a claim made from the {@code one-gpu} template. */
    static String member(int i) {
        String plain = Fixtures.pod("ml", "train-" + i, "train", "2");
        return plain.replace("\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":\"2\"}}}]",
                "\"resourceClaims\":[{\"name\":\"gpu\",\"resourceClaimTemplateName\":\"one-gpu\"}],"
                        + "\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":\"2\"},"
                        + "\"claims\":[{\"name\":\"gpu\"}]}}]");
    }

    static String snapshot(boolean withSlice) {
        List<String> pods = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            pods.add(member(i));
        }
        String base = Fixtures.snapshot(List.of(node("cpu-node", "rack-a", "64"), node("gpu-node", "rack-b", "64")),
                pods, List.of(gang("ml", "train", 4, null)));
        StringBuilder devices = new StringBuilder();
        for (int g = 0; g < 4; g++) {
            devices.append(g == 0 ? "" : ",").append("{\"name\":\"gpu-").append(g)
                    .append("\",\"attributes\":{\"model\":{\"string\":\"H100\"}},"
                            + "\"capacity\":{\"memory\":{\"value\":\"80Gi\"}}}");
        }
        String slice = "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceSlice\","
                + "\"metadata\":{\"name\":\"gpu-node-gpu.example.com\"},\"spec\":{\"driver\":\"gpu.example.com\","
                + "\"pool\":{\"name\":\"gpu-node\",\"generation\":1,\"resourceSliceCount\":1},"
                + "\"nodeName\":\"gpu-node\",\"devices\":[" + devices + "]}}";
        String dra = ",\"deviceClasses\":[{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"DeviceClass\","
                + "\"metadata\":{\"name\":\"gpu.example.com\"},\"spec\":{\"selectors\":[{\"cel\":"
                + "{\"expression\":\"device.driver == 'gpu.example.com'\"}}]}}],"
                + "\"resourceSlices\":[" + (withSlice ? slice : "") + "],\"resourceClaims\":[],"
                + "\"resourceClaimTemplates\":[{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":"
                + "\"ResourceClaimTemplate\",\"metadata\":{\"name\":\"one-gpu\",\"namespace\":\"ml\"},"
                + "\"spec\":{\"spec\":{\"devices\":{\"requests\":[{\"name\":\"gpu\",\"exactly\":"
                + "{\"deviceClassName\":\"gpu.example.com\",\"selectors\":[{\"cel\":{\"expression\":"
                + "\"device.attributes['gpu.example.com'].model == 'H100'\"}}]}}]}}}}]";
        return base.substring(0, base.length() - 1) + dra + "}";
    }

    @BeforeEach
    void resetView() throws IOException {
        Fixtures.write(FILE, snapshot(true));
    }

    @Test
    void everyMemberIsFilteredToTheNodeWithTheGpus() {
        for (int i = 0; i < 4; i++) {
            JsonNode r = post("filter", argsWithNames(member(i), NODES));
            assertThat(r.get("Error").asText()).isEmpty();
            assertThat(strings(r.get("NodeNames"))).as("train-" + i).containsExactly("gpu-node");
            assertThat(keys(r.get("FailedNodes"))).containsExactly("cpu-node");
            assertThat(r.get("FailedNodes").get("cpu-node").asText())
                    .isEqualTo("pod group \"ml/train\" places this pod on node \"gpu-node\"");
        }
        JsonNode scores = post("prioritize", argsWithNames(member(2), NODES));
        scores.forEach(hp -> assertThat(hp.get("Score").asLong())
                .isEqualTo(hp.get("Host").asText().equals("gpu-node") ? 10 : 0));
    }

    @Test
    void withoutASliceTheGangFitsNowhere() throws IOException {
        Fixtures.write(FILE, snapshot(false));
        JsonNode r = post("filter", argsWithNames(member(0), NODES));
        assertThat(strings(r.get("NodeNames"))).isEmpty();
        assertThat(keys(r.get("FailedNodes"))).containsExactlyElementsOf(NODES);
        assertThat(r.get("FailedNodes").get("gpu-node").asText()).startsWith("pod group \"ml/train\": ");
    }

    @Test
    void aSelectorErrorIsTheFiltersError() throws IOException {
        // the driver no longer publishes the attribute the claim's selector reads: kube-scheduler's cycle ends in error
        Fixtures.write(FILE, snapshot(true).replace("\"attributes\":{\"model\":{\"string\":\"H100\"}},",
                "\"attributes\":{},"));
        JsonNode r = post("filter", argsWithNames(member(0), NODES));
        assertThat(r.get("Error").asText()).startsWith("pod group \"ml/train\": running \"DynamicResources\" filter "
                + "plugin: ").contains("CEL runtime error");
        assertThat(strings(r.get("NodeNames"))).isEmpty();
    }

    @Test
    void aGangLargerThanTheDevicesFitsNowhere() throws IOException {
        String five = snapshot(true).replace("\"minCount\":4", "\"minCount\":5")
                .replace(member(3), member(3) + "," + member(4));
        Fixtures.write(FILE, five);
        JsonNode r = post("filter", argsWithNames(member(4), NODES));
        assertThat(strings(r.get("NodeNames"))).isEmpty();
        assertThat(keys(r.get("FailedNodes"))).containsExactlyElementsOf(NODES);
    }
}
