package dev.muster.adapter.kube;

import dev.muster.adapter.cel.CelSelectors;
import dev.muster.adapter.rest.DecisionResponseWriter;
import dev.muster.core.decision.DecisionEngine;
import dev.muster.core.decision.DecisionRequest;
import dev.muster.core.decision.EngineConfig;
import dev.muster.core.dra.Device;
import dev.muster.core.dra.DeviceAttribute;
import dev.muster.core.dra.DraObjects;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A decision's DRA objects keep, of each device's attributes, only those the request's selectors and constraints read
 * ({@link KubeMapper#requestDraObjects}); the decisions are those of the objects with every attribute kept.
 */
class RequestDraObjectsTest {
    private static final KubeCodec CODEC = new KubeCodec(KubeCodec.Limits.DEFAULT);
    private static final String DRIVER = "gpu.example.com";

    private static String request(String classSelector) {
        String device = "{'name':'gpu-%d','attributes':{'model':{'string':'h100'},'interconnect':{'string':'nvl-1'},"
                + "'uuid':{'string':'GPU-%d'},'gpu.example.com/memory':{'int':80},'other.example.com/serial':"
                + "{'string':'S%d'},'firmware':{'version':'1.2.3'}}}";
        return ("{'snapshot':{'deviceClasses':[{'metadata':{'name':'gpu'},'spec':{'selectors':[{'cel':{'expression':"
                + "'" + classSelector + "'}}]}}],"
                + "'resourceSlices':[{'metadata':{'name':'n1-gpu'},'spec':{'driver':'" + DRIVER + "','nodeName':'n1',"
                + "'pool':{'name':'n1','generation':1,'resourceSliceCount':1},'devices':["
                + device.formatted(0, 0, 0) + "," + device.formatted(1, 1, 1) + "]}}],"
                + "'resourceClaimTemplates':[{'metadata':{'name':'gpu','namespace':'default'},'spec':{'spec':{"
                + "'devices':{'requests':[{'name':'gpu','exactly':{'deviceClassName':'gpu','selectors':[{'cel':{"
                + "'expression':'device.attributes[\\\"gpu.example.com\\\"].memory >= 40'}}]}}],"
                + "'constraints':[{'matchAttribute':'gpu.example.com/interconnect'}]}}}}]}}").replace('\'', '"');
    }

    private static List<Device> devices(DraObjects dra) {
        return dra.resourceSlices().get(0).devices();
    }

    private static RequestDocument.Snapshot snapshot(String json) throws DecodeException {
        return CODEC.readJson(json.getBytes(StandardCharsets.UTF_8)).snapshot();
    }

    @Test
    @DisplayName("a device keeps the attributes a selector or constraint reads, bare or qualified, and drops the rest")
    void keepsWhatIsRead() throws Exception {
        RequestDocument.Snapshot s = snapshot(request("device.attributes[\\\"gpu.example.com\\\"].model == \\\"h100\\\""));
        List<Device> devices = devices(KubeMapper.requestDraObjects(s, CelSelectors.shared()::compile));
        assertThat(devices.get(0).attributes()).containsOnlyKeys("model", "interconnect", "gpu.example.com/memory")
                .containsEntry("model", new DeviceAttribute.StringValue("h100"))
                .containsEntry("gpu.example.com/memory", new DeviceAttribute.IntValue(80));
        // the uuid and serial told the two devices apart; without them they share one map
        assertThat(devices.get(1).attributes()).isSameAs(devices.get(0).attributes());
        assertThat(devices(KubeMapper.draObjects(s, CelSelectors.shared()::compile)).get(1).attributes())
                .as("every attribute kept").containsOnlyKeys("model", "interconnect", "uuid", "gpu.example.com/memory",
                        "other.example.com/serial", "firmware")
                .containsEntry("uuid", new DeviceAttribute.StringValue("GPU-1"));
    }

    @Test
    @DisplayName("a selector whose reads cannot be told (a domain's map as a whole) keeps every attribute")
    void unknownReadsKeepEverything() throws Exception {
        RequestDocument.Snapshot s = snapshot(request("\\\"uuid\\\" in device.attributes[\\\"gpu.example.com\\\"]"));
        assertThat(devices(KubeMapper.requestDraObjects(s, CelSelectors.shared()::compile)).get(0).attributes())
                .containsOnlyKeys("model", "interconnect", "uuid", "gpu.example.com/memory", "other.example.com/serial",
                        "firmware");
    }

    @Test
    @DisplayName("every golden request decides to the same bytes with only the read attributes as with all of them")
    void goldenRequestsDecideAlike() throws Exception {
        List<Path> requests;
        try (Stream<Path> cases = Files.list(Path.of("src", "test", "resources", "golden"))) {
            requests = cases.map(c -> c.resolve("request.json")).filter(Files::isRegularFile).sorted().toList();
        }
        DecisionEngine engine = new DecisionEngine(EngineConfig.DEFAULT);
        int withDevices = 0;
        for (Path request : requests) {
            RequestDocument doc = CODEC.readJson(Files.readAllBytes(request));
            if (doc.snapshot() == null || doc.snapshot().resourceSlices() == null
                    || doc.snapshot().resourceSlices().isEmpty()) {
                continue;
            }
            withDevices++;
            DecisionRequest read = KubeMapper.toDecisionRequest(doc, KubeMapper.toClusterState(doc.snapshot()),
                    KubeMapper.requestDraObjects(doc.snapshot(), CelSelectors.shared()::compile));
            DecisionRequest all = KubeMapper.toDecisionRequest(doc, KubeMapper.toClusterState(doc.snapshot()),
                    KubeMapper.draObjects(doc.snapshot(), CelSelectors.shared()::compile));
            assertThat(new String(DecisionResponseWriter.write(engine.decide(read)), StandardCharsets.UTF_8))
                    .as(request.getParent().getFileName().toString())
                    .isEqualTo(new String(DecisionResponseWriter.write(engine.decide(all)), StandardCharsets.UTF_8));
        }
        assertThat(withDevices).as("golden requests with devices").isGreaterThanOrEqualTo(5);
    }
}
