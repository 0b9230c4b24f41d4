package dev.muster.adapter.cel;

import dev.muster.core.dra.DeviceAttribute;
import dev.muster.core.dra.DeviceSelector;
import dev.muster.core.dra.SelectorDevice;
import dev.muster.core.dra.SelectorException;
import dev.muster.core.dra.SelectorReads;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A selector says which attributes and capacities it reads, so that its verdicts can be kept per projection of a
 * device instead of per device. The reads must be complete: devices that agree on what a selector reads (and on the
 * driver) must get the same verdict, whatever else they publish.
 */
class DeviceReadsTest {
    private static final CelSelectors CEL = new CelSelectors();
    private static final String D = "gpu.example.com";

    static Stream<Arguments> known() {
        return Stream.of(
                Arguments.of("device.driver == 'gpu.example.com'", List.of(), List.of()),
                Arguments.of("device.attributes['gpu.example.com'].model == 'H100'", List.of(D + "/model"), List.of()),
                Arguments.of("device.capacity['gpu.example.com'].memory.compareTo(quantity('40Gi')) >= 0", List.of(),
                        List.of(D + "/memory")),
                Arguments.of("has(device.attributes['gpu.example.com'].numa) && "
                        + "device.attributes['gpu.example.com']['index'] > 1", List.of(D + "/numa", D + "/index"),
                        List.of()),
                Arguments.of("device.attributes['gpu.example.com'].driverVersion.isGreaterThan(semver('550.0.0'))",
                        List.of(D + "/driverVersion"), List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("known")
    @DisplayName("constant-named attributes and capacities are the reads")
    void readsOfConstantNames(String expression, List<String> attributes, List<String> capacities) {
        SelectorReads reads = CEL.compile(expression).reads();
        assertThat(reads).isNotNull();
        assertThat(reads.attributes()).extracting(n -> n.domain() + "/" + n.id()).containsExactlyElementsOf(attributes);
        assertThat(reads.capacities()).extracting(n -> n.domain() + "/" + n.id()).containsExactlyElementsOf(capacities);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("unknown")
    @DisplayName("a map read as a whole or by a computed key makes the reads unknown")
    void unknownReads(String expression) {
        assertThat(CEL.compile(expression).reads()).isNull();
    }

    static Stream<String> unknown() {
        return Stream.of(
                "device.attributes['gpu.example.com'].exists(k, k == 'model')",
                "'model' in device.attributes['gpu.example.com']",
                "device.attributes.size() > 0",
                "device.attributes[device.driver].model == 'H100'",
                "[device].exists(d, d.driver == 'x')",
                "device.capacity['gpu.example.com'].size() == 1");
    }

    @Test
    @DisplayName("devices that agree on what a selector reads get the same verdict, over random devices")
    void projectionDecidesTheVerdict() {
        List<String> expressions = new ArrayList<>();
        known().forEach(a -> expressions.add((String) a.get()[0]));
        expressions.add("device.attributes['gpu.example.com'].model.startsWith('H') || "
                + "device.attributes['other.example.com'].uuid == 'u-1'");
        expressions.add("device.attributes['gpu.example.com'].index % 2 == 0 && device.allowMultipleAllocations");
        Random rnd = new Random(7);
        for (String expression : expressions) {
            DeviceSelector selector = CEL.compile(expression);
            SelectorReads reads = selector.reads();
            assertThat(reads).as(expression).isNotNull();
            Map<List<Object>, String> verdicts = new HashMap<>();
            for (int i = 0; i < 400; i++) {
                SelectorDevice device = randomDevice(rnd);
                String verdict = verdict(selector, device);
                String before = verdicts.putIfAbsent(projection(reads, device), verdict);
                assertThat(before == null ? verdict : before).as("%s on %s", expression, device).isEqualTo(verdict);
            }
            assertThat(verdicts.size()).as("%s: the devices differ in what it reads", expression).isGreaterThan(1);
        }
    }

    private static String verdict(DeviceSelector selector, SelectorDevice device) {
        try {
            return String.valueOf(selector.matches(device));
        } catch (SelectorException e) {
            return "error: " + e.getMessage();
        }
    }

    private static List<Object> projection(SelectorReads reads, SelectorDevice device) {
        List<Object> p = new ArrayList<>();
        p.add(device.driver());
        p.add(device.allowMultipleAllocations());
        for (SelectorReads.Name n : reads.attributes()) {
            p.add(device.attributes().getOrDefault(n.domain(), Map.of()).get(n.id()));
        }
        for (SelectorReads.Name n : reads.capacities()) {
            p.add(device.capacity().getOrDefault(n.domain(), Map.of()).get(n.id()));
        }
        return p;
    }

    /** A GPU with a few values each attribute may take, some left out, and a unique uuid nobody should read. */
    private static SelectorDevice randomDevice(Random rnd) {
        Map<String, DeviceAttribute> gpu = new HashMap<>();
        if (rnd.nextInt(5) > 0) {
            gpu.put("model", new DeviceAttribute.StringValue(rnd.nextBoolean() ? "H100" : "A100"));
        }
        if (rnd.nextInt(5) > 0) {
            gpu.put("index", new DeviceAttribute.IntValue(rnd.nextInt(4)));
        }
        if (rnd.nextInt(5) > 0) {
            gpu.put("numa", new DeviceAttribute.IntValue(rnd.nextInt(2)));
        }
        gpu.put("driverVersion", new DeviceAttribute.VersionValue(rnd.nextBoolean() ? "550.54.15" : "535.104.5"));
        gpu.put("uuid", new DeviceAttribute.StringValue("GPU-" + rnd.nextLong()));
        Map<String, DeviceAttribute> other = Map.of("uuid", new DeviceAttribute.StringValue("u-" + rnd.nextInt(3)));
        Map<String, Map<String, BigDecimal>> capacity = new HashMap<>();
        if (rnd.nextInt(4) > 0) {
            capacity.put(D, Map.of("memory", BigDecimal.valueOf((rnd.nextBoolean() ? 80L : 24L) << 30)));
        }
        return new SelectorDevice(rnd.nextInt(6) == 0 ? "other.example.com" : D,
                Map.of(D, gpu, "other.example.com", other), capacity, rnd.nextBoolean());
    }
}
