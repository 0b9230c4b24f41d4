package dev.muster.adapter.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.adapter.RequestMutations;
import dev.muster.adapter.kube.KubeCodec;
import dev.muster.adapter.kube.RequestDocument;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static dev.muster.adapter.validation.Cause.INVALID;
import static dev.muster.adapter.validation.Cause.REQUIRED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * An object of any snapshot list without {@code metadata}, or with {@code "metadata": null}, is an object without a
 * name: one {@code FieldValueRequired} on its {@code metadata.name}, as for a node, whatever else the other rules of
 * its kind read from its metadata (annotations, namespace) or from the objects it names.
 */
class MissingMetadataTest {
    private static final KubeCodec CODEC = new KubeCodec(KubeCodec.Limits.DEFAULT);
    private static final JsonNode EVERY_KIND = RequestMutations.load("sweep/every-kind.json");
    private final RequestValidator validator = new RequestValidator(ValidationLimits.DEFAULT);

    /** Every object of every list of the request that uses every kind, once without metadata and once with null. */
    static Stream<Arguments> objects() {
        List<Arguments> out = new ArrayList<>();
        Iterator<Map.Entry<String, JsonNode>> lists = EVERY_KIND.get("snapshot").fields();
        while (lists.hasNext()) {
            Map.Entry<String, JsonNode> list = lists.next();
            for (int i = 0; i < list.getValue().size(); i++) {
                out.add(Arguments.of(list.getKey(), i, false));
                out.add(Arguments.of(list.getKey(), i, true));
            }
        }
        return out.stream();
    }

    private Causes validate(JsonNode request) throws Exception {
        RequestDocument doc = CODEC.readJson(request.toString().getBytes(StandardCharsets.UTF_8));
        return validator.validate(doc);
    }

    @Test
    void theRequestThatUsesEveryKindIsValid() throws Exception {
        assertThat(validate(EVERY_KIND).list()).isEmpty();
        List<String> lists = new ArrayList<>();
        EVERY_KIND.get("snapshot").fieldNames().forEachRemaining(lists::add);
        assertThat(lists).containsExactlyInAnyOrder("nodes", "pods", "podGroups", "workloads", "priorityClasses",
                "podDisruptionBudgets", "deviceClasses", "resourceSlices", "resourceClaims", "resourceClaimTemplates",
                "jobs", "compositePodGroups", "hyperNodes");
    }

    @ParameterizedTest(name = "snapshot.{0}[{1}] with null metadata: {2}")
    @MethodSource("objects")
    void anObjectWithoutMetadataIsAnObjectWithoutAName(String list, int index, boolean asNull) throws Exception {
        JsonNode request = EVERY_KIND.deepCopy();
        ObjectNode object = (ObjectNode) request.get("snapshot").get(list).get(index);
        if (asNull) {
            object.set("metadata", NullNode.getInstance());
        } else {
            object.remove("metadata");
        }
        Causes causes = validate(request);
        String field = "snapshot." + list + "[" + index + "].metadata.name";
        assertThat(causes.list()).extracting(Cause::reason, Cause::field, Cause::message)
                .contains(tuple(REQUIRED, field, "name is required"));
        assertThat(causes.list().get(0).field()).isEqualTo(field);
    }

    @Test
    void aPodGroupWithoutMetadataIsReportedOnceAndItsSpecIsStillChecked() throws Exception {
        String json = "{'snapshot':{'nodes':[{'metadata':{'name':'n'}}],'podGroups':[{'apiVersion':"
                + "'scheduling.k8s.io/v1alpha2','kind':'PodGroup','spec':{'schedulingPolicy':{'gang':{'minCount':0}}}},"
                + "{'apiVersion':'scheduling.k8s.io/v1alpha2','kind':'PodGroup','metadata':null,'spec':"
                + "{'schedulingPolicy':{'basic':{}}}}]}}";
        Causes causes = validator.validate(CODEC.readJson(json.replace('\'', '"').getBytes(StandardCharsets.UTF_8)));
        assertThat(causes.list()).extracting(Cause::reason, Cause::field).containsExactly(
                tuple(REQUIRED, "snapshot.podGroups[0].metadata.name"),
                tuple(REQUIRED, "snapshot.podGroups[0].spec.schedulingPolicy.gang.minCount"),
                tuple(REQUIRED, "snapshot.podGroups[1].metadata.name"));
    }

    @Test
    void aNodeWithoutANameIsNotPlacedInAHyperNodeByItsLabels() throws Exception {
        String json = "{'snapshot':{'nodes':[{'metadata':{'labels':{'rack':'r1'}}},{'metadata':{'name':'n2',"
                + "'labels':{'rack':'r1'}}}],'hyperNodes':[" + HyperNodeRulesTest.hn("leaf", "1",
                HyperNodeRulesTest.node("{'labelMatch':{'matchLabels':{'rack':'r1'}}}")) + "]}}";
        Causes causes = validator.validate(CODEC.readJson(json.replace('\'', '"').getBytes(StandardCharsets.UTF_8)));
        assertThat(causes.list()).extracting(Cause::reason, Cause::field)
                .containsExactly(tuple(REQUIRED, "snapshot.nodes[0].metadata.name"));
    }

    @Test
    void twoHyperNodesGivingOneTierNameTwoTiersAreReportedWhenTheFirstHasNoMetadata() throws Exception {
        String first = HyperNodeRulesTest.hn("a", "1", "").replace("'metadata':{'name':'a'},", "")
                .replace("'spec':{", "'spec':{'tierName':'leaf',");
        String second = HyperNodeRulesTest.hn("b", "2", "").replace("'spec':{", "'spec':{'tierName':'leaf',");
        String json = "{'snapshot':{'nodes':[{'metadata':{'name':'n'}}],'hyperNodes':[" + first + "," + second + "]}}";
        Causes causes = validator.validate(CODEC.readJson(json.replace('\'', '"').getBytes(StandardCharsets.UTF_8)));
        assertThat(causes.list()).extracting(Cause::reason, Cause::field).containsExactly(
                tuple(REQUIRED, "snapshot.hyperNodes[0].metadata.name"),
                tuple(INVALID, "snapshot.hyperNodes[1].spec.tierName"));
        assertThat(causes.list().get(1).message()).startsWith("HyperNode snapshot.hyperNodes[0] names tier 1 so");
    }
}
