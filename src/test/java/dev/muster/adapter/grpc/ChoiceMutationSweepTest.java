package dev.muster.adapter.grpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.rpc.BadRequest;
import dev.muster.adapter.RequestMutations;
import dev.muster.adapter.RequestMutations.Change;
import dev.muster.adapter.RequestMutations.Variant;
import dev.muster.adapter.grpc.RequestMutationSweepTest.Answer;
import dev.muster.grpc.v1.ChooseClusterRequest;
import dev.muster.grpc.v1.DecisionServiceGrpc;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link RequestMutationSweepTest} for {@code POST /v1/cluster-choices} and gRPC {@code ChooseCluster}: the REST
 * example, its workload given also a Job without its pods, a PodDisruptionBudget, a claim, a claim template and a
 * CompositePodGroup with a child PodGroup and its pod, with every object- and list-valued field removed, nulled and
 * retyped (the clusters, each cluster's snapshot and its lists, the workload and its lists and every object in them,
 * the options). Whatever the variant, the answer is the client's: never a 5xx, INTERNAL or UNKNOWN; a 422 whose
 * causes name a field path from the request root; a 200 only where the change left a valid request. gRPC agrees
 * wherever proto3 JSON can carry the variant (a variant that parses to the request of an earlier one, a field nulled
 * rather than left out, is answered once). The walk changes objects and lists, not scalars: a Job's
 * {@code parallelism} far over the pod limit is {@link GrpcChooseClusterTest}'s.
 */
@QuarkusTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ChoiceMutationSweepTest {
    private static final String PATH = "/v1/cluster-choices";
    /** A path from the request root: {@code clusters[1].snapshot.nodes[0]}, {@code workload.jobs[0].spec}. */
    private static final Pattern FIELD = Pattern.compile("(clusters|workload|options)([.\\[].*)?");

    private ManagedChannel channel;

    @BeforeAll
    void connect() {
        channel = GrpcChannels.open();
    }

    @AfterAll
    void disconnect() throws InterruptedException {
        GrpcChannels.close(channel);
    }

    /** The REST example with the sweep's extra workload objects added after its workload's own. */
    static JsonNode request() throws Exception {
        ObjectNode root = (ObjectNode) RequestMutations.JSON.readTree(Files.readString(GrpcChooseClusterTest.EXAMPLE));
        ObjectNode workload = (ObjectNode) root.path("workload");
        Iterator<Map.Entry<String, JsonNode>> extra = RequestMutations.load("sweep/cluster-choices-workload.json")
                .fields();
        extra.forEachRemaining(e -> {
            if (workload.path(e.getKey()).isArray()) {
                ((ArrayNode) workload.get(e.getKey())).addAll((ArrayNode) e.getValue());
            } else {
                workload.set(e.getKey(), e.getValue());
            }
        });
        return root;
    }

    /** gRPC answers by request: proto3 JSON reads a field set to null as one left out, the same message. */
    private final Map<ChooseClusterRequest, Answer> answered = new HashMap<>();

    /** The gRPC answer, or null when proto3 JSON cannot carry the variant (the client could not send it). */
    private Answer grpc(String json, List<String> failures, Variant v) throws Exception {
        ChooseClusterRequest request;
        try {
            request = GrpcChooseClusterTest.parse(json);
        } catch (Exception e) {
            return null;
        }
        Answer known = answered.get(request);
        if (known != null) {
            return known;
        }
        Answer a = call(request, failures, v);
        if (a != null) {
            answered.put(request, a);
        }
        return a;
    }

    private Answer call(ChooseClusterRequest request, List<String> failures, Variant v) throws Exception {
        try {
            DecisionServiceGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS)
                    .chooseCluster(request);
            return new Answer(200, "", List.of());
        } catch (StatusRuntimeException e) {
            if (e.getStatus().getCode() != Status.Code.INVALID_ARGUMENT) {
                failures.add(v + ": gRPC " + e.getStatus());
                return null;
            }
            List<String> fields = Violations.of(e).stream().map(BadRequest.FieldViolation::getField).toList();
            for (String f : fields) {
                if (!FIELD.matcher(f).matches()) {
                    failures.add(v + ": gRPC violation without a field path from the root: " + f);
                }
            }
            return new Answer(400, "", fields);
        }
    }

    @Test
    void everyBrokenFieldOfAChoiceIsAnsweredAsTheClientsMistake() throws Exception {
        JsonNode root = request();
        Answer valid = RequestMutationSweepTest.rest(PATH, root.toString());
        assertThat(valid.status()).as(valid.body()).isEqualTo(200);
        assertThat(GrpcChooseClusterTest.parse(root.toString()).getWorkload().getJobsCount()).isEqualTo(1);
        List<Variant> variants = RequestMutations.of(root);
        Map<String, Answer> removed = new HashMap<>();
        List<String> failures = new ArrayList<>();
        Map<Integer, Integer> seen = new HashMap<>();
        int grpcCalls = 0;
        for (Variant v : variants) {
            Answer answer = RequestMutationSweepTest.rest(PATH, v.json());
            seen.merge(answer.status(), 1, Integer::sum);
            RequestMutationSweepTest.check(v, answer, removed, failures, FIELD);
            if (v.change() == Change.REMOVE) {
                removed.put(v.path(), answer);
            }
            Answer g = grpc(v.json(), failures, v);
            if (g != null) {
                grpcCalls++;
                RequestMutationSweepTest.checkGrpc(v, answer, g, failures);
            }
        }
        assertThat(failures).as("variants answered wrongly").isEmpty();
        assertThat(variants).hasSizeGreaterThan(400);
        assertThat(grpcCalls).isGreaterThan(150);
        assertThat(seen.keySet()).as("statuses seen").containsExactlyInAnyOrder(200, 400, 422);
        assertThat(RequestMutations.paths(root)).contains("clusters", "clusters[0].snapshot",
                "clusters[1].snapshot.nodes[0].status", "workload", "workload.jobs[0].spec.template.spec.containers",
                "workload.pods[0].metadata", "workload.compositePodGroups[0].spec", "workload.resourceClaims[0].spec",
                "workload.podDisruptionBudgets[0].spec.selector", "options");
    }
}
