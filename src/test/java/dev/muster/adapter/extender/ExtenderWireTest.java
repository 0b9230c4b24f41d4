package dev.muster.adapter.extender;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.muster.adapter.extender.ExtenderWire.ExtenderArgs;
import dev.muster.adapter.extender.ExtenderWire.ExtenderBindingArgs;
import dev.muster.adapter.extender.ExtenderWire.ExtenderBindingResult;
import dev.muster.adapter.extender.ExtenderWire.ExtenderFilterResult;
import dev.muster.adapter.extender.ExtenderWire.ExtenderPreemptionArgs;
import dev.muster.adapter.extender.ExtenderWire.ExtenderPreemptionResult;
import dev.muster.adapter.extender.ExtenderWire.HostPriority;
import dev.muster.adapter.extender.ExtenderWire.MetaPod;
import dev.muster.adapter.extender.ExtenderWire.MetaVictims;
import dev.muster.adapter.extender.ExtenderWire.NodeList;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The extender wire format, pinned byte for byte the way upstream's extender/v1 compatibility test pins it: what
 * the scheduler's Go encoder writes (Go field names, core/v1 objects inside) decodes, also fully lower-cased; what
 * Muster writes is exactly what a Go extender's {@code encoding/json} would print.
 */
class ExtenderWireTest {
    private final ExtenderCodec codec = new ExtenderCodec();

