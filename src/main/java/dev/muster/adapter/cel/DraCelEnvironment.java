package dev.muster.adapter.cel;

import com.google.common.collect.ImmutableCollection;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import dev.cel.bundle.Cel;
import dev.cel.bundle.CelFactory;
import dev.cel.common.CelOptions;
import dev.cel.common.types.CelType;
import dev.cel.common.types.CelTypeProvider;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.StructType;
import dev.cel.extensions.CelExtensions;
import dev.cel.extensions.CelListsExtensions;
import dev.cel.extensions.CelStringExtensions;
import dev.cel.parser.CelStandardMacro;

import java.util.EnumSet;
import java.util.Optional;

/** The one CEL environment of DRA selectors: immutable and shared by every compiled expression. */
final class DraCelEnvironment {
    static final String DEVICE = "device";

    /** {@code kubernetes.DRADevice}: the type of {@code device}, so that {@code device.foo} fails to compile. */
    static final StructType DEVICE_TYPE = StructType.create("kubernetes.DRADevice",
            ImmutableSet.of("driver", "attributes", "capacity", "allowMultipleAllocations"),
            field -> Optional.ofNullable(switch (field) {
                case "driver" -> SimpleType.STRING;
                case "attributes" -> MapType.create(SimpleType.STRING, MapType.create(SimpleType.STRING, SimpleType.DYN));
                case "capacity" -> MapType.create(SimpleType.STRING, MapType.create(SimpleType.STRING, KubernetesLibraries.QUANTITY));
                case "allowMultipleAllocations" -> SimpleType.BOOL;
                default -> null;
            }));

    private DraCelEnvironment() {
    }

    static Cel build(int maxExpressionLength, int comprehensionMaxIterations) {
        CelOptions options = CelOptions.current()
                .enableHeterogeneousNumericComparisons(true)
                .enableHomogeneousLiterals(true)
                .enableOptionalSyntax(true)
                .maxExpressionCodePointSize(maxExpressionLength)
                .comprehensionMaxIterations(comprehensionMaxIterations)
                .build();
        CelTypeProvider types = new CelTypeProvider() {
            private final ImmutableList<CelType> all = ImmutableList.of(DEVICE_TYPE, KubernetesLibraries.QUANTITY, KubernetesLibraries.SEMVER);

            @Override
            public ImmutableCollection<CelType> types() {
                return all;
            }

            @Override
            public Optional<CelType> findType(String name) {
                return all.stream().filter(t -> t.name().equals(name)).findFirst();
            }
        };
        EnumSet<CelStringExtensions.Function> strings = EnumSet.allOf(CelStringExtensions.Function.class);
        strings.remove(CelStringExtensions.Function.REPLACE);
        EnumSet<CelListsExtensions.Function> lists = EnumSet.allOf(CelListsExtensions.Function.class);
        lists.remove(CelListsExtensions.Function.RANGE);
        return CelFactory.standardCelBuilder()
                .setOptions(options)
                .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
                .setTypeProvider(types)
                .addVar(DEVICE, DEVICE_TYPE)
                .addCompilerLibraries(CelExtensions.strings(strings), CelExtensions.bindings(), CelExtensions.optional(),
                        CelExtensions.sets(options), CelExtensions.lists(lists), CelExtensions.comprehensions())
                .addRuntimeLibraries(CelExtensions.strings(strings), CelExtensions.optional(), CelExtensions.sets(options),
                        CelExtensions.lists(lists), CelExtensions.comprehensions())
                .addFunctionDeclarations(KubernetesLibraries.declarations())
                .addFunctionBindings(KubernetesLibraries.bindings())
                .build();
    }
}
