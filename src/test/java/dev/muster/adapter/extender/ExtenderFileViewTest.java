package dev.muster.adapter.extender;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static dev.muster.adapter.extender.Fixtures.gang;
import static dev.muster.adapter.extender.Fixtures.node;
import static dev.muster.adapter.extender.Fixtures.pod;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Group-consistent filter and prioritize over the snapshot-file cluster view, through HTTP as the scheduler calls
 * them. The view: two racks of four 4-cpu nodes; gang {@code ml/train} (4 × 3 cpu, minCount 4, one rack),
 * gang {@code ml/huge} (4 × 5 cpu: fits nowhere), gang {@code ml/solo} (minCount 3, one member).
 */
@QuarkusTest
@TestProfile(ExtenderFileViewTest.FileView.class)
class ExtenderFileViewTest {
    static final Path FILE;

    static {
        try {
            // A fixed path: Quarkus loads this class twice (JUnit's and its own class loader), so a random temp
            // directory would give the application and the test methods two different files.
            FILE = Path.of("target", "extender-file-view", "snapshot.json").toAbsolutePath();
            Files.createDirectories(FILE.getParent());
            Fixtures.write(FILE, baseSnapshot());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static class FileView implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("muster.cluster-view.source", "file",
                    "muster.cluster-view.file", FILE.toString(),
                    "muster.cluster-view.file-check-interval", "0s",
                    "muster.extender.view-max-staleness", "0s",
                    // other worktrees run tests on this machine too: never collide on 8081
                    "quarkus.http.test-port", "0");
        }
    }

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final List<String> ALL = List.of("a1", "a2", "a3", "a4", "b1", "b2", "b3", "b4");

    @Inject
    ExtenderResource resource;