    /** A pod and a node the way Go prints zero-valued objects (creationTimestamp null, empty structs). */
    private static final String GO_POD = "{\"metadata\":{\"name\":\"podname\",\"creationTimestamp\":null},"
            + "\"spec\":{\"containers\":null},\"status\":{}}";
    private static final String GO_NODE = "{\"metadata\":{\"name\":\"nodename\",\"creationTimestamp\":null},\"spec\":{},"
            + "\"status\":{\"daemonEndpoints\":{\"kubeletEndpoint\":{\"Port\":0}},\"nodeInfo\":{\"machineID\":\"\","
            + "\"systemUUID\":\"\",\"bootID\":\"\",\"kernelVersion\":\"\",\"osImage\":\"\",\"containerRuntimeVersion\":\"\","
            + "\"kubeletVersion\":\"\",\"kubeProxyVersion\":\"\",\"operatingSystem\":\"\",\"architecture\":\"\"}}}";

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] lower(String s) {
        return b(s.toLowerCase(Locale.ROOT));
    }

    private String out(Object o) {
        return new String(codec.write(o), StandardCharsets.UTF_8);
    }

    // ---------------------------------------------------------------- in: what the scheduler sends

    @Test
    void extenderArgsFromGoDecodeInAnyCase() throws Exception {
        String go = "{\"Pod\":" + GO_POD + ",\"Nodes\":{\"metadata\":{},\"items\":[" + GO_NODE + "]},"
                + "\"NodeNames\":[\"node1\"]}";
        for (byte[] body : List.of(b(go), lower(go))) {
            ExtenderArgs a = codec.read(body, ExtenderArgs.class);
            assertThat(a.pod().metadata().name()).isEqualTo("podname");
            assertThat(a.pod().metadata().creationTimestamp()).isNull();
            assertThat(a.nodes().items()).hasSize(1);
            assertThat(codec.node(a.nodes().items().get(0)).metadata().name()).isEqualTo("nodename");
            assertThat(a.nodeNames()).containsExactly("node1");
        }
    }

    @Test
    void cacheCapableArgsCarryNullNodes() throws Exception {
        ExtenderArgs a = codec.read(b("{\"Pod\":" + GO_POD + ",\"Nodes\":null,\"NodeNames\":[\"a\",\"b\"]}"),
                ExtenderArgs.class);
        assertThat(a.nodes()).isNull();
        assertThat(a.nodeNames()).containsExactly("a", "b");
    }

    @Test
    void preemptionArgsFromGoDecodeInAnyCase() throws Exception {
        String go = "{\"Pod\":" + GO_POD + ",\"NodeNameToVictims\":{\"foo\":{\"Pods\":[" + GO_POD
                + "],\"NumPDBViolations\":1}},\"NodeNameToMetaVictims\":{\"foo\":{\"Pods\":[{\"UID\":\"myuid\"}],"
                + "\"NumPDBViolations\":1}}}";
        for (byte[] body : List.of(b(go), lower(go))) {
            ExtenderPreemptionArgs a = codec.read(body, ExtenderPreemptionArgs.class);
            assertThat(a.pod().metadata().name()).isEqualTo("podname");
            assertThat(a.nodeNameToVictims().get("foo").pods().get(0).metadata().name()).isEqualTo("podname");
            assertThat(a.nodeNameToVictims().get("foo").numPDBViolations()).isEqualTo(1);
            assertThat(a.nodeNameToMetaVictims().get("foo"))
                    .isEqualTo(new MetaVictims(List.of(new MetaPod("myuid")), 1));
        }
    }

    @Test
    void bindingArgsFromGoDecodeInAnyCase() throws Exception {
        String go = "{\"PodName\":\"mypodname\",\"PodNamespace\":\"mypodnamespace\",\"PodUID\":\"mypoduid\","
                + "\"Node\":\"mynode\"}";
        ExtenderBindingArgs expected = new ExtenderBindingArgs("mypodname", "mypodnamespace", "mypoduid", "mynode");
        assertThat(codec.read(b(go), ExtenderBindingArgs.class)).isEqualTo(expected);
        assertThat(codec.read(lower(go), ExtenderBindingArgs.class)).isEqualTo(expected);
        assertThat(codec.read(b("{\"podname\":\"mypodname\",\"PODNAMESPACE\":\"mypodnamespace\",\"pODuID\":"
                + "\"mypoduid\",\"node\":\"mynode\"}"), ExtenderBindingArgs.class)).isEqualTo(expected);
    }

    @Test
    void wrongJsonTypesAndTrailingBytesAreRejected() {
        assertThatThrownBy(() -> codec.read(b("{\"NodeNames\":\"node1\"}"), ExtenderArgs.class))
                .isInstanceOf(ExtenderCodec.WireException.class).hasMessageContaining("ExtenderArgs");
        assertThatThrownBy(() -> codec.read(b("{\"PodName\":7}"), ExtenderBindingArgs.class))
                .isInstanceOf(ExtenderCodec.WireException.class);
        assertThatThrownBy(() -> codec.read(b("{\"Error\":\"\"} {}"), ExtenderBindingResult.class))
                .isInstanceOf(ExtenderCodec.WireException.class);
        assertThatThrownBy(() -> codec.read(new byte[0], ExtenderArgs.class))
                .isInstanceOf(ExtenderCodec.WireException.class).hasMessageContaining("empty");
    }

    // ---------------------------------------------------------------- out: what Muster answers

    @Test
    void filterResultPrintsGoFieldsNullsAndSortedMaps() {
        Map<String, String> failed = new LinkedHashMap<>();
        failed.put("foo", "bar");
        failed.put("b", "x");
        assertThat(out(new ExtenderFilterResult(null, List.of("node1"), failed, null, "myerror")))
                .isEqualTo("{\"Nodes\":null,\"NodeNames\":[\"node1\"],\"FailedNodes\":{\"b\":\"x\",\"foo\":\"bar\"},"
                        + "\"FailedAndUnresolvableNodes\":null,\"Error\":\"myerror\"}");
        assertThat(out(new ExtenderFilterResult(null, List.of(), Map.of(), Map.of(), null)))
                .isEqualTo("{\"Nodes\":null,\"NodeNames\":[],\"FailedNodes\":{},\"FailedAndUnresolvableNodes\":{},"
                        + "\"Error\":\"\"}");
    }

    @Test
    void filterResultEchoesTheNodesItemsVerbatim() throws Exception {
        JsonNode node = JsonMapper.builder().build().readTree(GO_NODE);
        assertThat(out(new ExtenderFilterResult(new NodeList(null, List.of(node)), null,
                Map.of("foo", "bar"), null, "myerror")))
                .isEqualTo("{\"Nodes\":{\"metadata\":{},\"items\":[" + GO_NODE + "]},\"NodeNames\":null,"
                        + "\"FailedNodes\":{\"foo\":\"bar\"},\"FailedAndUnresolvableNodes\":null,\"Error\":\"myerror\"}");
    }

    @Test
    void hostPriorityListPreemptionAndBindingResults() {
        assertThat(out(List.of(new HostPriority("myhost", 1), new HostPriority("other", 10))))
                .isEqualTo("[{\"Host\":\"myhost\",\"Score\":1},{\"Host\":\"other\",\"Score\":10}]");
        assertThat(out(new ExtenderPreemptionResult(Map.of("foo", new MetaVictims(List.of(new MetaPod("myuid")), 1)))))
                .isEqualTo("{\"NodeNameToMetaVictims\":{\"foo\":{\"Pods\":[{\"UID\":\"myuid\"}],\"NumPDBViolations\":1}}}");
        assertThat(out(new ExtenderPreemptionResult(Map.of()))).isEqualTo("{\"NodeNameToMetaVictims\":{}}");
        assertThat(out(new ExtenderBindingResult("myerror"))).isEqualTo("{\"Error\":\"myerror\"}");
        assertThat(out(new ExtenderBindingResult(null))).isEqualTo("{\"Error\":\"\"}");
    }

    @Test
    void answersRoundTripThroughLowerCase() throws Exception {
        ExtenderFilterResult r = new ExtenderFilterResult(null, List.of("node1"), Map.of("foo", "bar"),
                Map.of("baz", "qux"), "myerror");
        assertThat(codec.read(lower(out(r)), ExtenderFilterResult.class)).isEqualTo(r);
        ExtenderPreemptionResult p = new ExtenderPreemptionResult(Map.of("foo",
                new MetaVictims(List.of(new MetaPod("myuid")), 1)));
        assertThat(codec.read(lower(out(p)), ExtenderPreemptionResult.class)).isEqualTo(p);
        HostPriority h = new HostPriority("myhost", 1);
        assertThat(codec.read(lower(out(h)), HostPriority.class)).isEqualTo(h);
    }
}
