package dev.muster.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/** The layering rules of docs/architecture.md, enforced on the compiled main classes. */
class LayeringTest {
    private static JavaClasses main;

    @BeforeAll
    static void importClasses() {
        // The compiled main classes only: scanning the whole classpath for the package costs seconds.
        main = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPath(java.nio.file.Paths.get("target", "classes"));
        // Guard against a vacuous pass: the rules below only mean something when the main classes were found.
        org.assertj.core.api.Assertions.assertThat(main.size()).as("main classes imported").isGreaterThan(100);
    }

    @Test
    @DisplayName("the core imports nothing but java.* and the core itself")
    void corePure() {
        ArchRule rule = classes().that().resideInAPackage("dev.muster.core..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "dev.muster.core..");
        rule.check(main);
    }

    @Test
    @DisplayName("plugins never import each other")
    void pluginsIndependent() {
        ArchRule rule = slices().matching("dev.muster.core.plugins.(*)..")
                .should().notDependOnEachOther()
                .ignoreDependency(
                        com.tngtech.archunit.base.DescribedPredicate.describe("the registry",
                                c -> c.getName().equals("dev.muster.core.plugins.InTreePlugins")),
                        com.tngtech.archunit.base.DescribedPredicate.alwaysTrue())
                .ignoreDependency(com.tngtech.archunit.base.DescribedPredicate.alwaysTrue(),
                        com.tngtech.archunit.base.DescribedPredicate.describe("shared support",
                                c -> c.getPackageName().equals("dev.muster.core.plugins.support")));
        rule.check(main);
    }

    @Test
    @DisplayName("adapters use only the core's decision, model and snapshot packages")
    void adaptersUseTheDoor() {
        ArchRule rule = noClasses().that().resideInAPackage("dev.muster.adapter..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.muster.core.framework..",
                        "dev.muster.core.cycle..", "dev.muster.core.plugins..");
        rule.check(main);
    }

    @Test
    @DisplayName("adapters do not import each other (kube decoding and validation are shared libraries)")
    void adaptersIndependent() {
        ArchRule rule = slices().matching("dev.muster.adapter.(*)..")
                .should().notDependOnEachOther()
                .ignoreDependency(com.tngtech.archunit.base.DescribedPredicate.alwaysTrue(),
                        com.tngtech.archunit.base.DescribedPredicate.describe("shared decoding and validation",
                                c -> c.getPackageName().startsWith("dev.muster.adapter.kube")
                                        || c.getPackageName().startsWith("dev.muster.adapter.validation")))
                .ignoreDependency(
                        com.tngtech.archunit.base.DescribedPredicate.describe("the extender",
                                c -> c.getPackageName().startsWith("dev.muster.adapter.extender")),
                        com.tngtech.archunit.base.DescribedPredicate.describe("its cluster view",
                                c -> c.getPackageName().startsWith("dev.muster.adapter.clusterview")));
        rule.check(main);
    }
}
