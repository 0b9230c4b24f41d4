package dev.muster.adapter.grpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.google.rpc.BadRequest;
import dev.muster.grpc.v1.DecideResponse;
import dev.muster.grpc.v1.DecisionServiceGrpc;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * docs/api.md's gRPC promise checked from outside, same instance, same bytes in: for every golden case and for
 * generated random clusters, gRPC {@code Decide} (its proto3 JSON form) and REST {@code POST /v1/decisions} carry the
 * same decisions; for invalid requests, the BadRequest field violations carry the REST 422 causes: same paths,
 * reasons, messages.
 */
@QuarkusTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GrpcRestParityTest {
    private static final Path GOLDEN = Paths.get("src", "test", "resources", "golden");

    private ManagedChannel channel;
    private DecisionServiceGrpc.DecisionServiceBlockingStub stub;

    @BeforeAll
    void connect() {
        channel = GrpcChannels.open();
        stub = DecisionServiceGrpc.newBlockingStub(channel).withDeadlineAfter(120, TimeUnit.SECONDS);
    }

    @AfterAll
    void disconnect() throws InterruptedException {
        GrpcChannels.close(channel);
    }

    private static Response rest(String path, String json) {
        return given().contentType("application/json").body(RandomSnapshots.bytes(json)).post(path);
    }

    private JsonNode grpcDecide(String json) throws Exception {
        DecideResponse r = stub.decide(GrpcRequestMapperTest.parse(json));
        return Proto3Json.normalize(Proto3Json.of(r));
    }

    private static JsonNode restDecide(String json) throws Exception {
        Response r = rest("/v1/decisions", json);
        assertThat(r.statusCode()).as(r.asString()).isEqualTo(200);
        return Proto3Json.normalize(Proto3Json.JSON.readTree(r.asByteArray()));
    }

    @TestFactory
    Stream<DynamicTest> everyGoldenCaseDecidesAsRestAndAsExpected() throws Exception {
        List<Path> cases = new ArrayList<>();
        try (Stream<Path> dirs = Files.list(GOLDEN)) {
            dirs.filter(Files::isDirectory).sorted().forEach(cases::add);
        }
        assertThat(cases).isNotEmpty();
        return cases.stream().map(dir -> DynamicTest.dynamicTest(dir.getFileName().toString(), () -> {
            String json = requestJson(dir);
            JsonNode grpc = grpcDecide(json);
            assertThat(grpc).isEqualTo(restDecide(json));
            assertThat(grpc).isEqualTo(Proto3Json.normalize(Proto3Json.JSON.readTree(dir.resolve("expected.json").toFile())));
            assertThat(grpc.path("decisions")).isNotEmpty();
        }));
    }

    private static String requestJson(Path dir) throws Exception {
        Path json = dir.resolve("request.json");
        if (Files.exists(json)) {
            return Files.readString(json);
        }
        JsonNode yaml = new YAMLMapper().readTree(dir.resolve("request.yaml").toFile());
        return Proto3Json.JSON.writeValueAsString(yaml);
    }

    private final Set<String> outcomes = new TreeSet<>();

    @ParameterizedTest(name = "random cluster, seed {0}")
    @ValueSource(longs = {101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118,
            119, 120})
    void randomClustersDecideAsRest(long seed) throws Exception {
        String json = RandomSnapshots.small(seed);
        JsonNode grpc = grpcDecide(json);
        assertThat(grpc).isEqualTo(restDecide(json));
        grpc.path("decisions").forEach(d -> outcomes.add(d.path("outcome").asText()));
    }

    @AfterAll
    void theRandomClustersCoveredSeveralOutcomes() {
        assertThat(outcomes).as("outcomes seen across the random clusters").hasSizeGreaterThanOrEqualTo(2);
    }

    @Test
    void withExplainTheDecisionsStillMatch() throws Exception {
        String json = RandomSnapshots.small(7).replace("\"options\":{", "\"options\":{\"explain\":true,");
        JsonNode grpc = grpcDecide(json);
        assertThat(grpc).isEqualTo(restDecide(json));
        assertThat(grpc.findValues("explanation")).isNotEmpty();
    }

    /**
     * {@code allocatable: {}} means "nothing allocatable" over REST; over gRPC an empty map needs
     * {@code allocatable_set} to say so (proto3 maps carry no presence). Then both decide alike: nothing fits.
     */
    @Test
    void anEmptyAllocatableDecidesAsRest() throws Exception {
        String rest = ("{'snapshot':{'nodes':[{'metadata':{'name':'n1'},'status':{'allocatable':{},"
                + "'capacity':{'cpu':'8','memory':'32Gi','pods':'110'}}}],"
                + "'pods':[{'metadata':{'name':'p0','namespace':'ns'},'spec':{'containers':[{'name':'c',"
                + "'resources':{'requests':{'cpu':'1'}}}],'schedulingGroup':{'podGroupName':'pg'}},"
                + "'status':{'phase':'Pending'}}],"
                + "'podGroups':[{'metadata':{'name':'pg','namespace':'ns'},'spec':{'schedulingPolicy':{'basic':{}}}}]}}")
                .replace('\'', '"');
        JsonNode viaRest = restDecide(rest);
        assertThat(viaRest.path("decisions").get(0).path("outcome").asText()).isEqualTo("Unschedulable");
        assertThat(grpcDecide(rest.replace("\"allocatable\":{}", "\"allocatable\":{},\"allocatableSet\":true")))
                .isEqualTo(viaRest);
        // Without the presence field the empty map is "not set": capacity is used and the pod fits.
        assertThat(grpcDecide(rest).path("decisions").get(0).path("outcome").asText()).isEqualTo("Scheduled");
    }

    /**
     * DRA over gRPC: two nodes with an 8-GPU ResourceSlice each, a DeviceClass with a CEL selector, templates, a gang
     * whose members each get a claim from a template, and a PodGroup-level claim the members share. gRPC decides as
     * REST, claims included; also with one member fewer (a gang of 3).
     */
    @Test
    void aDraGangDecidesAsRestClaimsIncluded() throws Exception {
        String json = Files.readString(GrpcRequestMapperTest.DRA_GOLDEN);
        ObjectNode doc = (ObjectNode) Proto3Json.JSON.readTree(json);
        assertThat(doc.at("/snapshot/deviceClasses/0/spec/selectors/0/cel/expression").asText())
                .isEqualTo("device.driver == 'gpu.example.com'");
        assertThat(doc.at("/snapshot/resourceSlices")).hasSize(2);
        assertThat(doc.at("/snapshot/resourceSlices/0/spec/devices")).hasSize(8);
        assertThat(doc.at("/snapshot/podGroups/0/spec/resourceClaims")).hasSize(1);

        JsonNode grpc = grpcDecide(json);
        assertThat(grpc).isEqualTo(restDecide(json));
        JsonNode decision = grpc.path("decisions").get(0);
        assertThat(decision.path("outcome").asText()).isEqualTo("Scheduled");
        assertThat(decision.path("claims")).hasSizeGreaterThan(decision.path("placements").size());
        assertThat(decision.findValues("generatedFrom")).isNotEmpty();
        assertThat(decision.findValues("reservedFor").toString()).contains("podgroups");

        // A gang of 3: the last member removed, minCount 3.
        ArrayNode pods = (ArrayNode) doc.at("/snapshot/pods");
        pods.remove(pods.size() - 1);
        ((ObjectNode) doc.at("/snapshot/podGroups/0/spec/schedulingPolicy/gang")).put("minCount", 3);
        String three = Proto3Json.JSON.writeValueAsString(doc);
        JsonNode grpc3 = grpcDecide(three);
        assertThat(grpc3).isEqualTo(restDecide(three));
        assertThat(grpc3.path("decisions").get(0).path("outcome").asText()).isEqualTo("Scheduled");
        assertThat(grpc3.path("decisions").get(0).path("placements")).hasSize(3);
        assertThat(grpc3.path("decisions").get(0).path("claims")).isNotEmpty();
    }

    /** A DeviceClass selector that does not compile: INVALID_ARGUMENT naming the field REST's 422 names. */
    @Test
    void aSelectorThatDoesNotCompileNamesTheSameFieldAsRest() throws Exception {
        ObjectNode doc = (ObjectNode) Proto3Json.JSON.readTree(Files.readString(GrpcRequestMapperTest.DRA_GOLDEN));
        ((ObjectNode) doc.at("/snapshot/deviceClasses/0/spec/selectors/0/cel")).put("expression", "device.driver ==");
        String json = Proto3Json.JSON.writeValueAsString(doc);
        List<BadRequest.FieldViolation> v = assertSameViolationsAsRest(json);
        assertThat(v).extracting(BadRequest.FieldViolation::getField)
                .contains("snapshot.deviceClasses[0].spec.selectors[0].cel.expression");
    }

    /** REST's 422 causes and gRPC's (Decide and Validate) INVALID_ARGUMENT violations, compared one by one. */
    private List<BadRequest.FieldViolation> assertSameViolationsAsRest(String json) throws Exception {
        Response r = rest("/v1/validations", json);
        assertThat(r.statusCode()).isEqualTo(422);
        JsonNode causes = Proto3Json.JSON.readTree(r.asByteArray()).path("details").path("causes");
        assertThat(causes).isNotEmpty();

        List<BadRequest.FieldViolation> v = List.of();
        for (boolean decide : new boolean[]{true, false}) {
            StatusRuntimeException e = catchThrowableOfType(StatusRuntimeException.class, () -> {
                if (decide) {
                    stub.decide(GrpcRequestMapperTest.parse(json));
                } else {
                    stub.validate(GrpcRequestMapperTest.parse(json));
                }
            });
            assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
            v = Violations.of(e);
            assertThat(v).hasSize(causes.size());
            for (int i = 0; i < v.size(); i++) {
                JsonNode c = causes.get(i);
                assertThat(v.get(i).getField()).isEqualTo(c.path("field").asText());
                assertThat(v.get(i).getReason()).isEqualTo(c.path("reason").asText());
                assertThat(v.get(i).getDescription()).isEqualTo(c.path("reason").asText() + ": " + c.path("message").asText());
            }
        }
        return v;
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
            "{'snapshot':{'nodes':[{'metadata':{'name':'n'}}],'pods':[{'metadata':{'name':'p'},'spec':{'schedulingGroup':{}}}]}}",
            "{}",
            "{'snapshot':{}}",
            "{'snapshot':{'nodes':[{'metadata':{'name':'n'},'status':{'allocatable':{'cpu':'lots','memory':'-1Gi'}}}]}}",
            "{'snapshot':{'nodes':[{'metadata':{'name':'n'}},{'metadata':{'name':'n'}},{'metadata':{}}]},'podGroups':['x','ns/ok']}",
            "{'snapshot':{'nodes':[{'metadata':{'name':'n'},'spec':{'taints':[{'key':'k','effect':'Sometimes'}]}}],"
                    + "'pods':[{'metadata':{'name':'p','namespace':'Bad_NS'},'spec':{'nodeName':'n','schedulingGates':[{'name':'g'}],"
                    + "'tolerations':[{'operator':'Maybe'}],'topologySpreadConstraints':[{'maxSkew':0,'whenUnsatisfiable':'Never'}]}}],"
                    + "'podGroups':[{'metadata':{'name':'g'},'spec':{'schedulingPolicy':{'basic':{},'gang':{'minCount':2}},"
                    + "'disruptionMode':'Everything'}},{'metadata':{'name':'h'}}],"
                    + "'priorityClasses':[{'metadata':{'name':'pc'}}]}}",
            "{'snapshot':{'nodes':[{'metadata':{'name':'n1'}}],'hyperNodes':[{'metadata':{'name':'a'},'spec':{'tier':0,"
                    + "'members':[{'type':'Node','selector':{'exactMatch':{'name':'n1'},'regexMatch':{'pattern':'n'}}},"
                    + "{'type':'Rack','selector':{'regexMatch':{'pattern':'(['}}}]}},{'metadata':{'name':'b'},"
                    + "'spec':{'tier':2,'members':[{'type':'HyperNode','selector':{'labelMatch':{}}}]}}],"
                    + "'podGroups':[{'apiVersion':'scheduling.volcano.sh/v1beta1','metadata':{'name':'g'},'spec':{"
                    + "'minMember':1,'networkTopology':{'mode':'strict','highestTierAllowed':0,'highestTierName':'x'}}}]}}",
            "{'snapshot':{'nodes':[{'metadata':{'name':'n1'}}],'hyperNodes':[{'metadata':{'name':'a'},'spec':{'tier':2,"
                    + "'members':[{'type':'HyperNode','selector':{'exactMatch':{'name':'b'}}}]}},{'metadata':{'name':'b'},"
                    + "'spec':{'tier':1,'members':[{'type':'HyperNode','selector':{'regexMatch':{'pattern':'^a$'}}}]}}]}}"})
    void invalidRequestsNameTheSameFieldsAsRest(String body) throws Exception {
        assertSameViolationsAsRest(body.replace('\'', '"'));
    }
}
