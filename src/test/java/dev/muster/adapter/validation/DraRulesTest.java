package dev.muster.adapter.validation;

import dev.muster.adapter.kube.KubeCodec;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;

import static dev.muster.adapter.validation.Cause.DUPLICATE;
import static dev.muster.adapter.validation.Cause.FORBIDDEN;
import static dev.muster.adapter.validation.Cause.INVALID;
import static dev.muster.adapter.validation.Cause.NOT_SUPPORTED;
import static dev.muster.adapter.validation.Cause.REQUIRED;
import static dev.muster.adapter.validation.Cause.TOO_MANY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/** The DRA objects' rules: each broken rule is one cause with its reason and its path from the request root. */
class DraRulesTest {
    private static final KubeCodec CODEC = new KubeCodec(KubeCodec.Limits.DEFAULT);
    private final RequestValidator validator = new RequestValidator(ValidationLimits.DEFAULT);

    private static String snap(String extra) {
        return "{'snapshot':{'nodes':[{'metadata':{'name':'n1'}}]," + extra + "}}";
    }

    private static String claim(String devices) {
        return snap("'resourceClaims':[{'metadata':{'name':'c','namespace':'ns'},'spec':{'devices':" + devices + "}}]");
    }

    private static String slice(String spec) {
        return snap("'resourceSlices':[{'metadata':{'name':'s'},'spec':" + spec + "}]");
    }

    private static String deviceClass(String expression) {
        return snap("'deviceClasses':[{'metadata':{'name':'gpu'},'spec':{'selectors':[{'cel':{'expression':"
                + "'" + expression + "'}}]}}]");
    }

    private Causes validate(String json) throws Exception {
        return validator.validate(CODEC.readJson(json.replace('\'', '"').getBytes(StandardCharsets.UTF_8)));
    }

