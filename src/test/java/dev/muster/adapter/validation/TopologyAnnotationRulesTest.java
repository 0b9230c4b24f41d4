package dev.muster.adapter.validation;

import dev.muster.adapter.kube.KubeCodec;
import dev.muster.adapter.kube.RequestDocument;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;

import static dev.muster.adapter.validation.Cause.INVALID;
import static dev.muster.adapter.validation.Cause.NOT_SUPPORTED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/** {@code muster.dev/slices} and {@code muster.dev/placement-strategy}: grammar and where they apply. */
class TopologyAnnotationRulesTest {
    private static final KubeCodec CODEC = new KubeCodec(KubeCodec.Limits.DEFAULT);
    private static final String SLICES = "snapshot.podGroups[0].metadata.annotations[muster.dev/slices]";
    private static final String STRATEGY = "snapshot.podGroups[0].metadata.annotations[muster.dev/placement-strategy]";
    private static final String RACK = "topology.kubernetes.io/rack";
    private static final String V1A2 = "scheduling.k8s.io/v1alpha2";
    private static final String VOLCANO = "scheduling.volcano.sh/v1beta1";
    private final RequestValidator validator = new RequestValidator(ValidationLimits.DEFAULT);

    private static String gang(int minCount) {
        return "{'schedulingPolicy':{'gang':{'minCount':" + minCount + "}},"
                + "'schedulingConstraints':{'topology':[{'key':'example.com/block'}]}}";
    }

    private static String group(String apiVersion, String annotations, String spec) {
        return "{'snapshot':{'nodes':[{'metadata':{'name':'n1'}}],'podGroups':[{'apiVersion':'" + apiVersion
                + "','kind':'PodGroup','metadata':{'name':'pg','namespace':'ns','annotations':{" + annotations
                + "}},'spec':" + spec + "}]}}";
    }

    private static String slices(String value, String spec) {
        return group(V1A2, "'muster.dev/slices':'" + value + "'", spec);
    }

    static Stream<Arguments> refused() {
        return Stream.of(
                Arguments.of("a slice size of 0", slices(RACK + "=0", gang(8)), "must be greater than or equal to 1"),
                Arguments.of("a negative slice size", slices(RACK + "=-4", gang(8)), "must be an integer of at least 1"),
                Arguments.of("a slice size that is not a number", slices(RACK + "=four", gang(8)),
                        "must be an integer of at least 1"),
                Arguments.of("an entry without a size", slices(RACK, gang(8)), "must be `<label key>=<size>`"),
                Arguments.of("an entry without a level", slices("=4", gang(8)), "must name a level"),
                Arguments.of("a level that is not a label key", slices("rack!=4", gang(8)),
                        "must be a qualified name"),
                Arguments.of("a level named twice", slices(RACK + "=4," + RACK + "=2", gang(8)), "is named twice"),
                Arguments.of("an inner size that does not divide the outer size",
                        slices("example.com/block=8," + RACK + "=3", gang(8)), "must divide the slice size 8"),
                Arguments.of("more than three levels", slices("a=8,b=4,c=2,d=1", gang(8)), "at most 3 levels"),
                Arguments.of("an empty value", slices("", gang(8)), "must name at least one level"),
                Arguments.of("a size that does not divide minCount", slices(RACK + "=4", gang(6)),
                        "minCount 6 must be a multiple of the outermost slice size 4"),
                Arguments.of("slices on a basic group",
                        slices(RACK + "=4", "{'schedulingPolicy':{'basic':{}},"
                                + "'schedulingConstraints':{'topology':[{'key':'example.com/block'}]}}"),
                        "apply to gang PodGroups only"),
                Arguments.of("slices on a group without any topology",
                        slices(RACK + "=4", "{'schedulingPolicy':{'gang':{'minCount':8}}}"),
                        "spec.schedulingConstraints.topology or the muster.dev/topology-levels annotation"),
                Arguments.of("slices on a Volcano group without topology levels",
                        group(VOLCANO, "'muster.dev/slices':'" + RACK + "=4'", "{'minMember':8}"),
                        "set spec.networkTopology (Volcano) or the muster.dev/topology-levels annotation"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refused")
    void aMalformedSlicesAnnotationIsInvalidAtItsField(String name, String json, String message) throws Exception {
        assertThat(validator.validate(read(json)).list()).extracting(Cause::reason, Cause::field)
                .containsExactly(tuple(INVALID, SLICES));
        assertThat(validator.validate(read(json)).list().get(0).message()).contains(message);
    }

    @Test
    void anUnknownStrategyIsNotSupportedAndListsTheSupportedOnes() throws Exception {
        String json = group(V1A2, "'muster.dev/placement-strategy':'Spread'", gang(2));
        assertThat(validator.validate(read(json)).list()).extracting(Cause::reason, Cause::field, Cause::message)
                .containsExactly(tuple(NOT_SUPPORTED, STRATEGY, "supported values: \"Balanced\", \"BestFit\""));
    }

    @Test
    void wellFormedAnnotationsAreValid() throws Exception {
        for (String json : new String[]{
                slices(RACK + "=4", gang(8)),
                slices(" example.com/block = 8 , " + RACK + " = 4 ", gang(16)),
                slices("kubernetes.io/hostname=2", "{'schedulingPolicy':{'gang':{'minCount':4}}}")
                        .replace("'annotations':{", "'annotations':{'muster.dev/topology-levels':'" + RACK + "',"),
                group(VOLCANO, "'muster.dev/slices':'" + RACK + "=4','muster.dev/topology-levels':'" + RACK + "'",
                        "{'minMember':8}"),
                group(VOLCANO, "'muster.dev/slices':'volcano.sh/hypernode-tier-1=4'",
                        "{'minMember':8,'networkTopology':{'mode':'hard','highestTierAllowed':2}}"),
                group(V1A2, "'muster.dev/placement-strategy':'Balanced'", gang(2)),
                group(V1A2, "'muster.dev/placement-strategy':'BestFit','muster.dev/slices':'" + RACK + "=2'",
                        gang(2))}) {
            assertThat(validator.validate(read(json)).list()).as(json).isEmpty();
        }
    }

    private static RequestDocument read(String json) throws Exception {
        return CODEC.readJson(json.replace('\'', '"').getBytes(StandardCharsets.UTF_8));
    }
}
