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

/** Volcano HyperNodes and the networkTopology of Volcano PodGroups: each rule answers its cause on its field. */
class HyperNodeRulesTest {
    private static final KubeCodec CODEC = new KubeCodec(KubeCodec.Limits.DEFAULT);
    private final RequestValidator validator = new RequestValidator(ValidationLimits.DEFAULT);

    private static final String NODES = "'nodes':[{'metadata':{'name':'n1','labels':{'rack':'r1'}}},"
            + "{'metadata':{'name':'n2','labels':{'volcano.sh/hypernode-tier-1':'other'}}}]";

    static String hn(String name, String tier, String members) {
        return "{'apiVersion':'topology.volcano.sh/v1alpha1','kind':'HyperNode','metadata':{'name':'" + name
                + "'},'spec':{" + (tier == null ? "" : "'tier':" + tier + ",") + "'members':[" + members + "]}}";
    }

    static String node(String selector) {
        return "{'type':'Node','selector':" + selector + "}";
    }

    static String member(String name) {
        return "{'type':'HyperNode','selector':{'exactMatch':{'name':'" + name + "'}}}";
    }

    private static String snap(String hyperNodes) {
        return "{'snapshot':{" + NODES + ",'hyperNodes':[" + hyperNodes + "]}}";
    }

    private static String volcano(String networkTopology, String annotations) {
        return "{'snapshot':{" + NODES + ",'hyperNodes':[" + hn("leaf", "1", node("{'exactMatch':{'name':'n1'}}"))
                .replace("'spec':{", "'spec':{'tierName':'leaf',") + "],'podGroups':[{'apiVersion':"
                + "'scheduling.volcano.sh/v1beta1','kind':'PodGroup','metadata':{'name':'g','namespace':'ns'"
                + (annotations == null ? "" : ",'annotations':{" + annotations + "}") + "},'spec':{'minMember':1,"
                + "'networkTopology':" + networkTopology + "}}]}}";
    }