    static Stream<Arguments> rules() {
        String exact = "'exactly':{'deviceClassName':'gpu'}";
        String pool = "'pool':{'name':'p','resourceSliceCount':1}";
        return Stream.of(
                Arguments.of("a request with neither exactly nor firstAvailable", claim("{'requests':[{'name':'r'}]}"),
                        REQUIRED, "snapshot.resourceClaims[0].spec.devices.requests[0]"),
                Arguments.of("two requests with one name", claim("{'requests':[{'name':'r'," + exact + "},{'name':'r',"
                        + exact + "}]}"), DUPLICATE, "snapshot.resourceClaims[0].spec.devices.requests[1].name"),
                Arguments.of("a request without a device class", claim("{'requests':[{'name':'r','exactly':{}}]}"),
                        REQUIRED, "snapshot.resourceClaims[0].spec.devices.requests[0].exactly.deviceClassName"),
                Arguments.of("an unknown allocation mode", claim("{'requests':[{'name':'r','exactly':{"
                        + "'deviceClassName':'gpu','allocationMode':'Some'}}]}"), NOT_SUPPORTED,
                        "snapshot.resourceClaims[0].spec.devices.requests[0].exactly.allocationMode"),
                Arguments.of("a count of zero", claim("{'requests':[{'name':'r','exactly':{'deviceClassName':'gpu',"
                        + "'count':0}}]}"), INVALID, "snapshot.resourceClaims[0].spec.devices.requests[0].exactly.count"),
                Arguments.of("a count in All mode", claim("{'requests':[{'name':'r','exactly':{'deviceClassName':'gpu',"
                        + "'allocationMode':'All','count':2}}]}"), INVALID,
                        "snapshot.resourceClaims[0].spec.devices.requests[0].exactly.count"),
                Arguments.of("nine subrequests", claim("{'requests':[{'name':'r','firstAvailable':["
                        + "{'name':'a','deviceClassName':'g'},".repeat(8) + "{'name':'i','deviceClassName':'g'}]}]}"),
                        TOO_MANY, "snapshot.resourceClaims[0].spec.devices.requests[0].firstAvailable"),
                Arguments.of("a constraint naming an unknown request", claim("{'requests':[{'name':'r'," + exact + "}],"
                        + "'constraints':[{'requests':['x'],'matchAttribute':'gpu.example.com/numa'}]}"), INVALID,
                        "snapshot.resourceClaims[0].spec.devices.constraints[0].requests[0]"),
                Arguments.of("a constraint with both attributes", claim("{'requests':[{'name':'r'," + exact + "}],"
                        + "'constraints':[{'matchAttribute':'a/b','distinctAttribute':'a/c'}]}"), REQUIRED,
                        "snapshot.resourceClaims[0].spec.devices.constraints[0]"),
                Arguments.of("a driver version that is not a semantic version (a leading zero)",
                        slice("{'driver':'gpu.example.com','nodeName':'n1'," + pool + ",'devices':[{'name':'gpu-0',"
                                + "'attributes':{'driverVersion':{'version':'570.124.06'}}}]}"), INVALID,
                        "snapshot.resourceSlices[0].spec.devices[0].attributes[driverVersion].version"),
                Arguments.of("a slice without a driver", slice("{" + pool + ",'nodeName':'n1'}"), REQUIRED,
                        "snapshot.resourceSlices[0].spec.driver"),
                Arguments.of("a slice on no node", slice("{'driver':'gpu.example.com'," + pool + "}"), REQUIRED,
                        "snapshot.resourceSlices[0].spec"),
                Arguments.of("a slice with a zero slice count", slice("{'driver':'gpu.example.com','nodeName':'n1',"
                        + "'pool':{'name':'p','resourceSliceCount':0}}"), INVALID,
                        "snapshot.resourceSlices[0].spec.pool.resourceSliceCount"),
                Arguments.of("two devices with one name", slice("{'driver':'gpu.example.com','nodeName':'n1'," + pool
                        + ",'devices':[{'name':'d'},{'name':'d'}]}"), DUPLICATE,
                        "snapshot.resourceSlices[0].spec.devices[1].name"),
                Arguments.of("an attribute with two values", slice("{'driver':'gpu.example.com','nodeName':'n1'," + pool
                        + ",'devices':[{'name':'d','attributes':{'numa':{'int':1,'string':'x'}}}]}"), INVALID,
                        "snapshot.resourceSlices[0].spec.devices[0].attributes[numa]"),
                Arguments.of("a capacity that is not a quantity", slice("{'driver':'gpu.example.com','nodeName':'n1',"
                        + pool + ",'devices':[{'name':'d','capacity':{'memory':{'value':'lots'}}}]}"), INVALID,
                        "snapshot.resourceSlices[0].spec.devices[0].capacity[memory].value"),
                Arguments.of("a device selecting its node without per-device selection", slice("{'driver':'g.example',"
                        + "'nodeName':'n1'," + pool + ",'devices':[{'name':'d','allNodes':true}]}"), FORBIDDEN,
                        "snapshot.resourceSlices[0].spec.devices[0]"),
                Arguments.of("a selector that does not compile", deviceClass("device.driver =="), INVALID,
                        "snapshot.deviceClasses[0].spec.selectors[0].cel.expression"),
                Arguments.of("a selector of the wrong type", deviceClass("device.attributes"), INVALID,
                        "snapshot.deviceClasses[0].spec.selectors[0].cel.expression"),
                Arguments.of("an extended resource name without a domain", snap("'deviceClasses':[{'metadata':"
                        + "{'name':'gpu'},'spec':{'extendedResourceName':'gpu'}}]"), INVALID,
                        "snapshot.deviceClasses[0].spec.extendedResourceName"),
                Arguments.of("an extended resource name in Kubernetes' own domain", snap("'deviceClasses':[{'metadata':"
                        + "{'name':'gpu'},'spec':{'extendedResourceName':'kubernetes.io/gpu'}}]"), INVALID,
                        "snapshot.deviceClasses[0].spec.extendedResourceName"),
                Arguments.of("a template without its claim spec", snap("'resourceClaimTemplates':[{'metadata':"
                        + "{'name':'t','namespace':'ns'},'spec':{}}]"), REQUIRED,
                        "snapshot.resourceClaimTemplates[0].spec.spec"),
                Arguments.of("an extended-resource claim status without a claim name",
                        extendedStatus("'requestMappings':[" + mapping("main", "example.com/gpu", "r") + "]"),
                        REQUIRED, "snapshot.pods[0].status.extendedResourceClaimStatus.resourceClaimName"),
                Arguments.of("an extended-resource claim status with an empty claim name",
                        extendedStatus("'resourceClaimName':'','requestMappings':["
                                + mapping("main", "example.com/gpu", "r") + "]"),
                        REQUIRED, "snapshot.pods[0].status.extendedResourceClaimStatus.resourceClaimName"),
                Arguments.of("an extended-resource claim name that is not a DNS subdomain",
                        extendedStatus("'resourceClaimName':'P_claim','requestMappings':["
                                + mapping("main", "example.com/gpu", "r") + "]"),
                        INVALID, "snapshot.pods[0].status.extendedResourceClaimStatus.resourceClaimName"),
                Arguments.of("an extended-resource claim status without mappings",
                        extendedStatus("'resourceClaimName':'p-er','requestMappings':[]"),
                        REQUIRED, "snapshot.pods[0].status.extendedResourceClaimStatus.requestMappings"),
                Arguments.of("a mapping naming a container the pod does not have",
                        extendedStatus("'resourceClaimName':'p-er','requestMappings':["
                                + mapping("sidecar", "example.com/gpu", "r") + "]"),
                        INVALID, "snapshot.pods[0].status.extendedResourceClaimStatus.requestMappings[0].containerName"),
                Arguments.of("a mapping of a resource without a domain",
                        extendedStatus("'resourceClaimName':'p-er','requestMappings':["
                                + mapping("main", "gpu", "r") + "]"),
                        INVALID, "snapshot.pods[0].status.extendedResourceClaimStatus.requestMappings[0].resourceName"),
                Arguments.of("a mapping whose request name is not a DNS label",
                        extendedStatus("'resourceClaimName':'p-er','requestMappings':["
                                + mapping("main", "example.com/gpu", "Request_0") + "]"),
                        INVALID, "snapshot.pods[0].status.extendedResourceClaimStatus.requestMappings[0].requestName"),
                Arguments.of("a container's resource mapped twice",
                        extendedStatus("'resourceClaimName':'p-er','requestMappings':["
                                + mapping("main", "example.com/gpu", "a") + ","
                                + mapping("main", "example.com/gpu", "b") + "]"),
                        DUPLICATE, "snapshot.pods[0].status.extendedResourceClaimStatus.requestMappings[1]"),
                Arguments.of("an owner reference without a uid", ownedClaim(owner("v1", "Pod", "p", "", true)),
                        INVALID, "snapshot.resourceClaims[0].metadata.ownerReferences[0].uid"),
                Arguments.of("an owner reference without a name", ownedClaim(owner("v1", "Pod", "", "u", true)),
                        INVALID, "snapshot.resourceClaims[0].metadata.ownerReferences[0].name"),
                Arguments.of("an owner reference without a kind", ownedClaim(owner("v1", "", "p", "u", true)),
                        INVALID, "snapshot.resourceClaims[0].metadata.ownerReferences[0].kind"),
                Arguments.of("an owner reference whose apiVersion has no version",
                        ownedClaim(owner("apps/", "Pod", "p", "u", true)),
                        INVALID, "snapshot.resourceClaims[0].metadata.ownerReferences[0].apiVersion"),
                Arguments.of("an owner reference whose apiVersion cannot be parsed",
                        ownedClaim(owner("a/b/v1", "Pod", "p", "u", true)),
                        INVALID, "snapshot.resourceClaims[0].metadata.ownerReferences[0].apiVersion"),
                Arguments.of("an Event as owner", ownedClaim(owner("v1", "Event", "e", "u", false)),
                        INVALID, "snapshot.resourceClaims[0].metadata.ownerReferences[0]"),
                Arguments.of("two controlling owners", ownedClaim(owner("v1", "Pod", "p", "u", true) + ","
                        + owner("batch/v1", "Job", "j", "v", true)),
                        INVALID, "snapshot.resourceClaims[0].metadata.ownerReferences"));
    }

