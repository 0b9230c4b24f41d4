package dev.muster.adapter.kube;

import dev.muster.core.dra.DeviceAttribute;
import dev.muster.core.dra.FrozenMap;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

class SharedAttributesTest {

    private static KubeDra.Attribute string(String s) {
        return new KubeDra.Attribute(null, null, s, null);
    }

    private static Map<String, KubeDra.Attribute> gpu(String model, long memory, String uuid) {
        Map<String, KubeDra.Attribute> m = new LinkedHashMap<>();
        m.put("model", string(new String(model))); // a new String each time, as the Jackson path decodes
        m.put("memory", new KubeDra.Attribute(memory, null, null, null));
        m.put("driverVersion", new KubeDra.Attribute(null, null, null, "1.2.3"));
        m.put("healthy", new KubeDra.Attribute(null, true, null, null));
        if (uuid != null) {
            m.put("uuid", string(uuid));
        }
        return m;
    }

    @Test
    void everyEntryCompilesAsTheMapperDoesInTheMapsOrder() {
        SharedAttributes shared = new SharedAttributes(4096);
        Map<String, KubeDra.Attribute> in = gpu("H100", 80, "GPU-1");
        FrozenMap<String, DeviceAttribute> out = shared.of(in);
        assertEquals(in.keySet().stream().toList(), out.keySet().stream().toList());
        in.forEach((k, v) -> assertEquals(DraMapper.attribute(v), out.get(k), k));
        assertEquals(new DeviceAttribute.BoolValue(true), out.get("healthy"));
        assertEquals(new DeviceAttribute.VersionValue("1.2.3"), out.get("driverVersion"));
    }

    @Test
    void equalMapsAreOneMapAndEqualValuesOneObject() {
        SharedAttributes shared = new SharedAttributes(4096);
        FrozenMap<String, DeviceAttribute> a = shared.of(gpu("H100", 80, null));
        FrozenMap<String, DeviceAttribute> b = shared.of(gpu("H100", 80, null));
        assertSame(a, b); // the first map had new values; the second is found by content and kept
        assertSame(b, shared.of(gpu("H100", 80, null)));
        FrozenMap<String, DeviceAttribute> c = shared.of(gpu("A100", 80, null));
        assertNotSame(a, c);
        assertSame(a.get("memory"), c.get("memory"));
        assertSame(a.get("driverVersion"), c.get("driverVersion"));
    }

    @Test
    void mapsWithAValueOfTheirOwnAreTheirOwnButShareTheRest() {
        SharedAttributes shared = new SharedAttributes(4096);
        FrozenMap<String, DeviceAttribute> a = shared.of(gpu("H100", 80, "GPU-a"));
        FrozenMap<String, DeviceAttribute> b = shared.of(gpu("H100", 80, "GPU-b"));
        assertNotSame(a, b);
        assertEquals(new DeviceAttribute.StringValue("GPU-b"), b.get("uuid"));
        assertSame(a.get("model"), b.get("model"));
    }

    @Test
    void anAttributeWhoseValuesNeverRepeatIsNoLongerLookedUpButStillCompiled() {
        SharedAttributes shared = new SharedAttributes(4096);
        for (int i = 0; i < SharedAttributes.UNIQUE_AFTER; i++) {
            shared.of(gpu("H100", 80, "GPU-" + i));
        }
        // uuid "GPU-0" was remembered while the attribute was looked up; now it is compiled anew
        FrozenMap<String, DeviceAttribute> again = shared.of(gpu("H100", 80, "GPU-0"));
        FrozenMap<String, DeviceAttribute> first = new SharedAttributes(4096).of(gpu("H100", 80, "GPU-0"));
        assertEquals(first, again);
        assertEquals(new DeviceAttribute.StringValue("GPU-0"), again.get("uuid"));
    }

    @Test
    void theTablesAreBoundedNotTheAnswers() {
        SharedAttributes shared = new SharedAttributes(2);
        for (int i = 0; i < 50; i++) {
            Map<String, KubeDra.Attribute> in = gpu("model-" + i, i, null);
            FrozenMap<String, DeviceAttribute> out = shared.of(in);
            in.forEach((k, v) -> assertEquals(DraMapper.attribute(v), out.get(k), k));
        }
    }

    @Test
    void oneDecodedValueObjectCompilesToOneValueEvenPastTheTablesBound() {
        SharedAttributes shared = new SharedAttributes(1); // each value table keeps one entry
        shared.of(gpu("filler", 1, null)); // fills them: "H100" is never remembered by content
        KubeDra.Attribute model = string("H100"); // the byte path hands out one object for bytes that repeat
        Map<String, KubeDra.Attribute> first = gpu("x", 80, null);
        first.put("model", model);
        Map<String, KubeDra.Attribute> second = gpu("x", 80, null);
        second.put("model", model);
        DeviceAttribute a = shared.of(first).get("model");
        assertSame(a, shared.of(second).get("model"));
        assertEquals(new DeviceAttribute.StringValue("H100"), a);
        // an equal value decoded as another object is still compiled to an equal value
        assertEquals(a, shared.of(gpu("H100", 80, null)).get("model"));
    }

    @Test
    void keysInAnotherOrderOrUnderOtherNamesAreStillTheirOwn() {
        SharedAttributes shared = new SharedAttributes(4096);
        Map<String, KubeDra.Attribute> in = gpu("H100", 80, "GPU-1");
        shared.of(in);
        Map<String, KubeDra.Attribute> reversed = new LinkedHashMap<>();
        java.util.List<String> keys = new java.util.ArrayList<>(in.keySet());
        java.util.Collections.reverse(keys);
        for (String k : keys) {
            reversed.put(k, in.get(k));
        }
        reversed.put("extra", string("y"));
        FrozenMap<String, DeviceAttribute> out = shared.of(reversed);
        reversed.forEach((k, v) -> assertEquals(DraMapper.attribute(v), out.get(k), k));
        assertEquals(reversed.size(), out.size());
        // the same value object under a different name is compiled for that name
        Map<String, KubeDra.Attribute> swapped = new LinkedHashMap<>();
        KubeDra.Attribute one = new KubeDra.Attribute(1L, null, null, null);
        swapped.put("a", one);
        swapped.put("b", string("z"));
        FrozenMap<String, DeviceAttribute> s1 = shared.of(swapped);
        Map<String, KubeDra.Attribute> other = new LinkedHashMap<>();
        other.put("b", one);
        other.put("a", string("z"));
        FrozenMap<String, DeviceAttribute> s2 = shared.of(other);
        assertEquals(new DeviceAttribute.IntValue(1L), s1.get("a"));
        assertEquals(new DeviceAttribute.IntValue(1L), s2.get("b"));
        assertEquals(new DeviceAttribute.StringValue("z"), s2.get("a"));
    }
}
