package dev.muster.adapter.validation;

import dev.muster.adapter.kube.KubeCodec;
import dev.muster.adapter.kube.RequestDocument;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/** CompositePodGroups: each object by the v1alpha3 rules, and the trees they form with their PodGroups. */
class CompositeRulesTest {
    private static final KubeCodec CODEC = new KubeCodec(KubeCodec.Limits.DEFAULT);
    private final RequestValidator validator = new RequestValidator(ValidationLimits.DEFAULT);

    private static String composite(String name, String parent, String spec) {
        return "{'apiVersion':'scheduling.k8s.io/v1alpha3','kind':'CompositePodGroup','metadata':{'name':'" + name
                + "','namespace':'ns'},'spec':{" + (parent == null ? "" : "'parentCompositePodGroupName':'" + parent
                + "',") + spec + "}}";
    }

    private static String child(String name, String parent) {
        return "{'apiVersion':'scheduling.k8s.io/v1beta1','kind':'PodGroup','metadata':{'name':'" + name
                + "','namespace':'ns'},'spec':{'schedulingPolicy':{'basic':{}},'parentCompositePodGroupName':'" + parent
                + "'}}";
    }

    private static String snap(String composites, String groups) {
        return "{'snapshot':{'nodes':[{'metadata':{'name':'n1'}}],'compositePodGroups':[" + composites
                + "],'podGroups':[" + groups + "]}}";
    }

    private static final String GANG2 = "'schedulingPolicy':{'gang':{'minGroupCount':2}}";
    private static final String BASIC = "'schedulingPolicy':{'basic':{}}";

    static Stream<Arguments> rules() {
        return Stream.of(
                Arguments.of("unknown apiVersion",
                        snap("{'apiVersion':'scheduling.k8s.io/v1alpha2','metadata':{'name':'c'},'spec':{" + BASIC
                                + "}}", ""),
                        "FieldValueNotSupported", "snapshot.compositePodGroups[0].apiVersion"),
                Arguments.of("no policy", snap(composite("c", null, "'priority':1"), ""),
                        "FieldValueRequired", "snapshot.compositePodGroups[0].spec.schedulingPolicy"),
                Arguments.of("both policies", snap(composite("c", null,
                                "'schedulingPolicy':{'basic':{},'gang':{'minGroupCount':1}}"), ""),
                        "FieldValueInvalid", "snapshot.compositePodGroups[0].spec.schedulingPolicy"),
                Arguments.of("minGroupCount above the children",
                        snap(composite("c", null, GANG2), child("a", "c")),
                        "FieldValueInvalid", "snapshot.compositePodGroups[0].spec.schedulingPolicy.gang.minGroupCount"),
                Arguments.of("a string disruptionMode (v1alpha2's form)",
                        snap(composite("c", null, BASIC + ",'disruptionMode':'PodGroup'"), ""),
                        "FieldValueInvalid", "snapshot.compositePodGroups[0].spec.disruptionMode"),
                Arguments.of("a parent that is not in the list",
                        snap(composite("c", "gone", BASIC), ""),
                        "FieldValueInvalid", "snapshot.compositePodGroups[0].spec.parentCompositePodGroupName"),
                Arguments.of("two topology keys",
                        snap(composite("c", null, BASIC + ",'schedulingConstraints':{'topology':[{'key':'a'},"
                                + "{'key':'b'}]}"), ""),
                        "FieldValueTooMany", "snapshot.compositePodGroups[0].spec.schedulingConstraints.topology"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rules")
    void reportsTheRule(String name, String json, String reason, String field) throws Exception {
        assertThat(validator.validate(read(json)).list()).extracting(Cause::reason, Cause::field)
                .containsExactly(tuple(reason, field));
    }

    @Test
    @DisplayName("a tree of composites with PodGroup leaves is valid")
    void validTree() throws Exception {
        String json = snap(composite("root", null, GANG2) + "," + composite("inner", "root", BASIC),
                child("a", "root") + "," + child("b", "inner"));
        assertThat(validator.validate(read(json)).list()).isEmpty();
    }

    @Test
    @DisplayName("a cycle of composites is reported on the parent field of each composite in it")
    void cycle() throws Exception {
        String json = snap(composite("a", "b", BASIC) + "," + composite("b", "a", BASIC), "");
        assertThat(validator.validate(read(json)).list()).extracting(Cause::reason, Cause::field).containsExactly(
                tuple("FieldValueInvalid", "snapshot.compositePodGroups[0].spec.parentCompositePodGroupName"),
                tuple("FieldValueInvalid", "snapshot.compositePodGroups[1].spec.parentCompositePodGroupName"));
    }

    @Test
    @DisplayName("a chain of five composites is deeper than 4 levels")
    void tooDeep() throws Exception {
        String json = snap(composite("c1", null, BASIC) + "," + composite("c2", "c1", BASIC) + ","
                + composite("c3", "c2", BASIC) + "," + composite("c4", "c3", BASIC) + ","
                + composite("c5", "c4", BASIC), "");
        assertThat(validator.validate(read(json)).list()).extracting(Cause::field, Cause::message)
                .containsExactly(tuple("snapshot.compositePodGroups[4].spec.parentCompositePodGroupName",
                        "must not make a CompositePodGroup tree deeper than 4 levels"));
    }

    private static RequestDocument read(String json) throws Exception {
        return CODEC.readJson(json.replace('\'', '"').getBytes(StandardCharsets.UTF_8));
    }
}