    /** A claim with these owner references (and the extended-resource annotation). */
    private static String ownedClaim(String owners) {
        return snap("'resourceClaims':[{'metadata':{'name':'c','namespace':'ns','annotations':{"
                + "'resource.kubernetes.io/extended-resource-claim':'true'},'ownerReferences':[" + owners + "]},"
                + "'spec':{'devices':{'requests':[{'name':'container-0-request-0','exactly':{'deviceClassName':'gpu'}}]}}}]");
    }

    private static String owner(String apiVersion, String kind, String name, String uid, boolean controller) {
        return "{'apiVersion':'" + apiVersion + "','kind':'" + kind + "','name':'" + name + "','uid':'" + uid
                + "','controller':" + controller + ",'blockOwnerDeletion':true}";
    }

    @Test
    @DisplayName("a claim owned by its pod and a job, one of them the controller, is valid; the second controller's "
            + "message is the API server's")
    void ownerReferences() throws Exception {
        assertThat(validate(ownedClaim(owner("v1", "Pod", "p", "u", true) + ","
                + owner("batch/v1", "Job", "j", "v", false))).list()).isEmpty();
        assertThat(validate(ownedClaim(owner("v1", "Pod", "p", "u", true) + ","
                + owner("batch/v1", "Job", "j", "v", true))).list()).extracting(Cause::message)
                .containsExactly("Only one reference can have Controller set to true. Found \"true\" in references for "
                        + "Pod/p and Job/j");
    }

