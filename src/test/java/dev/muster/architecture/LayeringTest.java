package dev.muster.architecture;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.PackageMatcher;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The layering of docs/architecture.md as an allow-list: every package of the main code belongs to a {@link Layer}
 * that lists what it may depend on; anything else is a violation, and so is a package no layer covers (a new package
 * needs a rule here before the build is green). Checked on the compiled classes (ArchUnit) and on the source imports,
 * which also see compile-time constants that javac inlines into the bytecode.
 *
 * <p>A class may always use its own package (for a plugin: its own plugin package), and {@code java.*}. The core
 * uses nothing else; adapters, generated stubs and wiring may use third-party libraries freely: the list only
 * restricts {@code dev.muster.*}. Dependencies that break a rule today are listed in {@link #EXCEPTIONS}, each with
 * its reason; a test fails when one of them is no longer needed, so the list only shrinks.
 */
class LayeringTest {
    private static final String MODEL = "dev.muster.core.model..";
    private static final String DRA = "dev.muster.core.dra..";
    private static final String SNAPSHOT = "dev.muster.core.snapshot..";
    private static final String FRAMEWORK = "dev.muster.core.framework..";
    private static final String CYCLE = "dev.muster.core.cycle..";
    private static final String DECISION = "dev.muster.core.decision..";
    /** The registry's own package only: {@code InTreePlugins}, not the plugin packages below it. */
    private static final String PLUGIN_REGISTRY = "dev.muster.core.plugins";
    private static final String PLUGIN_SUPPORT = "dev.muster.core.plugins.support..";
    private static final String CHOICE = "dev.muster.core.choice..";
    private static final String[] CORE_DOOR = {DECISION, CHOICE, MODEL, SNAPSHOT, DRA};
    private static final String KUBE = "dev.muster.adapter.kube..";
    private static final String VALIDATION = "dev.muster.adapter.validation..";
    private static final String CEL = "dev.muster.adapter.cel..";
    private static final String METRICS = "dev.muster.adapter.metrics..";
    private static final String CLUSTER_VIEW = "dev.muster.adapter.clusterview..";
    private static final String GRPC_STUBS = "dev.muster.grpc.v1..";
    private static final String CHOOSING = "dev.muster.adapter.choice..";
    private static final String COMPILING = "dev.muster.adapter.compile..";

    /**
     * One package (or family of packages) and what it may depend on. {@code perSubpackage}: each package directly
     * below {@code packages} is its own unit (the plugins: one may not use another). {@code core}: only
     * {@code java.*} outside {@code dev.muster}.
     */
    record Layer(String name, String packages, boolean perSubpackage, boolean core, String... allowed) {
    }

    /** The first layer whose {@code packages} matches a class's package is its layer: specific ones come first. */
    static final List<Layer> LAYERS = List.of(
            // The core: pure Java, inner layers first.
            new Layer("model", MODEL, false, true),
            new Layer("dra (device-allocation library)", DRA, false, true, MODEL),
            new Layer("framework", FRAMEWORK, false, true, MODEL, DRA),
            new Layer("snapshot", SNAPSHOT, false, true, MODEL, DRA, FRAMEWORK),
            new Layer("plugin support", PLUGIN_SUPPORT, false, true, FRAMEWORK, MODEL, DRA),
            new Layer("plugin registry", PLUGIN_REGISTRY, false, true,
                    "dev.muster.core.plugins..", FRAMEWORK, MODEL, DRA),
            // Plugins share code through plugins.support or through the algorithm libraries they adapt.
            new Layer("plugins (each on its own)", "dev.muster.core.plugins..", true, true,
                    FRAMEWORK, MODEL, PLUGIN_SUPPORT, DRA),
            new Layer("cycle", CYCLE, false, true, FRAMEWORK, MODEL, SNAPSHOT, DRA),
            new Layer("decision", DECISION, false, true, CYCLE, FRAMEWORK, MODEL, SNAPSHOT, DRA, PLUGIN_REGISTRY),
            new Layer("choice (decisions across clusters)", CHOICE, false, true, DECISION, FRAMEWORK, MODEL, SNAPSHOT, DRA),
            // Adapters: the core only through its door, each other only through the shared libraries.
            new Layer("adapter kube (shared decoding)", KUBE, false, false, CORE_DOOR),
            new Layer("adapter validation (shared)", VALIDATION, false, false, with(CORE_DOOR, KUBE, CEL)),
            new Layer("adapter cel (shared)", CEL, false, false, with(CORE_DOOR, KUBE)),
            new Layer("adapter metrics (shared port)", METRICS, false, false, CORE_DOOR),
            new Layer("adapter rest", "dev.muster.adapter.rest..", false, false,
                    with(CORE_DOOR, KUBE, VALIDATION, CEL, METRICS, CHOOSING, COMPILING)),
            new Layer("adapter grpc", "dev.muster.adapter.grpc..", false, false,
                    with(CORE_DOOR, KUBE, VALIDATION, CEL, METRICS, GRPC_STUBS, CHOOSING, COMPILING)),
            new Layer("adapter compile (shared by REST and gRPC)", COMPILING, false, false,
                    with(CORE_DOOR, KUBE, VALIDATION, CEL)),
            new Layer("adapter choice (shared by REST and gRPC)", CHOOSING, false, false,
                    with(CORE_DOOR, KUBE, VALIDATION, CEL, CLUSTER_VIEW)),
            new Layer("adapter clusterview", CLUSTER_VIEW, false, false, with(CORE_DOOR, KUBE, VALIDATION, CEL)),
            new Layer("adapter extender", "dev.muster.adapter.extender..", false, false,
                    with(CORE_DOOR, KUBE, VALIDATION, CEL, METRICS, CLUSTER_VIEW)),
            // Classes generated from proto/: protobuf and gRPC only.
            new Layer("generated gRPC stubs", GRPC_STUBS, false, false),
            // The composition root builds everything.
            new Layer("wiring", "dev.muster.wiring..", false, false, "dev.muster.."));

    /** A dependency allowed against its origin's layer, and why. */
    record NamedException(String origin, String target, String reason) {
    }

    static final List<NamedException> EXCEPTIONS = List.of();

    private static JavaClasses main;

    @BeforeAll
    static void importClasses() {
        // The compiled main classes only: scanning the whole classpath for the package costs seconds.
        main = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPath(Path.of("target", "classes"));
        // Guard against a vacuous pass: the rules below only mean something when the main classes were found.
        assertThat(main.size()).as("main classes imported").isGreaterThan(100);
    }

    static String[] with(String[] base, String... more) {
        return Stream.concat(Stream.of(base), Stream.of(more)).toArray(String[]::new);
    }

    static Optional<Layer> layerOf(String pkg) {
        return LAYERS.stream().filter(l -> matches(l.packages(), pkg)).findFirst();
    }

    /** Null when allowed (by its layer or by a named exception), else why not. */
    static String violation(String originPkg, String targetPkg) {
        String why = ruleViolation(originPkg, targetPkg);
        return why == null || exceptionFor(originPkg, targetPkg).isPresent() ? null : why;
    }

    /** Null when the origin's layer allows the dependency, else why not; exceptions not considered. */
    static String ruleViolation(String originPkg, String targetPkg) {
        Layer layer = layerOf(originPkg).orElse(null);
        if (layer == null) {
            return "package " + originPkg + " is in no layer";
        }
        String own = own(layer, originPkg);
        if (targetPkg.isEmpty() || targetPkg.equals("java") || targetPkg.startsWith("java.")
                || targetPkg.equals(own) || targetPkg.startsWith(own + ".")) {
            return null;
        }
        if (!targetPkg.startsWith("dev.muster.") && !layer.core()) {
            return null;
        }
        for (String allowed : layer.allowed()) {
            if (matches(allowed, targetPkg)) {
                return null;
            }
        }
        return "layer '" + layer.name() + "' may not depend on " + targetPkg;
    }

    static Optional<NamedException> exceptionFor(String originPkg, String targetPkg) {
        return EXCEPTIONS.stream()
                .filter(e -> matches(e.origin(), originPkg) && matches(e.target(), targetPkg))
                .findFirst();
    }

    private static final Map<String, PackageMatcher> MATCHERS = new ConcurrentHashMap<>();

    private static boolean matches(String pattern, String pkg) {
        return MATCHERS.computeIfAbsent(pattern, PackageMatcher::of).matches(pkg);
    }

    /** The package prefix that counts as the origin's own. */
    private static String own(Layer layer, String originPkg) {
        if (!layer.perSubpackage()) {
            String root = layer.packages().replace("..", "");
            return originPkg.equals(root) || originPkg.startsWith(root + ".") ? root : originPkg;
        }
        String root = layer.packages().replace("..", "") + ".";
        int end = originPkg.indexOf('.', root.length());
        return end < 0 ? originPkg : originPkg.substring(0, end);
    }

    @Test
    @DisplayName("every main package belongs to a layer")
    void everyPackageCovered() {
        classes().should(new ArchCondition<JavaClass>("reside in a package some layer covers") {
            @Override
            public void check(JavaClass c, ConditionEvents events) {
                if (layerOf(c.getPackageName()).isEmpty()) {
                    events.add(SimpleConditionEvent.violated(c, c.getName() + " is in no layer: add a rule to "
                            + "LayeringTest.LAYERS"));
                }
            }
        }).check(main);
    }

    @Test
    @DisplayName("compiled classes depend only on what their layer allows")
    void bytecodeFollowsTheAllowList() {
        classes().should(new ArchCondition<JavaClass>("depend only on what their layer allows") {
            @Override
            public void check(JavaClass c, ConditionEvents events) {
                for (Dependency d : c.getDirectDependenciesFromSelf()) {
                    JavaClass target = d.getTargetClass().getBaseComponentType();
                    String why = violation(c.getPackageName(), target.getPackageName());
                    if (why != null) {
                        events.add(SimpleConditionEvent.violated(d, why + ": " + d.getDescription()));
                    }
                }
            }
        }).check(main);
    }

    private static final Pattern IMPORT = Pattern.compile("^import\\s+(?:static\\s+)?(dev\\.muster\\.[\\w.]+?)\\.[A-Z]",
            Pattern.MULTILINE);

    /** Every {@code dev.muster} import of the main sources, as "file: origin package -> imported package". */
    private static List<String[]> sourceImports() throws IOException {
        Path root = Path.of("src", "main", "java");
        List<String[]> out = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                String pkg = root.relativize(f.getParent()).toString().replace(f.getFileSystem().getSeparator(), ".");
                Matcher m = IMPORT.matcher(Files.readString(f));
                while (m.find()) {
                    out.add(new String[]{f.toString(), pkg, m.group(1)});
                }
            }
        }
        assertThat(out).as("source imports found").hasSizeGreaterThan(100);
        return out;
    }

    @Test
    @DisplayName("source imports depend only on what their layer allows")
    void importsFollowTheAllowList() throws IOException {
        List<String> violations = new ArrayList<>();
        for (String[] i : sourceImports()) {
            String why = violation(i[1], i[2]);
            if (why != null) {
                violations.add(i[0] + ": " + why);
            }
        }
        assertThat(violations).isEmpty();
    }

    @Test
    @DisplayName("every named exception still excuses a real dependency")
    void everyExceptionIsStillNeeded() throws IOException {
        Set<NamedException> used = new LinkedHashSet<>();
        for (JavaClass c : main) {
            for (Dependency d : c.getDirectDependenciesFromSelf()) {
                String origin = c.getPackageName();
                String target = d.getTargetClass().getBaseComponentType().getPackageName();
                if (ruleViolation(origin, target) != null) {
                    exceptionFor(origin, target).ifPresent(used::add);
                }
            }
        }
        for (String[] i : sourceImports()) {
            if (ruleViolation(i[1], i[2]) != null) {
                exceptionFor(i[1], i[2]).ifPresent(used::add);
            }
        }
        assertThat(used).as("exceptions in use: remove the others").containsExactlyInAnyOrderElementsOf(EXCEPTIONS);
    }

    @Test
    @DisplayName("the allow-list rejects what it should")
    void allowListIsNotVacuous() {
        assertThat(violation("dev.muster.core.model", "dev.muster.core.framework")).isNotNull();
        assertThat(violation("dev.muster.core.model", "org.slf4j")).isNotNull();
        assertThat(violation("dev.muster.core.plugins.nodename", "dev.muster.core.plugins.nodeports")).isNotNull();
        assertThat(violation("dev.muster.core.plugins.nodename", "dev.muster.core.plugins.nodename")).isNull();
        assertThat(violation("dev.muster.core.plugins", "dev.muster.core.plugins.nodeports")).isNull();
        assertThat(violation("dev.muster.core.decision", "dev.muster.core.plugins.nodeports")).isNotNull();
        assertThat(violation("dev.muster.core.dra", "dev.muster.core.framework")).isNotNull();
        assertThat(violation("dev.muster.core.topology", "dev.muster.core.plugins")).isNotNull();
        assertThat(violation("dev.muster.adapter.rest", "dev.muster.wiring")).isNotNull();
        assertThat(violation("dev.muster.adapter.rest", "dev.muster.core.cycle")).isNotNull();
        assertThat(violation("dev.muster.adapter.rest", "dev.muster.adapter.grpc")).isNotNull();
        assertThat(violation("dev.muster.adapter.rest.error", "dev.muster.adapter.rest")).isNull();
        assertThat(violation("dev.muster.adapter.kube", "dev.muster.adapter.validation")).isNotNull();
        assertThat(violation("dev.muster.adapter.extender", "dev.muster.adapter.clusterview")).isNull();
        assertThat(violation("dev.muster.adapter.clusterview", "dev.muster.adapter.extender")).isNotNull();
        assertThat(violation("dev.muster.core.newthing", "java.util")).isNotNull();
        assertThat(violation("dev.muster.wiring", "dev.muster.adapter.rest")).isNull();
    }
}
