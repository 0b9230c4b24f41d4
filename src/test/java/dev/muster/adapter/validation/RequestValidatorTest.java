package dev.muster.adapter.validation;

import dev.muster.adapter.kube.KubeCodec;
import dev.muster.adapter.kube.RequestDocument;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static dev.muster.adapter.validation.Cause.DUPLICATE;
import static dev.muster.adapter.validation.Cause.FORBIDDEN;
import static dev.muster.adapter.validation.Cause.INVALID;
import static dev.muster.adapter.validation.Cause.NOT_SUPPORTED;
import static dev.muster.adapter.validation.Cause.REQUIRED;
import static dev.muster.adapter.validation.Cause.TOO_MANY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

class RequestValidatorTest {
    private static final KubeCodec CODEC = new KubeCodec(KubeCodec.Limits.DEFAULT);
    private final RequestValidator validator = new RequestValidator(new ValidationLimits(3, 5, 2, 10, 100));

    private static final String NODE = "{'metadata':{'name':'n1'}}";

    /** A snapshot with one node and the given extra lists ('pods':[...], ...). */
    private static String snap(String extra) {
        return "{'snapshot':{'nodes':[" + NODE + "]" + (extra.isEmpty() ? "" : "," + extra) + "}}";
    }

    private static String group(String spec) {
        return snap("'podGroups':[{'metadata':{'name':'pg','namespace':'ns'},'spec':" + spec + "}]");
    }

    private static String workload(String spec) {
        return snap("'workloads':[{'metadata':{'name':'wl','namespace':'ns'},'spec':" + spec + "}]");
    }

    private static String pod(String spec) {
        return snap("'pods':[{'metadata':{'name':'p','namespace':'ns'},'spec':" + spec + "}]");
    }

