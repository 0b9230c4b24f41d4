package dev.muster.adapter.validation;

import dev.muster.adapter.kube.KubeCodec;
import dev.muster.adapter.kube.PastedObjects;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;

import static dev.muster.adapter.validation.Cause.REQUIRED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * A body pasted straight from {@code kubectl get -o json|yaml} has no snapshot: the one cause, on {@code snapshot},
 * says where its objects belong, by the kinds of its items.
 */
class PastedListTest {
    private static final KubeCodec CODEC = new KubeCodec(KubeCodec.Limits.DEFAULT);
    private final RequestValidator validator = new RequestValidator(ValidationLimits.DEFAULT);

    private static final String POD = "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'p'}}";
    private static final String NODE = "{'apiVersion':'v1','kind':'Node','metadata':{'name':'n'}}";

    static Stream<Arguments> bodies() {
        return Stream.of(
                Arguments.of("kubectl get pods -o json",
                        "{'apiVersion':'v1','items':[" + POD + "," + POD + "],'kind':'List','metadata':{}}",
                        "the body is a kubectl List (\"kind\": \"List\") of Pod objects, not a request: a List of Pod "
                                + "objects belongs in snapshot.pods, as in {\"snapshot\": {\"nodes\": [...], "
                                + "\"pods\": <the List>}}"),
                Arguments.of("kubectl get nodes,pods -o json",
                        "{'apiVersion':'v1','kind':'List','items':[" + NODE + "," + POD + "]}",
                        "the body is a kubectl List (\"kind\": \"List\") of Node and Pod objects, not a request: its "
                                + "Node items belong in snapshot.nodes and its Pod items belong in snapshot.pods, "
                                + "each list as an array of those items"),
                Arguments.of("a NodeList whose items leave their kind out",
                        "{'apiVersion':'v1','kind':'NodeList','items':[{'metadata':{'name':'n'}}]}",
                        "the body is a kubectl List (\"kind\": \"NodeList\") of Node objects, not a request: a List "
                                + "of Node objects belongs in snapshot.nodes, as in {\"snapshot\": {\"nodes\": "
                                + "<the List>}}"),
                Arguments.of("pods and a Service",
                        "{'kind':'List','items':[" + POD + ",{'kind':'Service','metadata':{'name':'s'}}]}",
                        "the body is a kubectl List (\"kind\": \"List\") of Pod and Service objects, not a request: a "
                                + "List of Pod objects belongs in snapshot.pods, as in {\"snapshot\": {\"nodes\": "
                                + "[...], \"pods\": <the List>}}; a snapshot holds no Service objects"),
                Arguments.of("an empty List", "{'apiVersion':'v1','kind':'List','items':[]}",
                        "the body is a kubectl List (\"kind\": \"List\") without items, not a request: send the "
                                + "objects in the snapshot's lists, as in {\"snapshot\": {\"nodes\": [...]}}"),
                Arguments.of("kubectl get podgroup -o json",
                        "{'apiVersion':'scheduling.k8s.io/v1alpha2','kind':'PodGroup','metadata':{'name':'g'}}",
                        "the body is a PodGroup, not a request: a PodGroup belongs in snapshot.podGroups, as in "
                                + "{\"snapshot\": {\"nodes\": [...], \"podGroups\": [<the PodGroup>]}}"),
                Arguments.of("a Deployment", "{'apiVersion':'apps/v1','kind':'Deployment'}",
                        "the body is a Deployment, not a request: a snapshot holds no Deployment objects"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bodies")
    void theCauseSaysWhereTheObjectsBelong(String name, String body, String message) throws Exception {
        byte[] bytes = body.replace('\'', '"').getBytes(StandardCharsets.UTF_8);
        PastedObjects pasted = CODEC.pasted(bytes, false);
        Causes causes = validator.validate(CODEC.readJson(bytes), pasted);
        assertThat(causes.list()).extracting(Cause::reason, Cause::field, Cause::message)
                .containsExactly(tuple(REQUIRED, "snapshot", message));
    }

    @Test
    void kubectlYamlIsReadAlike() throws Exception {
        byte[] yaml = ("apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: p\n"
                + "metadata:\n  resourceVersion: \"\"\n").getBytes(StandardCharsets.UTF_8);
        PastedObjects pasted = CODEC.pasted(yaml, true);
        assertThat(pasted).isEqualTo(new PastedObjects("List", List.of("Pod")));
        assertThat(validator.validate(CODEC.readYaml(yaml), pasted).list().get(0).message())
                .contains("belongs in snapshot.pods");
    }

    @Test
    void aBodyThatSaysNothingKeepsThePlainMessage() throws Exception {
        byte[] bytes = "{\"podGroups\":[]}".getBytes(StandardCharsets.UTF_8);
        assertThat(CODEC.pasted(bytes, false)).isNull();
        assertThat(validator.validate(CODEC.readJson(bytes), null).list()).extracting(Cause::message)
                .containsExactly("the cluster snapshot must be set");
    }
}