    /** A pod with containers "init" (init) and "main" whose status is {@code {'extendedResourceClaimStatus':{...}}}. */
    private static String extendedStatus(String body) {
        return snap("'pods':[{'metadata':{'name':'p','namespace':'ns'},'spec':{'initContainers':[{'name':'init'}],"
                + "'containers':[{'name':'main'}]},'status':{'extendedResourceClaimStatus':{" + body + "}}}]");
    }

    private static String mapping(String container, String resource, String request) {
        return "{'containerName':'" + container + "','resourceName':'" + resource + "','requestName':'" + request + "'}";
    }

    @Test
    @DisplayName("an extended-resource claim status naming a claim and mapping the init and main containers is valid")
    void validExtendedClaimStatus() throws Exception {
        assertThat(validate(extendedStatus("'resourceClaimName':'p-extended-resources-x7k2p','requestMappings':["
                + mapping("init", "example.com/gpu", "container-0-request-0") + ","
                + mapping("main", "example.com/gpu", "container-1-request-0") + "]")).list()).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rules")
    void reportsTheRuleWithItsReasonAndFieldPath(String name, String json, String reason, String field)
            throws Exception {
        assertThat(validate(json).list()).extracting(Cause::reason, Cause::field).containsExactly(tuple(reason, field));
    }

    @Test
    @DisplayName("a selector's compile error reaches the cause with the compiler's own words")
    void compilerMessage() throws Exception {
        Causes causes = validate(deviceClass("device.nosuchfield == 1"));
        assertThat(causes.list()).singleElement().satisfies(c -> assertThat(c.message())
                .contains("compilation failed").contains("nosuchfield"));
    }

    @Test
    @DisplayName("a 10,241-character selector is refused as too long, not compiled")
    void longSelector() throws Exception {
        String expression = "true" + " ".repeat(10_237);
        assertThat(expression).hasSize(10_241);
        Causes causes = validate(deviceClass(expression));
        assertThat(causes.list()).singleElement().satisfies(c -> {
            assertThat(c.field()).isEqualTo("snapshot.deviceClasses[0].spec.selectors[0].cel.expression");
            assertThat(c.message()).contains("Too long");
        });
    }

    @Test
    @DisplayName("the DRA objects of a realistic GPU request are valid")
    void realisticRequestIsValid() throws Exception {
        byte[] body = java.nio.file.Files.readAllBytes(java.nio.file.Path.of("src/test/resources/golden",
                "a GPU gang with a claim per pod and a shared PodGroup claim lands on the node of the shared device",
                "request.json"));
        assertThat(validator.validate(CODEC.readJson(body)).list()).isEmpty();
    }
}