    static Stream<Arguments> rules() {
        String gang = "'schedulingPolicy':{'gang':{'minCount':2}}";
        return Stream.of(
                // request envelope
                Arguments.of("a request without a snapshot", "{}", REQUIRED, "snapshot"),
                Arguments.of("a snapshot without nodes", "{'snapshot':{}}", REQUIRED, "snapshot.nodes"),
                Arguments.of("a group name without a namespace", snap("").replace("}}", "},'podGroups':['pg']}"),
                        INVALID, "podGroups[0]"),
                Arguments.of("too many nodes for the configured limit",
                        "{'snapshot':{'nodes':[" + NODE + "," + NODE + "," + NODE + "," + NODE + "]}}", TOO_MANY, "snapshot.nodes"),
                // metadata
                Arguments.of("a node without a name", "{'snapshot':{'nodes':[{'metadata':{}}]}}", REQUIRED,
                        "snapshot.nodes[0].metadata.name"),
                Arguments.of("a node without metadata", "{'snapshot':{'nodes':[{}]}}", REQUIRED,
                        "snapshot.nodes[0].metadata.name"),
                Arguments.of("two nodes with one name", "{'snapshot':{'nodes':[" + NODE + "," + NODE + "]}}", DUPLICATE,
                        "snapshot.nodes[1].metadata.name"),
                Arguments.of("a node name that is not a DNS subdomain", "{'snapshot':{'nodes':[{'metadata':{'name':'Node_1'}}]}}",
                        INVALID, "snapshot.nodes[0].metadata.name"),
                Arguments.of("two pods with one name in one namespace",
                        snap("'pods':[{'metadata':{'name':'p'}},{'metadata':{'name':'p','namespace':'default'}}]"),
                        DUPLICATE, "snapshot.pods[1].metadata.name"),
                Arguments.of("a creation time that is not RFC 3339",
                        snap("'pods':[{'metadata':{'name':'p','creationTimestamp':'yesterday'}}]"),
                        INVALID, "snapshot.pods[0].metadata.creationTimestamp"),
                Arguments.of("two PodGroups with one name in one namespace",
                        snap("'podGroups':[{'metadata':{'name':'g'},'spec':{" + gang + "}},{'metadata':{'name':'g'},'spec':{" + gang + "}}]"),
                        DUPLICATE, "snapshot.podGroups[1].metadata.name"),
                // nodes
                Arguments.of("a taint with an unknown effect",
                        "{'snapshot':{'nodes':[{'metadata':{'name':'n'},'spec':{'taints':[{'key':'k','effect':'Sometimes'}]}}]}}",
                        NOT_SUPPORTED, "snapshot.nodes[0].spec.taints[0].effect"),
                Arguments.of("an allocatable quantity that does not parse",
                        "{'snapshot':{'nodes':[{'metadata':{'name':'n'},'status':{'allocatable':{'cpu':'eight'}}}]}}",
                        INVALID, "snapshot.nodes[0].status.allocatable[cpu]"),
                // pods
                Arguments.of("an empty scheduling group", pod("{'schedulingGroup':{}}"), REQUIRED,
                        "snapshot.pods[0].spec.schedulingGroup.podGroupName"),
                Arguments.of("a pod group name that is not a DNS subdomain", pod("{'schedulingGroup':{'podGroupName':'Bad Name'}}"),
                        INVALID, "snapshot.pods[0].spec.schedulingGroup.podGroupName"),
                Arguments.of("two scheduling gates with one name",
                        pod("{'schedulingGates':[{'name':'example.com/wait'},{'name':'example.com/wait'}]}"),
                        DUPLICATE, "snapshot.pods[0].spec.schedulingGates[1].name"),
                Arguments.of("a scheduling gate that is not a qualified name", pod("{'schedulingGates':[{'name':'-bad-'}]}"),
                        INVALID, "snapshot.pods[0].spec.schedulingGates[0].name"),
                Arguments.of("scheduling gates on a bound pod", pod("{'nodeName':'n1','schedulingGates':[{'name':'wait'}]}"),
                        FORBIDDEN, "snapshot.pods[0].spec.nodeName"),
                Arguments.of("a negative request",
                        pod("{'containers':[{'name':'c','resources':{'requests':{'cpu':'-1'}}}]}"),
                        INVALID, "snapshot.pods[0].spec.containers[0].resources.requests[cpu]"),
                Arguments.of("an init container limit that does not parse",
                        pod("{'initContainers':[{'name':'c','resources':{'limits':{'memory':'1GB'}}}]}"),
                        INVALID, "snapshot.pods[0].spec.initContainers[0].resources.limits[memory]"),
                Arguments.of("a toleration with an unknown operator", pod("{'tolerations':[{'key':'k','operator':'Maybe'}]}"),
                        NOT_SUPPORTED, "snapshot.pods[0].spec.tolerations[0].operator"),
                Arguments.of("a spread constraint without whenUnsatisfiable",
                        pod("{'topologySpreadConstraints':[{'maxSkew':1,'topologyKey':'zone'}]}"),
                        REQUIRED, "snapshot.pods[0].spec.topologySpreadConstraints[0].whenUnsatisfiable"),
                Arguments.of("a node affinity operator that does not exist",
                        pod("{'affinity':{'nodeAffinity':{'requiredDuringSchedulingIgnoredDuringExecution':{'nodeSelectorTerms':"
                                + "[{'matchExpressions':[{'key':'k','operator':'Near'}]}]}}}}"),
                        NOT_SUPPORTED, "snapshot.pods[0].spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution"
                                + ".nodeSelectorTerms[0].matchExpressions[0].operator"),
                Arguments.of("a pod affinity term without a topology key",
                        pod("{'affinity':{'podAntiAffinity':{'requiredDuringSchedulingIgnoredDuringExecution':[{'labelSelector':{}}]}}}"),
                        REQUIRED, "snapshot.pods[0].spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey"),
                // PodGroups
                Arguments.of("a PodGroup without a scheduling policy", group("{}"), REQUIRED,
                        "snapshot.podGroups[0].spec.schedulingPolicy"),
                Arguments.of("a scheduling policy with neither basic nor gang", group("{'schedulingPolicy':{}}"), INVALID,
                        "snapshot.podGroups[0].spec.schedulingPolicy"),
                Arguments.of("a scheduling policy with both basic and gang",
                        group("{'schedulingPolicy':{'basic':{},'gang':{'minCount':1}}}"), INVALID,
                        "snapshot.podGroups[0].spec.schedulingPolicy"),
                Arguments.of("a gang without minCount", group("{'schedulingPolicy':{'gang':{}}}"), REQUIRED,
                        "snapshot.podGroups[0].spec.schedulingPolicy.gang.minCount"),
                Arguments.of("a gang with minCount zero", group("{'schedulingPolicy':{'gang':{'minCount':0}}}"), REQUIRED,
                        "snapshot.podGroups[0].spec.schedulingPolicy.gang.minCount"),
                Arguments.of("a gang with a negative minCount", group("{'schedulingPolicy':{'gang':{'minCount':-1}}}"), INVALID,
                        "snapshot.podGroups[0].spec.schedulingPolicy.gang.minCount"),
                Arguments.of("two topology constraints", group("{" + gang + ",'schedulingConstraints':{'topology':[{'key':'a'},{'key':'b'}]}}"),
                        TOO_MANY, "snapshot.podGroups[0].spec.schedulingConstraints.topology"),
                Arguments.of("a topology constraint without a key", group("{" + gang + ",'schedulingConstraints':{'topology':[{}]}}"),
                        REQUIRED, "snapshot.podGroups[0].spec.schedulingConstraints.topology[0].key"),
                Arguments.of("a topology key that is not a label key",
                        group("{" + gang + ",'schedulingConstraints':{'topology':[{'key':'a/b/c'}]}}"),
                        INVALID, "snapshot.podGroups[0].spec.schedulingConstraints.topology[0].key"),
                Arguments.of("five resource claims",
                        group("{" + gang + ",'resourceClaims':[{'name':'a','resourceClaimName':'c'},{'name':'b','resourceClaimName':'c'},"
                                + "{'name':'c','resourceClaimName':'c'},{'name':'d','resourceClaimName':'c'},{'name':'e','resourceClaimName':'c'}]}"),
                        TOO_MANY, "snapshot.podGroups[0].spec.resourceClaims"),
                Arguments.of("two resource claims with one name",
                        group("{" + gang + ",'resourceClaims':[{'name':'a','resourceClaimName':'c'},{'name':'a','resourceClaimTemplateName':'t'}]}"),
                        DUPLICATE, "snapshot.podGroups[0].spec.resourceClaims[1]"),
                Arguments.of("a resource claim without a name",
                        group("{" + gang + ",'resourceClaims':[{'resourceClaimName':'c'}]}"),
                        REQUIRED, "snapshot.podGroups[0].spec.resourceClaims[0].name"),
                Arguments.of("a resource claim with both references",
                        group("{" + gang + ",'resourceClaims':[{'name':'a','resourceClaimName':'c','resourceClaimTemplateName':'t'}]}"),
                        INVALID, "snapshot.podGroups[0].spec.resourceClaims[0]"),
                Arguments.of("an unknown disruption mode", group("{" + gang + ",'disruptionMode':'Everything'}"),
                        NOT_SUPPORTED, "snapshot.podGroups[0].spec.disruptionMode"),
                Arguments.of("a priority above one billion", group("{" + gang + ",'priority':1000000001}"),
                        INVALID, "snapshot.podGroups[0].spec.priority"),
                Arguments.of("a priority class name that is not a long name", group("{" + gang + ",'priorityClassName':'High!'}"),
                        INVALID, "snapshot.podGroups[0].spec.priorityClassName"),
                Arguments.of("a template reference without a workload name",
                        group("{" + gang + ",'podGroupTemplateRef':{'workload':{'podGroupTemplateName':'w'}}}"),
                        REQUIRED, "snapshot.podGroups[0].spec.podGroupTemplateRef.workload.workloadName"),
                Arguments.of("a template name that is not a short name",
                        group("{" + gang + ",'podGroupTemplateRef':{'workload':{'workloadName':'wl','podGroupTemplateName':'a.b'}}}"),
                        INVALID, "snapshot.podGroups[0].spec.podGroupTemplateRef.workload.podGroupTemplateName"),
                // Workloads
                Arguments.of("a workload without templates", workload("{}"), REQUIRED, "snapshot.workloads[0].spec.podGroupTemplates"),
                Arguments.of("a workload with nine templates",
                        workload("{'podGroupTemplates':[" + String.join(",", java.util.stream.IntStream.range(0, 9)
                                .mapToObj(i -> "{'name':'t" + i + "','schedulingPolicy':{'basic':{}}}").toList()) + "]}"),
                        TOO_MANY, "snapshot.workloads[0].spec.podGroupTemplates"),
                Arguments.of("two templates with one name",
                        workload("{'podGroupTemplates':[{'name':'t','schedulingPolicy':{'basic':{}}},{'name':'t','schedulingPolicy':{'basic':{}}}]}"),
                        DUPLICATE, "snapshot.workloads[0].spec.podGroupTemplates[1]"),
                Arguments.of("a template with gang minCount zero",
                        workload("{'podGroupTemplates':[{'name':'t','schedulingPolicy':{'gang':{'minCount':0}}}]}"),
                        REQUIRED, "snapshot.workloads[0].spec.podGroupTemplates[0].schedulingPolicy.gang.minCount"),
                Arguments.of("a controller reference without a kind",
                        workload("{'controllerRef':{'name':'job'},'podGroupTemplates':[{'name':'t','schedulingPolicy':{'basic':{}}}]}"),
                        REQUIRED, "snapshot.workloads[0].spec.controllerRef.kind"),
                // other objects
                Arguments.of("a priority class without a value", snap("'priorityClasses':[{'metadata':{'name':'high'}}]"),
                        REQUIRED, "snapshot.priorityClasses[0].value"),
                Arguments.of("a resource claim object without a name", snap("'resourceClaims':[{'metadata':{'namespace':'ns'},'spec':{}}]"),
                        REQUIRED, "snapshot.resourceClaims[0].metadata.name"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rules")
    void reportsTheRuleWithItsReasonAndFieldPath(String name, String json, String reason, String field) throws Exception {
        Causes causes = validator.validate(read(json));
        assertThat(causes.list()).extracting(Cause::reason, Cause::field).containsExactly(tuple(reason, field));
    }

    @Test
    void theTrainingJobIsValid() throws Exception {
        RequestDocument doc = CODEC.readJson(Files.readAllBytes(Path.of("openapi/examples/training-job.json")));
        assertThat(new RequestValidator(ValidationLimits.DEFAULT).validate(doc).list()).isEmpty();
    }

    @Test
    void everyCauseIsReportedAtOnceWithUpstreamMessages() throws Exception {
        Causes causes = validator.validate(read("{'snapshot':{'nodes':[{'metadata':{}}],'pods':[{'metadata':{'name':'p'},"
                + "'spec':{'schedulingGroup':{}}}],'podGroups':[{'metadata':{'name':'g'},'spec':{'schedulingPolicy':{}}}],"
                + "'workloads':[{'metadata':{'name':'w'},'spec':{'podGroupTemplates':[{'name':'t','schedulingPolicy':{'basic':{}},"
                + "'disruptionMode':'All'}]}}]}}"));
        assertThat(causes.list()).extracting(Cause::reason, Cause::field, Cause::message).containsExactly(
                tuple(REQUIRED, "snapshot.nodes[0].metadata.name", "name is required"),
                tuple(REQUIRED, "snapshot.pods[0].spec.schedulingGroup.podGroupName", "exactly one of podGroupName must be set"),
                tuple(INVALID, "snapshot.podGroups[0].spec.schedulingPolicy", "must specify one of: `basic`, `gang`"),
                tuple(NOT_SUPPORTED, "snapshot.workloads[0].spec.podGroupTemplates[0].disruptionMode",
                        "supported values: \"Pod\", \"PodGroup\""));
        assertThat(causes.list().get(2).summary())
                .isEqualTo("snapshot.podGroups[0].spec.schedulingPolicy: Invalid value: \"\": must specify one of: `basic`, `gang`");
    }

    @Test
    void pathsStayRightAfterDeeplyNestedValidObjects() throws Exception {
        // pod 0 is valid and walks every nested list the validator descends into; the causes of pod 1 and of the
        // second node must still carry their own paths (nothing of pod 0's path may leak into them)
        String validPod = "{'metadata':{'name':'a','namespace':'ns'},'spec':{"
                + "'containers':[{'name':'c','resources':{'requests':{'cpu':'1'},'limits':{'cpu':'2'}},'ports':[{'hostPort':80}]}],"
                + "'initContainers':[{'name':'i','resources':{'requests':{'memory':'1Gi'}}}],"
                + "'tolerations':[{'key':'k','operator':'Exists','effect':'NoSchedule'}],"
                + "'topologySpreadConstraints':[{'maxSkew':1,'topologyKey':'zone','whenUnsatisfiable':'DoNotSchedule',"
                + "'labelSelector':{'matchExpressions':[{'key':'app','operator':'In','values':['x']}]}}],"
                + "'affinity':{'nodeAffinity':{'requiredDuringSchedulingIgnoredDuringExecution':{'nodeSelectorTerms':"
                + "[{'matchExpressions':[{'key':'k','operator':'Exists'}]}]},'preferredDuringSchedulingIgnoredDuringExecution':"
                + "[{'weight':1,'preference':{'matchFields':[{'key':'metadata.name','operator':'In','values':['n']}]}}]},"
                + "'podAntiAffinity':{'preferredDuringSchedulingIgnoredDuringExecution':[{'weight':5,'podAffinityTerm':"
                + "{'topologyKey':'zone','labelSelector':{'matchExpressions':[{'key':'app','operator':'Exists'}]}}}]}},"
                + "'resourceClaims':[{'name':'gpu','resourceClaimName':'gpu-claim'}]}}";
        String badPod = "{'metadata':{'name':'b','namespace':'ns'},'spec':{"
                + "'containers':[{'name':'c'},{'name':'d','resources':{'limits':{'memory':'lots'}},'ports':[{},{'protocol':'QUIC'}]}],"
                + "'tolerations':[{'key':'k'},{'operator':'Equal'}],"
                + "'affinity':{'podAffinity':{'requiredDuringSchedulingIgnoredDuringExecution':[{'topologyKey':'zone'},"
                + "{'topologyKey':'zone','namespaceSelector':{'matchExpressions':[{'key':'','operator':'In'}]}}]}},"
                + "'resourceClaims':[{'name':'x','resourceClaimName':'a','resourceClaimTemplateName':'b'}]}}";
        Causes causes = validator.validate(read("{'snapshot':{'nodes':[" + NODE + ",{'metadata':{'name':'n2'},"
                + "'spec':{'taints':[{'key':'k','effect':'NoSchedule'},{'key':'k'}]},'status':{'capacity':{'cpu':'x'}}}],"
                + "'pods':[" + validPod + "," + badPod + "]}}"));
        assertThat(causes.list()).extracting(Cause::reason, Cause::field).containsExactly(
                tuple(REQUIRED, "snapshot.nodes[1].spec.taints[1].effect"),
                tuple(INVALID, "snapshot.nodes[1].status.capacity[cpu]"),
                tuple(INVALID, "snapshot.pods[1].spec.containers[1].resources.limits[memory]"),
                tuple(NOT_SUPPORTED, "snapshot.pods[1].spec.containers[1].ports[1].protocol"),
                tuple(REQUIRED, "snapshot.pods[1].spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[1]"
                        + ".namespaceSelector.matchExpressions[0].key"),
                tuple(INVALID, "snapshot.pods[1].spec.tolerations[1].operator"),
                tuple(INVALID, "snapshot.pods[1].spec.resourceClaims[0]"));
    }

    @Test
    void causesAreCappedButCounted() throws Exception {
        RequestValidator capped = new RequestValidator(new ValidationLimits(10, 10, 10, 10, 2));
        Causes causes = capped.validate(read("{'snapshot':{'nodes':[{},{},{},{}]}}"));
        assertThat(causes.list()).hasSize(2);
        assertThat(causes.total()).isEqualTo(4);
    }

    @Test
    void tooManyUsesTheUpstreamWording() throws Exception {
        Causes causes = validator.validate(read(group("{'schedulingPolicy':{'basic':{}},'schedulingConstraints':{'topology':[{'key':'a'},{'key':'b'}]}}")));
        assertThat(causes.list().get(0).message()).isEqualTo("must have at most 1 item");
        assertThat(causes.list().get(0).summary()).endsWith("Too many: 2: must have at most 1 item");
    }

    private static RequestDocument read(String json) throws Exception {
        return CODEC.readJson(json.replace('\'', '"').getBytes(StandardCharsets.UTF_8));
    }
}
