package dev.muster.adapter.kube;

import dev.muster.core.dra.Device;
import dev.muster.core.dra.DraObjects;
import dev.muster.core.dra.ResourceSlice;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

/** Partitions that take the same counters from a set of the same name share one consumption list, by either decoder. */
class CounterConsumptionSharingTest {

    private static final String SLICE = """
            {"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":"%s"},
             "spec":{"driver":"gpu.example.com","nodeName":"%s","pool":{"name":"%s","generation":1,"resourceSliceCount":1},
              "sharedCounters":[{"name":"gpu-0","counters":{"compute":{"value":"7"},"memory":{"value":"80Gi"}}},
                                {"name":"gpu-1","counters":{"compute":{"value":"7"},"memory":{"value":"80Gi"}}}],
              "devices":[
               {"name":"gpu-0-mig-a","consumesCounters":[{"counterSet":"gpu-0","counters":{"compute":{"value":"1"},"memory":{"value":"10Gi"}}}]},
               {"name":"gpu-0-mig-b","consumesCounters":[{"counterSet":"gpu-0","counters":{"compute":{"value":"1"},"memory":{"value":"10Gi"}}}]},
               {"name":"gpu-0-mig-big","consumesCounters":[{"counterSet":"gpu-0","counters":{"compute":{"value":"3"},"memory":{"value":"40Gi"}}}]},
               {"name":"gpu-1-mig-a","consumesCounters":[{"counterSet":"gpu-1","counters":{"compute":{"value":"1"},"memory":{"value":"10Gi"}}}]},
               {"name":"both","consumesCounters":[{"counterSet":"gpu-0","counters":{"compute":{"value":"1"}}},
                                                   {"counterSet":"gpu-1","counters":{"compute":{"value":"2"}}}]},
               {"name":"whole"}]}}""";

    private static List<Device> devices(boolean bytePath) throws Exception {
        String body = "{\"snapshot\":{\"resourceSlices\":[" + SLICE.formatted("s1", "node-1", "node-1") + ","
                + SLICE.formatted("s2", "node-2", "node-2") + "]},\"podGroups\":[]}";
        KubeCodec codec = new KubeCodec(KubeCodec.Limits.DEFAULT);
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        RequestDocument doc = bytePath ? codec.readBytes(bytes) : codec.readJackson(bytes);
        DraObjects dra = KubeMapper.draObjects(doc.snapshot(), s -> {
            throw new AssertionError("no selectors here");
        });
        List<Device> all = new ArrayList<>();
        for (ResourceSlice s : dra.resourceSlices()) {
            all.addAll(s.devices());
        }
        return all;
    }

    @Test
    void equalConsumptionsAreOneListAndEveryAmountIsKept() throws Exception {
        for (boolean bytePath : new boolean[] {true, false}) {
            List<Device> d = devices(bytePath);
            assertEquals(12, d.size());
            Device a = d.get(0);
            Device b = d.get(1);
            Device big = d.get(2);
            Device other = d.get(3);
            assertEquals(List.of(new Device.CounterConsumption("gpu-0", Map.of("compute", "1", "memory", "10Gi"))),
                    a.consumesCounters());
            assertSame(a.consumesCounters(), b.consumesCounters(), "same set, same counters");
            assertSame(a.consumesCounters(), d.get(6).consumesCounters(), "the same partition in the next slice");
            assertNotSame(a.consumesCounters(), big.consumesCounters());
            assertEquals(Map.of("compute", "3", "memory", "40Gi"), big.consumesCounters().get(0).counters());
            assertNotSame(a.consumesCounters(), other.consumesCounters(), "same counters from another set");
            assertEquals("gpu-1", other.consumesCounters().get(0).counterSet());
            assertSame(a.consumesCounters().get(0).counters(), other.consumesCounters().get(0).counters());
            assertEquals(List.of(new Device.CounterConsumption("gpu-0", Map.of("compute", "1")),
                    new Device.CounterConsumption("gpu-1", Map.of("compute", "2"))), d.get(4).consumesCounters());
            assertEquals(List.of(), d.get(5).consumesCounters());
        }
    }
}