    static Stream<Arguments> rules() {
        return Stream.of(
                Arguments.of("a HyperNode without a name", snap(hn("", "1", "")),
                        "FieldValueRequired", "snapshot.hyperNodes[0].metadata.name"),
                Arguments.of("a name that is not a DNS subdomain", snap(hn("Leaf_0", "1", "")),
                        "FieldValueInvalid", "snapshot.hyperNodes[0].metadata.name"),
                Arguments.of("two HyperNodes of one name", snap(hn("a", "1", "") + "," + hn("a", "2", "")),
                        "FieldValueDuplicate", "snapshot.hyperNodes[1].metadata.name"),
                Arguments.of("another apiVersion", snap(hn("a", "1", "").replace("topology.volcano.sh/v1alpha1",
                        "topology.volcano.sh/v1")), "FieldValueNotSupported", "snapshot.hyperNodes[0].apiVersion"),
                Arguments.of("no tier", snap(hn("a", null, "")),
                        "FieldValueRequired", "snapshot.hyperNodes[0].spec.tier"),
                Arguments.of("tier 0", snap(hn("a", "0", "")),
                        "FieldValueInvalid", "snapshot.hyperNodes[0].spec.tier"),
                Arguments.of("a member of another type", snap(hn("a", "1",
                                "{'type':'Switch','selector':{'exactMatch':{'name':'n1'}}}")),
                        "FieldValueNotSupported", "snapshot.hyperNodes[0].spec.members[0].type"),
                Arguments.of("a member without a selector", snap(hn("a", "1", "{'type':'Node'}")),
                        "FieldValueRequired", "snapshot.hyperNodes[0].spec.members[0].selector"),
                Arguments.of("a member both exact and regex", snap(hn("a", "1", "{},"
                                + node("{'exactMatch':{'name':'n1'},'regexMatch':{'pattern':'^n'}}"))),
                        null, null),
                Arguments.of("an exact name missing", snap(hn("a", "1", node("{'exactMatch':{}}"))),
                        "FieldValueRequired", "snapshot.hyperNodes[0].spec.members[0].selector.exactMatch.name"),
                Arguments.of("a regex that does not compile", snap(hn("a", "1", "{'type':'Node','selector':"
                                + "{'regexMatch':{'pattern':'node-(['}}}")),
                        "FieldValueInvalid", "snapshot.hyperNodes[0].spec.members[0].selector.regexMatch.pattern"),
                Arguments.of("a labelMatch for HyperNodes", snap(hn("a", "2", "{'type':'HyperNode','selector':"
                                + "{'labelMatch':{'matchLabels':{'rack':'r1'}}}}")),
                        "FieldValueForbidden", "snapshot.hyperNodes[0].spec.members[0].selector.labelMatch"),
                Arguments.of("a labelMatch with a bad operator", snap(hn("a", "1", node("{'labelMatch':"
                                + "{'matchExpressions':[{'key':'rack','operator':'Near'}]}}"))),
                        "FieldValueNotSupported",
                        "snapshot.hyperNodes[0].spec.members[0].selector.labelMatch.matchExpressions[0].operator"),
                Arguments.of("a HyperNode list object of another kind", "{'snapshot':{" + NODES + ",'hyperNodes':"
                                + "{'kind':'NodeList','items':[" + hn("a", "1", "") + "]}}}",
                        "FieldValueNotSupported", "snapshot.hyperNodes.kind"),
                Arguments.of("one tierName for two tiers", snap(hn("a", "1", "").replace("'spec':{",
                                "'spec':{'tierName':'leaf',") + "," + hn("b", "2", "").replace("'spec':{",
                                "'spec':{'tierName':'leaf',")),
                        "FieldValueInvalid", "snapshot.hyperNodes[1].spec.tierName"),
                Arguments.of("a node in two HyperNodes of one tier", snap(hn("a", "1",
                                node("{'exactMatch':{'name':'n1'}}")) + "," + hn("b", "1",
                                node("{'labelMatch':{'matchLabels':{'rack':'r1'}}}"))),
                        "FieldValueInvalid", "snapshot.hyperNodes[1].spec.members"),
                Arguments.of("a node whose own tier label names another HyperNode", snap(hn("a", "1",
                                node("{'exactMatch':{'name':'n2'}}"))),
                        "FieldValueInvalid", "snapshot.hyperNodes[0].spec.members"),
                Arguments.of("a mode neither hard nor soft", volcano("{'mode':'strict'}", null),
                        "FieldValueNotSupported", "snapshot.podGroups[0].spec.networkTopology.mode"),
                Arguments.of("highestTierAllowed 0", volcano("{'mode':'hard','highestTierAllowed':0}", null),
                        "FieldValueInvalid", "snapshot.podGroups[0].spec.networkTopology.highestTierAllowed"),
                Arguments.of("both highestTierAllowed and highestTierName",
                        volcano("{'highestTierAllowed':1,'highestTierName':'leaf'}", null),
                        "FieldValueInvalid", "snapshot.podGroups[0].spec.networkTopology"),
                Arguments.of("a highestTierName no HyperNode has", volcano("{'highestTierName':'spine'}", null),
                        "FieldValueInvalid", "snapshot.podGroups[0].spec.networkTopology.highestTierName"),
                Arguments.of("networkTopology beside Muster's topology annotation",
                        volcano("{'mode':'soft'}", "'muster.dev/topology-levels':'rack'"), "FieldValueForbidden",
                        "snapshot.podGroups[0].metadata.annotations[muster.dev/topology-levels]"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rules")
    void reportsTheRule(String name, String json, String reason, String field) throws Exception {
        if (reason == null) { // the member of index 1: index 0 is an empty member, its own cause
            assertThat(validator.validate(read(json)).list()).extracting(Cause::reason, Cause::field)
                    .containsExactly(
                            tuple("FieldValueRequired", "snapshot.hyperNodes[0].spec.members[0].type"),
                            tuple("FieldValueRequired", "snapshot.hyperNodes[0].spec.members[0].selector"),
                            tuple("FieldValueInvalid", "snapshot.hyperNodes[0].spec.members[1].selector"));
            return;
        }
        assertThat(validator.validate(read(json)).list()).extracting(Cause::reason, Cause::field)
                .containsExactly(tuple(reason, field));
        assertThat(validator.validate(CODEC.readYaml(bytes(json))).list()).extracting(Cause::field)
                .as("the Jackson (YAML) path reads the same").containsExactly(field);
    }

    @Test
    @DisplayName("a valid tree of HyperNodes and a hard Volcano PodGroup by tier name pass")
    void validTree() throws Exception {
        String json = "{'snapshot':{" + NODES + ",'hyperNodes':[" + hn("spine", "2", member("leaf") + ","
                + "{'type':'HyperNode','selector':{'regexMatch':{'pattern':'^sp'}}}").replace("'spec':{",
                "'spec':{'tierName':'spine',") + "," + hn("leaf", "1", node("{'regexMatch':{'pattern':'1$'}}"))
                + "],'podGroups':[{'apiVersion':'scheduling.volcano.sh/v1beta1','metadata':{'name':'g'},"
                + "'spec':{'minMember':1,'networkTopology':{'mode':'hard','highestTierName':'spine'}}}]}}";
        assertThat(validator.validate(read(json)).list()).isEmpty();
    }

    @Test
    @DisplayName("a cycle of HyperNodes is reported once, on the member that closes it")
    void cycle() throws Exception {
        String json = snap(hn("a", "2", member("b")) + "," + hn("b", "3", member("c")) + ","
                + hn("c", "4", member("a")) + "," + hn("d", "5", member("a")));
        assertThat(validator.validate(read(json)).list()).extracting(Cause::reason, Cause::field, Cause::message)
                .containsExactly(tuple("FieldValueInvalid", "snapshot.hyperNodes[2].spec.members[0]",
                        "HyperNodes form a cycle (a -> b -> c -> a); a HyperNode may not hold itself through its "
                                + "members"));
    }

    @Test
    @DisplayName("a pathological regular expression is stopped by the match budget")
    void regexBudget() throws Exception {
        StringBuilder nodes = new StringBuilder();
        for (int i = 0; i < 2; i++) {
            nodes.append(i > 0 ? "," : "").append("{'metadata':{'name':'").append("a".repeat(60)).append(i)
                    .append("x'}}");
        }
        String json = "{'snapshot':{'nodes':[" + nodes + "],'hyperNodes':[" + hn("a", "1",
                node("{'regexMatch':{'pattern':'(.*a){8}y'}}")) + "]}}";
        assertThat(validator.validate(read(json)).list()).extracting(Cause::reason, Cause::field)
                .containsExactly(tuple("FieldValueInvalid",
                        "snapshot.hyperNodes[0].spec.members[0].selector.regexMatch.pattern"));
    }

    @Test
    @DisplayName("more HyperNodes than the limit are one TooMany cause")
    void limit() throws Exception {
        RequestValidator tight = new RequestValidator(new ValidationLimits(10, 10, 10, 10, 100, 1));
        assertThat(tight.validate(read(snap(hn("a", "1", "") + "," + hn("b", "1", "")))).list())
                .extracting(Cause::reason, Cause::field)
                .containsExactly(tuple("FieldValueTooMany", "snapshot.hyperNodes"));
    }

    private static byte[] bytes(String json) {
        return json.replace('\'', '"').getBytes(StandardCharsets.UTF_8);
    }

    private static RequestDocument read(String json) throws Exception {
        return CODEC.readJson(bytes(json));
    }
}
