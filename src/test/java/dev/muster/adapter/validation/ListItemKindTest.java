package dev.muster.adapter.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.adapter.RequestMutations;
import dev.muster.adapter.kube.KubeCodec;
import dev.muster.adapter.kube.SnapshotList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Map;

import static dev.muster.adapter.validation.Cause.NOT_SUPPORTED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * Each item of a snapshot list is checked against its list: an object that says it is of another kind (a Pod among
 * the nodes) is a {@code FieldValueNotSupported} on its own {@code kind}, naming the kind the list holds, and nothing
 * else is reported about it; an object that leaves out its kind and apiVersion is taken for the list's.
 */
class ListItemKindTest {
    private static final KubeCodec CODEC = new KubeCodec(KubeCodec.Limits.DEFAULT);
    private static final JsonNode EVERY_KIND = RequestMutations.load("sweep/every-kind.json");
    private final RequestValidator validator = new RequestValidator(ValidationLimits.DEFAULT);

    private Causes validate(JsonNode request) throws Exception {
        return validator.validate(CODEC.readJson(request.toString().getBytes(StandardCharsets.UTF_8)));
    }

    private Causes validate(String json) throws Exception {
        return validator.validate(CODEC.readJson(json.replace('\'', '"').getBytes(StandardCharsets.UTF_8)));
    }

    private static final String NODE = "{'apiVersion':'v1','kind':'Node','metadata':{'name':'n%d'}}";
    private static final String POD = "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'p%d','namespace':'ns'},"
            + "'spec':{'containers':[{'name':'c','image':'i'}]}}";

    @ParameterizedTest(name = "as an array: {0}")
    @ValueSource(booleans = {true, false})
    void kubectlGetNodesAndPodsPastedAsTheNodesNamesEachPod(boolean array) throws Exception {
        String items = String.format(NODE, 0) + "," + String.format(NODE, 1) + "," + String.format(NODE, 2) + ","
                + String.format(NODE, 3) + "," + String.format(POD, 0) + "," + String.format(POD, 1);
        String nodes = array ? "[" + items + "]" : "{'apiVersion':'v1','kind':'List','items':[" + items + "]}";
        Causes causes = validate("{'snapshot':{'nodes':" + nodes + "}}");
        assertThat(causes.list()).extracting(Cause::reason, Cause::field, Cause::summary).containsExactly(
                tuple(NOT_SUPPORTED, "snapshot.nodes[4].kind",
                        "snapshot.nodes[4].kind: Unsupported value: \"Pod\": supported values: \"Node\""),
                tuple(NOT_SUPPORTED, "snapshot.nodes[5].kind",
                        "snapshot.nodes[5].kind: Unsupported value: \"Pod\": supported values: \"Node\""));
    }

    @Test
    void aNodeAmongThePodsIsNamedOnItsKind() throws Exception {
        Causes causes = validate("{'snapshot':{'nodes':[" + String.format(NODE, 0) + "],'pods':["
                + String.format(POD, 0) + "," + String.format(NODE, 1) + "]}}");
        assertThat(causes.list()).extracting(Cause::reason, Cause::field, Cause::message)
                .containsExactly(tuple(NOT_SUPPORTED, "snapshot.pods[1].kind", "supported values: \"Pod\""));
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(SnapshotList.class)
    void anObjectOfAnotherKindIsReportedOnItsKindAndNothingElseAboutIt(SnapshotList list) throws Exception {
        JsonNode request = EVERY_KIND.deepCopy();
        ObjectNode item = (ObjectNode) request.get("snapshot").get(list.field()).get(0);
        item.put("kind", "Service");
        Causes causes = validate(request);
        String at = "snapshot." + list.field() + "[0]";
        assertThat(causes.list()).extracting(Cause::reason, Cause::field, Cause::message)
                .contains(tuple(NOT_SUPPORTED, at + ".kind", "supported values: \"" + list.kind() + "\""));
        assertThat(causes.list()).extracting(Cause::field).filteredOn(f -> f.startsWith(at))
                .containsExactly(at + ".kind");
    }

    @Test
    void objectsWithoutKindOrApiVersionAreTakenForTheirList() throws Exception {
        JsonNode request = EVERY_KIND.deepCopy();
        Iterator<Map.Entry<String, JsonNode>> lists = request.get("snapshot").fields();
        while (lists.hasNext()) {
            Map.Entry<String, JsonNode> list = lists.next();
            for (JsonNode item : list.getValue()) {
                ((ObjectNode) item).remove("kind");
                // the apiVersion tells the gang shapes apart, and a CompositePodGroup must say it
                if (!list.getKey().equals("podGroups") && !list.getKey().equals("compositePodGroups")) {
                    ((ObjectNode) item).remove("apiVersion");
                }
            }
        }
        assertThat(validate(request).list()).isEmpty();
    }

    @Test
    void everyPodGroupAndWorkloadShapeIsAcceptedInItsList() throws Exception {
        for (String version : SnapshotList.POD_GROUPS.apiVersions()) {
            String group = "{'apiVersion':'" + version + "','kind':'PodGroup','metadata':{'name':'g','namespace':'ns'},"
                    + "'spec':{'schedulingPolicy':{'gang':{'minCount':1}},'minMember':1}}";
            assertThat(validate("{'snapshot':{'nodes':[],'podGroups':[" + group + "]}}").list()).as(version).isEmpty();
        }
        assertThat(SnapshotList.POD_GROUPS.apiVersions()).contains("scheduling.k8s.io/v1alpha2",
                "scheduling.k8s.io/v1beta1", "scheduling.volcano.sh/v1beta1", "scheduling.x-k8s.io/v1alpha1");
        assertThat(SnapshotList.WORKLOADS.apiVersions()).contains("scheduling.k8s.io/v1alpha1",
                "scheduling.k8s.io/v1alpha2");
    }

    @Test
    void draObjectsAreReadInV1AndV1beta2AndNoOtherVersion() throws Exception {
        JsonNode request = EVERY_KIND.deepCopy();
        ((ObjectNode) request.get("snapshot").get("deviceClasses").get(0)).put("apiVersion", "resource.k8s.io/v1beta2");
        ((ObjectNode) request.get("snapshot").get("resourceClaims").get(0)).put("apiVersion", "resource.k8s.io/v1beta1");
        assertThat(validate(request).list()).extracting(Cause::reason, Cause::field, Cause::message).containsExactly(
                tuple(NOT_SUPPORTED, "snapshot.resourceClaims[0].apiVersion",
                        "supported values: \"resource.k8s.io/v1\", \"resource.k8s.io/v1beta2\""));
    }

    @Test
    void aNodeWithAnotherGroupsApiVersionIsReportedOnItsApiVersion() throws Exception {
        JsonNode request = EVERY_KIND.deepCopy();
        ArrayNode nodes = (ArrayNode) request.get("snapshot").get("nodes");
        ((ObjectNode) nodes.get(1)).put("apiVersion", "apps/v1");
        assertThat(validate(request).list()).extracting(Cause::reason, Cause::field, Cause::message)
                .containsExactly(tuple(NOT_SUPPORTED, "snapshot.nodes[1].apiVersion", "supported values: \"v1\""));
    }
}
