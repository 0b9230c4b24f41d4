package dev.muster.adapter.cel;

import dev.muster.core.dra.DeviceAttribute;
import dev.muster.core.dra.DeviceSelector;
import dev.muster.core.dra.SelectorDevice;
import dev.muster.core.dra.SelectorException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CelSelectorsTest {
    static final String DRIVER = "gpu.example.com";
    static final BigDecimal GI80 = BigDecimal.valueOf(80L << 30);
    static final List<SelectorDevice> GPUS = IntStream.range(0, 8).mapToObj(CelSelectorsTest::gpu).toList();

    /** gpu-i of the example slice: index i, numa 0 for i < 4 else 1, pcieRoot pci0000:00/20/40/60 by pairs. */
    static SelectorDevice gpu(int i) {
        return new SelectorDevice(DRIVER,
                Map.of(DRIVER, Map.of(
                                "index", new DeviceAttribute.IntValue(i),
                                "model", new DeviceAttribute.StringValue("H100-SXM5-80GB"),
                                "numa", new DeviceAttribute.IntValue(i < 4 ? 0 : 1),
                                "driverVersion", new DeviceAttribute.VersionValue("550.54.15")),
                        "resource.kubernetes.io", Map.of(
                                "pcieRoot", new DeviceAttribute.StringValue("pci0000:" + List.of("00", "20", "40", "60").get(i / 2)))),
                Map.of(DRIVER, Map.of("memory", GI80)),
                false);
    }

    private final CelSelectors selectors = new CelSelectors();

    /** Expression → which of gpu-0..gpu-7 it selects, as a bit string ("11111111" = all). */
    static Stream<Arguments> selecting() {
        return Stream.of(
                Arguments.of("device.driver == 'gpu.example.com'", "11111111"),
                Arguments.of("device.driver == 'nic.example.com'", "00000000"),
                Arguments.of("device.attributes['gpu.example.com'].model == 'H100-SXM5-80GB'", "11111111"),
                Arguments.of("device.attributes['gpu.example.com'].index < 3", "11100000"),
                Arguments.of("device.attributes['gpu.example.com'].numa == 1", "00001111"),
                Arguments.of("device.attributes['gpu.example.com'].numa > 0.5", "00001111"),
                Arguments.of("device.attributes['resource.kubernetes.io'].pcieRoot == 'pci0000:40'", "00001100"),
                Arguments.of("device.capacity['gpu.example.com'].memory.compareTo(quantity('40Gi')) >= 0", "11111111"),
                Arguments.of("device.capacity['gpu.example.com'].memory.isGreaterThan(quantity('80Gi'))", "00000000"),
                Arguments.of("device.capacity['gpu.example.com'].memory == quantity('80Gi')", "11111111"),
                Arguments.of("device.capacity['gpu.example.com'].memory.sub(quantity('16Gi')).asInteger() == 64 * 1024 * 1024 * 1024", "11111111"),
                Arguments.of("sign(device.capacity['gpu.example.com'].memory) == 1 && isQuantity('1.5Mi') && !isQuantity('1.5X')", "11111111"),
                Arguments.of("quantity('1.5').isInteger() || quantity('500m').add(quantity('1500m')).asApproximateFloat() != 2.0", "00000000"),
                Arguments.of("device.attributes['gpu.example.com'].driverVersion.isGreaterThan(semver('535.0.0'))", "11111111"),
                Arguments.of("device.attributes['gpu.example.com'].driverVersion.isLessThan(semver('550.54.16'))"
                        + " && device.attributes['gpu.example.com'].driverVersion.major() == 550", "11111111"),
                Arguments.of("semver('v1.2', true).compareTo(semver('1.2.0')) == 0 && isSemver('1.0.0-rc.1') && !isSemver('01.0.0')"
                        + " && semver('1.0.0-alpha').isLessThan(semver('1.0.0-alpha.1'))", "11111111"),
                Arguments.of("cel.bind(g, device.attributes['gpu.example.com'], g.model.startsWith('H100') && g.index % 2 == 0)", "10101010"),
                Arguments.of("has(device.attributes['gpu.example.com'].mig)", "00000000"),
                Arguments.of("has(device.attributes['gpu.example.com'].model)", "11111111"),
                Arguments.of("has(device.attributes['other.example.com'].foo)", "00000000"),
                Arguments.of("device.attributes['other.example.com'].size() == 0", "11111111"),
                Arguments.of("device.attributes.exists(d, d == 'other.example.com')", "00000000"),
                Arguments.of("device.attributes['gpu.example.com'].?mig.orValue(false)", "00000000"),
                Arguments.of("[0, 3, 5].indexOf(device.attributes['gpu.example.com'].index) >= 0", "10010100"),
                Arguments.of("[1, 2, 3].isSorted() && [1, 2, 3].sum() == 6 && [4, 2, 9].min() == 2 && [4, 2, 9].max() == 9"
                        + " && [1, 2, 1].lastIndexOf(1) == 2", "11111111"),
                Arguments.of("device.attributes['resource.kubernetes.io'].pcieRoot.find('[0-9]+$') == '00'", "11000000"),
                Arguments.of("'a1b22c333'.findAll('[0-9]+') == ['1', '22', '333'] && 'a1b22c333'.findAll('[0-9]+', 2).size() == 2", "11111111"),
                Arguments.of("device.attributes['gpu.example.com'].model.lowerAscii().split('-')[0] == 'h100'", "11111111"),
                Arguments.of("sets.contains([0, 1, 2, 3], [device.attributes['gpu.example.com'].index])", "11110000"),
                Arguments.of("{'a': 1, 'b': 2}.all(k, v, v > 0) && [3, 1, 2].sort() == [1, 2, 3]", "11111111"),
                Arguments.of("lists.range(4).exists(i, i == device.attributes['gpu.example.com'].index)", "11110000"),
                Arguments.of("'a-b-c'.replace('-', '') == 'abc' && 'ab'.replace('', 'x') == 'xaxbx'", "11111111"),
                Arguments.of("!device.allowMultipleAllocations", "11111111"),
                Arguments.of("dyn(device.attributes['gpu.example.com'].index) == 7", "00000001"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("selecting")
    void selects(String expression, String expected) {
        DeviceSelector selector = selectors.compile(expression);
        StringBuilder got = new StringBuilder();
        for (SelectorDevice d : GPUS) {
            got.append(selector.matches(d) ? '1' : '0');
        }
        assertThat(got.toString()).isEqualTo(expected);
        assertThat(selector.expression()).isEqualTo(expression);
    }

    @Test
    @DisplayName("a name without a domain is filed under the driver's (the caller files it; the selector reads it there)")
    void unprefixedUnderDriver() {
        SelectorDevice d = new SelectorDevice("nic.example.com",
                Map.of("nic.example.com", Map.of("rdma", new DeviceAttribute.BoolValue(true))), Map.of(), true);
        assertThat(selectors.compile("device.attributes['nic.example.com'].rdma && device.allowMultipleAllocations").matches(d)).isTrue();
    }

    /** Expression → a part of the run-time error. */
    static Stream<Arguments> failingAtRunTime() {
        return Stream.of(
                Arguments.of("device.attributes['gpu.example.com'].mig", "key 'mig' is not present in map"),
                Arguments.of("device.attributes['gpu.example.com'].mig == true", "key 'mig' is not present in map"),
                Arguments.of("device.attributes['other.example.com'].foo == 'x'", "key 'foo' is not present in map"),
                Arguments.of("dyn(device.attributes['gpu.example.com'].index)", "CEL result of type int could not be converted to bool"),
                Arguments.of("dyn('x')", "CEL result of type string could not be converted to bool"),
                Arguments.of("quantity('12X') == quantity('1')", "quantities must match the regular expression"),
                Arguments.of("semver('1.0') == semver('1.0.0')", "No Major.Minor.Patch elements found"),
                Arguments.of("semver('1.0-rc', true) == semver('1.0.0')", "short version cannot contain PreRelease/Build meta data"),
                Arguments.of("semver('1.0.0-') == semver('1.0.0')", "Prerelease is empty"),
                Arguments.of("quantity('1.5').asInteger() == 1", "cannot convert value to integer"),
                Arguments.of("[1].filter(x, x > 1).min() == 0", "min called on empty list"),
                Arguments.of("'abc'.find('(') == ''", "error parsing regexp: missing closing ): `(`"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("failingAtRunTime")
    void runTimeErrors(String expression, String message) {
        DeviceSelector selector = selectors.compile(expression);
        assertThatThrownBy(() -> selector.matches(GPUS.get(0)))
                .isInstanceOf(SelectorException.class)
                .hasMessageContaining(message);
    }

    @Test
    @DisplayName("an invalid version attribute fails every expression on that device, as upstream converts all attributes first")
    void invalidVersionAttribute() {
        SelectorDevice d = new SelectorDevice(DRIVER, Map.of(DRIVER, Map.of("v", new DeviceAttribute.VersionValue("1.0"))), Map.of(), false);
        assertThatThrownBy(() -> selectors.compile("true").matches(d))
                .isInstanceOf(SelectorException.class)
                .hasMessage("attribute gpu.example.com/v: parse semantic version: No Major.Minor.Patch elements found");
    }

    /** Expression → a part of the compile error. */
    static Stream<Arguments> notCompiling() {
        return Stream.of(
                Arguments.of("device.driver ==", "compilation failed: ERROR: <input>:1:17: Syntax error: mismatched input '<EOF>'"),
                Arguments.of("device.driver = 'x'", "compilation failed: ERROR: <input>:1:15: Syntax error:"),
                Arguments.of("gpu.index == 1", "compilation failed: ERROR: <input>:1:1: undeclared reference to 'gpu'"),
                Arguments.of("device.foo == 1", "compilation failed: ERROR: <input>:1:7: undefined field 'foo'"),
                Arguments.of("device.driver.nosuch()", "compilation failed: ERROR: <input>:1:21: undeclared reference to 'nosuch'"),
                Arguments.of("device.driver", "must evaluate to bool or the unknown type, not string"),
                Arguments.of("1 + 1", "must evaluate to bool or the unknown type, not int"),
                Arguments.of("device.capacity['gpu.example.com'].memory", "must evaluate to bool or the unknown type, not kubernetes.Quantity"),
                Arguments.of("device.capacity['gpu.example.com'].memory.sign() == 1", "compilation failed: ERROR: <input>:1:"),
                Arguments.of("quantity('1') == 1", "compilation failed: ERROR: <input>:1:15: found no matching overload for '_==_'"),
                Arguments.of("[1, 'a'].size() == 2", "compilation failed: ERROR:"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("notCompiling")
    void compileErrors(String expression, String message) {
        assertThatThrownBy(() -> selectors.compile(expression))
                .isInstanceOf(CelCompileException.class)
                .hasMessageContaining(message)
                .satisfies(e -> assertThat(((CelCompileException) e).expression()).isEqualTo(expression));
    }

    @Test
    void lengthLimit() {
        String base = "device.driver == 'gpu.example.com'";
        String ok = base + " ".repeat(CelSelectors.MAX_EXPRESSION_BYTES - base.length());
        assertThat(ok).hasSize(10_240);
        assertThat(selectors.compile(ok).matches(GPUS.get(0))).isTrue();
        String tooLong = ok + " ";
        assertThat(tooLong).hasSize(10_241);
        assertThatThrownBy(() -> selectors.compile(tooLong))
                .isInstanceOf(CelCompileException.class)
                .hasMessage("Too long: may not be more than 10240 bytes");
    }

    @Test
    @DisplayName("a comprehension-heavy expression is stopped by the cost limit")
    void costLimit() {
        String heavy = "lists.range(1000).all(x, lists.range(1000).all(y, x + y >= 0))";
        DeviceSelector selector = selectors.compile(heavy);
        assertThatThrownBy(() -> selector.matches(GPUS.get(0)))
                .isInstanceOf(SelectorException.class)
                .hasMessage("operation cancelled: actual cost limit exceeded");
        // the same shape, small, passes: the limit is per evaluation, not cumulative
        DeviceSelector small = selectors.compile("lists.range(30).all(x, lists.range(30).all(y, x + y >= 0))");
        for (int i = 0; i < 5; i++) {
            assertThat(small.matches(GPUS.get(0))).isTrue();
        }
    }

    @Test
    @DisplayName("with the cost limit out of the way, the comprehension iteration limit stops the same expression")
    void iterationLimit() {
        CelSelectors unbounded = new CelSelectors(8, Long.MAX_VALUE);
        assertThatThrownBy(() -> unbounded.compile("lists.range(1000).all(x, lists.range(1000).all(y, x + y >= 0))").matches(GPUS.get(0)))
                .isInstanceOf(SelectorException.class)
                .hasMessageContaining("Iteration budget exceeded: " + CelSelectors.COMPREHENSION_MAX_ITERATIONS);
    }

    @Test
    @DisplayName("values that would grow past the limit in one call are refused before they are built")
    void largeValues() {
        assertThatThrownBy(() -> selectors.compile("lists.range(2000000000).size() > 0").matches(GPUS.get(0)))
                .hasMessage("operation cancelled: actual cost limit exceeded");
        // 100 characters, squared twice: 10^4, then 10^8 characters, refused before the second is built
        String squaring = "cel.bind(a, '" + "x".repeat(100) + "', cel.bind(b, a.replace('', a), b.replace('', b).size() > 0))";
        assertThatThrownBy(() -> selectors.compile(squaring).matches(GPUS.get(0)))
                .hasMessage("operation cancelled: actual cost limit exceeded");
        CelSelectors tight = new CelSelectors(8, 100);
        assertThatThrownBy(() -> tight.compile("[1,2,3,4,5,6,7,8,9,10].map(x, [1,2,3,4,5,6,7,8,9,10].map(y, x * y)).size() == 10").matches(GPUS.get(0)))
                .hasMessage("operation cancelled: actual cost limit exceeded");
    }

    @Test
    @DisplayName("the same expression is compiled once, also when it failed; the cache is bounded")
    void cache() {
        CelSelectors small = new CelSelectors(2);
        DeviceSelector a = small.compile("device.driver == 'a'");
        for (int i = 0; i < 100; i++) {
            assertThat(small.compile("device.driver == 'a'")).isSameAs(a);
        }
        assertThat(small.compilations()).isEqualTo(1);
        for (int i = 0; i < 3; i++) {
            assertThatThrownBy(() -> small.compile("device.driver ==")).isInstanceOf(CelCompileException.class);
        }
        assertThat(small.compilations()).isEqualTo(2);
        small.compile("device.driver == 'b'"); // evicts the least recently used: 'a'
        assertThat(small.compilations()).isEqualTo(3);
        assertThat(small.cachedExpressions()).isEqualTo(2);
        assertThatThrownBy(() -> small.compile("device.driver ==")).isInstanceOf(CelCompileException.class);
        assertThat(small.compilations()).isEqualTo(3);
        small.compile("device.driver == 'a'");
        assertThat(small.compilations()).isEqualTo(4);
    }

    @Test
    @DisplayName("many threads: one compilation per expression and the same answers as one thread")
    void concurrent() throws Exception {
        List<String> expressions = selecting().map(a -> (String) a.get()[0]).toList();
        Map<String, List<Boolean>> expected = new java.util.HashMap<>();
        CelSelectors reference = new CelSelectors();
        for (String e : expressions) {
            expected.put(e, GPUS.stream().map(reference.compile(e)::matches).toList());
        }
        CelSelectors shared = new CelSelectors();
        int threads = 6;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int offset = t;
                Callable<Integer> work = () -> {
                    start.await();
                    int checked = 0;
                    for (int round = 0; round < 4; round++) {
                        for (int k = 0; k < expressions.size(); k++) {
                            String e = expressions.get((k + offset * 7) % expressions.size());
                            DeviceSelector s = shared.compile(e);
                            for (int g = 0; g < GPUS.size(); g++) {
                                assertThat(s.matches(GPUS.get(g))).as(e + " on gpu-" + g).isEqualTo(expected.get(e).get(g));
                                checked++;
                            }
                        }
                    }
                    return checked;
                };
                results.add(pool.submit(work));
            }
            start.countDown();
            int total = 0;
            for (Future<Integer> f : results) {
                total += f.get();
            }
            assertThat(total).isEqualTo(threads * 4 * expressions.size() * GPUS.size());
        } finally {
            pool.shutdownNow();
        }
        assertThat(shared.compilations()).isEqualTo(expressions.size());
    }
}