    static List<String> members(String group, String cpu) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            out.add(pod("ml", group + "-" + i, group, cpu));
        }
        return out;
    }

    static String baseSnapshot() {
        return snapshot(Fixtures.twoRacks());
    }

    static String snapshot(List<String> nodes) {
        List<String> pods = new ArrayList<>(members("train", "3"));
        pods.addAll(members("huge", "5"));
        pods.add(pod("ml", "solo-0", "solo", "1"));
        return Fixtures.snapshot(nodes, pods, List.of(gang("ml", "train", 4, Fixtures.RACK),
                gang("ml", "huge", 4, null), gang("ml", "solo", 3, null)));
    }

    @BeforeEach
    void resetView() throws IOException {
        Fixtures.write(FILE, baseSnapshot());
    }

    static String argsWithNames(String podJson, List<String> names) {
        return "{\"Pod\":" + podJson + ",\"Nodes\":null,\"NodeNames\":[\"" + String.join("\",\"", names) + "\"]}";
    }

    static JsonNode post(String verb, String body) {
        String out = given().contentType("application/json").body(body).post("/extender/" + verb)
                .then().statusCode(200).extract().asString();
        try {
            return JSON.readTree(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    static Set<String> keys(JsonNode map) {
        Set<String> out = new TreeSet<>();
        for (Iterator<String> it = map.fieldNames(); it.hasNext(); ) {
            out.add(it.next());
        }
        return out;
    }

    /** The one node filter keeps for a train member, after checking the rest of the answer. */
    static String plannedNode(int member) {
        JsonNode r = post("filter", argsWithNames(pod("ml", "train-" + member, "train", "3"), ALL));
        assertThat(r.get("Error").asText()).isEmpty();
        assertThat(r.get("Nodes").isNull()).isTrue();
        List<String> kept = strings(r.get("NodeNames"));
        assertThat(kept).hasSize(1);
        String node = kept.get(0);
        Set<String> others = new TreeSet<>(ALL);
        others.remove(node);
        assertThat(keys(r.get("FailedNodes"))).isEqualTo(others);
        assertThat(r.get("FailedNodes").get(others.iterator().next()).asText())
                .isEqualTo("pod group \"ml/train\" places this pod on node \"" + node + "\"");
        assertThat(keys(r.get("FailedAndUnresolvableNodes"))).isEmpty();
        return node;
    }

    @Test
    void rackGangMembersAreEachFilteredToOneNodeAllInOneRackAndTheAnswerIsStable() {
        long before = resource.decisionsComputed();
        List<String> planned = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            planned.add(plannedNode(i));
        }
        assertThat(new HashSet<>(planned)).as("one member per 4-cpu node").hasSize(4);
        Set<Character> racks = new HashSet<>();
        planned.forEach(n -> racks.add(n.charAt(0)));
        assertThat(racks).as("rack constraint").hasSize(1);
        for (int round = 0; round < 2; round++) {
            for (int i = 0; i < 4; i++) {
                assertThat(plannedNode(i)).isEqualTo(planned.get(i));
            }
        }
        assertThat(resource.decisionsComputed() - before).as("one decision shared by all calls").isEqualTo(1);
    }

    @Test
    void fullNodesModeAnswersWithTheNodeObjects() {
        String planned = plannedNode(2);
        List<String> items = Fixtures.twoRacks();
        String body = "{\"Pod\":" + pod("ml", "train-2", "train", "3") + ",\"Nodes\":{\"metadata\":{},\"items\":["
                + String.join(",", items) + "]},\"NodeNames\":null}";
        JsonNode r = post("filter", body);
        assertThat(r.get("NodeNames").isNull()).isTrue();
        assertThat(r.get("Nodes").get("items")).hasSize(1);
        JsonNode kept = r.get("Nodes").get("items").get(0);
        assertThat(kept.get("metadata").get("name").asText()).isEqualTo(planned);
        assertThat(kept.get("metadata").get("labels").get(Fixtures.RACK).asText()).startsWith("rack-");
        assertThat(keys(r.get("FailedNodes"))).hasSize(7);
    }

    @Test
    void prioritizeGivesThePlannedNodeTheTopScore() {
        String planned = plannedNode(1);
        JsonNode r = post("prioritize", argsWithNames(pod("ml", "train-1", "train", "3"), ALL));
        assertThat(r.size()).isEqualTo(8);
        for (JsonNode hp : r) {
            assertThat(hp.get("Score").asLong()).isEqualTo(hp.get("Host").asText().equals(planned) ? 10 : 0);
        }
        assertThat(r.get(0).get("Host").asText()).isEqualTo("a1");
    }

    @Test
    void anInfeasibleGangFailsEveryNodeWithTheDecisionMessage() {
        JsonNode r = post("filter", argsWithNames(pod("ml", "huge-0", "huge", "5"), ALL));
        assertThat(strings(r.get("NodeNames"))).isEmpty();
        assertThat(keys(r.get("FailedNodes"))).containsExactlyElementsOf(ALL);
        assertThat(keys(r.get("FailedAndUnresolvableNodes"))).isEmpty();
        String msg = r.get("FailedNodes").get("b3").asText();
        assertThat(msg).startsWith("pod group \"ml/huge\": ").contains("Insufficient cpu");
        JsonNode scores = post("prioritize", argsWithNames(pod("ml", "huge-0", "huge", "5"), ALL));
        scores.forEach(hp -> assertThat(hp.get("Score").asLong()).isZero());
    }

    @Test
    void aGangWaitingForMembersIsUnresolvableEverywhere() {
        JsonNode r = post("filter", argsWithNames(pod("ml", "solo-0", "solo", "1"), ALL));
        assertThat(strings(r.get("NodeNames"))).isEmpty();
        assertThat(keys(r.get("FailedNodes"))).isEmpty();
        assertThat(keys(r.get("FailedAndUnresolvableNodes"))).containsExactlyElementsOf(ALL);
        assertThat(r.get("FailedAndUnresolvableNodes").get("a1").asText()).startsWith("pod group \"ml/solo\": ");
    }

    @Test
    void aPodInNoGroupPassesEveryNode() {
        JsonNode r = post("filter", argsWithNames(pod("web", "nginx", null, "1"), ALL));
        assertThat(strings(r.get("NodeNames"))).containsExactlyElementsOf(ALL);
        assertThat(keys(r.get("FailedNodes"))).isEmpty();
        assertThat(r.get("Error").asText()).isEmpty();
    }

    @Test
    void aPlannedNodeMissingFromTheCandidatesFailsEveryCandidate() {
        String planned = plannedNode(0);
        List<String> without = new ArrayList<>(ALL);
        without.remove(planned);
        JsonNode r = post("filter", argsWithNames(pod("ml", "train-0", "train", "3"), without));
        assertThat(strings(r.get("NodeNames"))).isEmpty();
        assertThat(keys(r.get("FailedNodes"))).containsExactlyElementsOf(without);
        assertThat(r.get("FailedNodes").get(without.get(0)).asText()).contains("\"" + planned + "\"")
                .contains("not among the candidate nodes");
    }

    @Test
    void reloadingTheFileChangesTheAnswer() throws IOException {
        String planned = plannedNode(0);
        char rack = planned.charAt(0);
        char other = rack == 'a' ? 'b' : 'a';
        List<String> remaining = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int i = 1; i <= 4; i++) {
            remaining.add(node(other + "" + i, "rack-" + other, "4"));
            names.add(other + "" + i);
        }
        Fixtures.write(FILE, snapshot(remaining));
        JsonNode r = post("filter", argsWithNames(pod("ml", "train-0", "train", "3"), names));
        List<String> kept = strings(r.get("NodeNames"));
        assertThat(kept).hasSize(1);
        assertThat(kept.get(0).charAt(0)).isEqualTo(other);
    }

    @Test
    void anInvalidFileKeepsThePreviousView() throws IOException {
        String planned = plannedNode(3);
        Fixtures.write(FILE, "{\"nodes\": [ {\"metadata\": {\"name\": 5}} ]");
        assertThat(plannedNode(3)).isEqualTo(planned);
    }

    @Test
    void aFileThatFailsValidationKeepsThePreviousView() throws IOException {
        String planned = plannedNode(1);
        char other = planned.charAt(0) == 'a' ? 'b' : 'a';
        List<String> remaining = new ArrayList<>();
        for (int i = 1; i <= 4; i++) {
            remaining.add(node(other + "" + i, "rack-" + other, "4"));
        }
        // decodes and compiles, but a schedulingPolicy with neither basic nor gang breaks the API's union rule:
        // were it accepted, train-1 would move to the other rack
        String invalid = snapshot(remaining).replace("\"podGroups\":[",
                "\"podGroups\":[{\"metadata\":{\"name\":\"bad\",\"namespace\":\"ml\"},"
                        + "\"spec\":{\"schedulingPolicy\":{}}},");
        Fixtures.write(FILE, invalid);
        assertThat(plannedNode(1)).isEqualTo(planned);
    }

    @Test
    void unreadableRequestsAnswerWithError() {
        JsonNode r = post("filter", "{\"Pod\": 42}");
        assertThat(r.get("Error").asText()).startsWith("cannot decode ExtenderArgs");
        JsonNode noNodes = post("filter", "{\"Pod\":" + pod("ml", "train-0", "train", "3") + "}");
        assertThat(noNodes.get("Error").asText()).isEqualTo("ExtenderArgs has neither Nodes nor NodeNames");
        given().contentType("application/json").body("{").post("/extender/prioritize").then().statusCode(400);
    }

    @Test
    void bindWithoutAKubernetesSourceAnswersError() {
        JsonNode r = post("bind", "{\"PodName\":\"train-0\",\"PodNamespace\":\"ml\",\"PodUID\":\"u\",\"Node\":\"a1\"}");
        assertThat(r.get("Error").asText()).isEqualTo("binding requires muster.cluster-view.source=kubernetes");
    }
}
